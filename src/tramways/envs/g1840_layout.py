"""The layout of the :mod:`g1840_v0` observation: the entity orders and each block's offset
(the module docstring of :mod:`g1840_v0` describes the blocks)."""

from __future__ import annotations

from typing import Any

from tramways.envs.g1840_catalogue import MAX_LOCATION, all_hexes
from tramways.g1840.data import tiles
from tramways.g1840.entities import TRAM_COLOURS, entities

_ENT = entities()
SEATS = 6
COMPANIES = list(_ENT.tram_companies)
STADTBAHN = list(_ENT.stadtbahn)
CORPS = COMPANIES + STADTBAHN
PRIVATES = list(_ENT.privates)
LINES = sorted(_ENT.lines)
ROUNDS = [r.name for r in _ENT.round_bar]
PHASES = ("yellow", "green", "brown", "grey")
ROUND_TYPES = ("PRE", "SR", "CR", "LR")
CR_STEPS = ("d", "post", "e", "final", "mandatory")
BONUSES = ("lay_additional_yellow_tile", "upgrade_yellow_tile_to_green",
           "lay_red_inner_city_tile", "lay_purple_railway_station_tile",
           "place_additional_station_marker")
HEXES = all_hexes()
TILES = list(tiles())

_I: dict[str, dict[Any, int]] = {
    "company": {c: i for i, c in enumerate(COMPANIES)},
    "corp": {c: i for i, c in enumerate(CORPS)},
    "stadtbahn": {c: i for i, c in enumerate(STADTBAHN)},
    "private": {p: i for i, p in enumerate(PRIVATES)},
    "line": {n: i for i, n in enumerate(LINES)},
    "round": {r: i for i, r in enumerate(ROUNDS)},
    "phase": {p: i for i, p in enumerate(PHASES)},
    "type": {t: i for i, t in enumerate(ROUND_TYPES)},
    "step": {s: i for i, s in enumerate(CR_STEPS)},
    "bonus": {b: i for i, b in enumerate(BONUSES)},
    "colour": {c: i for i, c in enumerate(TRAM_COLOURS)},
    "hex": {h: i for i, h in enumerate(HEXES)},
    "tile": {t: i for i, t in enumerate(TILES)},
}


class _Layout:
    """Offsets of the observation's blocks."""

    def __init__(self) -> None:
        at = 0

        def block(size: int) -> int:
            nonlocal at
            start = at
            at += size
            return start

        self.finished = block(1)
        self.players = block(5)
        self.round = block(len(ROUNDS))
        self.type = block(len(ROUND_TYPES))
        self.phase = block(len(PHASES))
        self.step = block(len(CR_STEPS) + 1)
        self.actor = block(SEATS)
        self.company = block(len(COMPANIES))
        self.line = block(len(LINES))
        self.line_turn = block(6)
        self.bonus = block(len(BONUSES) + 1)
        self.auction_private = block(len(PRIVATES))
        self.auction_line = block(len(LINES))
        self.auction_high = block(1)
        self.auction_seat = block(SEATS)
        self.auction_company = block(len(COMPANIES))
        self.display = block(len(LINES))
        self.deck = block(1)
        self.on_sale = block(len(TRAM_COLOURS))
        self.newest = block(len(TRAM_COLOURS))
        self.my_turn = block(1)
        self.global_size = at
        self.seat_size = 4 + len(CORPS) + len(PRIVATES) + 3
        self.seat = block(SEATS * self.seat_size)
        self.company_size = 1 + SEATS + 5 + len(TRAM_COLOURS) + len(PRIVATES) + 4
        self.companies = block(len(COMPANIES) * self.company_size)
        self.line_size = len(COMPANIES) + len(TRAM_COLOURS) + 2
        self.lines = block(len(LINES) * self.line_size)
        self.stadtbahn_size = 7
        self.stadtbahns = block(len(STADTBAHN) * self.stadtbahn_size)
        self.private_size = 1 + SEATS + len(COMPANIES)
        self.privates = block(len(PRIVATES) * self.private_size)
        self.slots = MAX_LOCATION + 1
        self.hex_size = len(TILES) + 6 + self.slots * len(CORPS)
        self.hexes = block(len(HEXES) * self.hex_size)
        self.size = at


L = _Layout()
GLOBAL = L.global_size
OBS_SIZE = L.size
