"""The non-map facts of 1840: companies, privates, lines, trams, share market, Round Bar.

Backed by ``data/entities.json`` (transcribed from the rules: III.3 starting capital, IV.1-IV.3,
VII.3 Table 5, VIII.3 Table 1, VIII.5.3 Table 7, X Table 6, the Round Bar).  Everything here is
immutable and loaded once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

TRAM_COLOURS: tuple[str, ...] = ("yellow", "orange", "red", "pink", "purple")


@dataclass(frozen=True, slots=True)
class Private:
    """A private company (landmark), IV.2 Table 4."""

    id: str
    name: str
    face_value: int
    dividend: int
    landmark_hex: str
    removed_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LineCard:
    """A line card (IV.3): its number and home base hex."""

    number: int
    home_hex: str
    home_name: str
    removed_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TramCompanyDef:
    """A tram company (IV.1.2 Table 2); ``id`` is the notation token."""

    id: str
    abbreviation: str
    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class StadtbahnDef:
    """A Stadtbahn company (IV.1.3 Table 3)."""

    id: str
    name: str
    colour: str
    par: int
    removed_in: tuple[str, ...]
    revenue_before_any_tile: dict[str, int]


@dataclass(frozen=True, slots=True)
class RoundDef:
    """One space of the Round Bar (V)."""

    name: str
    type: str  # "PRE", "SR", "CR", "LR"
    phase: str  # the newest tile colour available (R-LR-7)


@dataclass(frozen=True)
class Entities:
    """All the non-map facts."""

    starting_cash: dict[int, int]
    pre_emptive_right: int
    certificate_limit: dict[int, int]
    max_percent: int
    share_percent: int  # one share certificate (IV.1.1)
    director_percent: int  # the director's share (IV.1.2, VII.5)
    private_bid_step: int  # Pre-Share Round bids (VI, R-PRE-1)
    private_reduction: int  # the cheapest private's reduction after an all-pass (R-PRE-2)
    privates: dict[str, Private]
    lines: dict[int, LineCard]
    station_marker_costs: tuple[int, ...]
    line_min_bid: int
    bid_step: int
    marker_removal_cost: int
    stadtbahn_tile_cost: int
    tram_companies: dict[str, TramCompanyDef]
    par_prices: tuple[int, ...]
    stadtbahn: dict[str, StadtbahnDef]
    stadtbahn_multiplier: dict[str, int]
    tram_counts: dict[int, dict[str, int]]
    tram_prices_by_space: dict[str, tuple[int | None, int | None, int | None]]
    maintenance: dict[str, dict[str, int | None]]
    max_trams: int
    market_rows: tuple[tuple[int, ...], ...]
    tram_par_cells: dict[int, tuple[int, int]]
    stadtbahn_par_cells: dict[int, tuple[int, int]]
    dividend_moves: tuple[tuple[int, int | None, int], ...]
    loan_amount: int
    loan_end_value: int
    round_bar: tuple[RoundDef, ...]

    @property
    def shares(self) -> int:
        """A company's number of share certificates' worth: ten 10% shares (IV.1.1)."""
        return 100 // self.share_percent

    def dividend_move(self, total: int) -> int:
        """Spaces to move for a total dividend (Table 6, X.2): negative = left."""
        for low, high, move in self.dividend_moves:
            if total >= low and (high is None or total <= high):
                return move
        return 0

    def maintenance_for(self, colour: str, newest: str) -> int:
        """Table 7: the amount added to a tram's run (negative = cost; purple +200)."""
        value = self.maintenance[colour][newest]
        return 0 if value is None else value


def _build(raw: dict[str, Any]) -> Entities:
    return Entities(
        starting_cash={int(k): v for k, v in raw["starting_cash"].items()},
        pre_emptive_right=raw["pre_emptive_right"],
        certificate_limit={int(k): v for k, v in raw["certificate_limit"].items()},
        max_percent=raw["max_percent"],
        share_percent=raw["share_percent"],
        director_percent=raw["director_percent"],
        private_bid_step=raw["private_auction"]["increment"],
        private_reduction=raw["private_auction"]["reduction"],
        privates={
            p["id"]: Private(p["id"], p["name"], p["face_value"], p["dividend"],
                             p["landmark_hex"], tuple(p["removed_in"]))
            for p in raw["privates"]
        },
        lines={
            ln["number"]: LineCard(ln["number"], ln["home_hex"], ln["home_name"],
                                   tuple(ln["removed_in"]))
            for ln in raw["lines"]
        },
        station_marker_costs=tuple(raw["station_marker_costs"]),
        line_min_bid=raw["line_auction"]["minimum_bid"],
        bid_step=raw["line_auction"]["increment"],
        marker_removal_cost=raw["stadtbahn_marker_removal_cost"],
        stadtbahn_tile_cost=raw["stadtbahn_tile_cost"],
        tram_companies={
            t["id"]: TramCompanyDef(t["id"], t["abbreviation"], t["name"], t["colour"])
            for t in raw["tram_companies"]
        },
        par_prices=tuple(raw["par_prices"]),
        stadtbahn={
            s["id"]: StadtbahnDef(s["id"], s["name"], s["colour"], s["par"],
                                  tuple(s["removed_in"]), dict(s["revenue_before_any_tile"]))
            for s in raw["stadtbahn_companies"]
        },
        stadtbahn_multiplier=dict(raw["stadtbahn_multiplier"]),
        tram_counts={int(k): dict(v) for k, v in raw["tram_counts"].items()},
        tram_prices_by_space={c: tuple(v) for c, v in raw["tram_prices_by_space"].items()},
        maintenance={c: dict(v) for c, v in raw["maintenance"].items()},
        max_trams=raw["max_trams"],
        market_rows=tuple(tuple(r) for r in raw["share_market"]["rows"]),
        tram_par_cells={int(k): (v[0], v[1])
                        for k, v in raw["share_market"]["tram_par_cells"].items()},
        stadtbahn_par_cells={int(k): (v[0], v[1])
                             for k, v in raw["share_market"]["stadtbahn_par_cells"].items()},
        dividend_moves=tuple((a, b, c) for a, b, c in raw["dividend_moves"]),
        loan_amount=raw["loan"]["amount"],
        loan_end_value=raw["loan"]["end_value"],
        round_bar=tuple(RoundDef(r["name"], r["type"], r.get("phase", "yellow"))
                        for r in raw["round_bar"]),
    )


@cache
def entities() -> Entities:
    """The facts, loaded once from ``data/entities.json``."""
    text = (Path(__file__).parent / "data" / "entities.json").read_text("utf-8")
    return _build(json.loads(text))


def layout_name(players: int, small_map: bool) -> str:
    """R-SETUP-3: 2 players -> two_player; 3 with the small map -> small3; else full."""
    if players == 2:
        return "two_player"
    if players == 3 and small_map:
        return "small3"
    return "full"


def privates_in(layout: str) -> list[str]:
    """Privates in the game for a layout (XII, XIII), by face value."""
    return [p.id for p in entities().privates.values() if layout not in p.removed_in]


def lines_in(layout: str) -> list[int]:
    """Line numbers in the game for a layout (XII, XIII)."""
    return [n for n, c in entities().lines.items() if layout not in c.removed_in]


def stadtbahn_in(layout: str) -> list[str]:
    """Stadtbahn companies in the game for a layout (XII, XIII)."""
    return [s.id for s in entities().stadtbahn.values() if layout not in s.removed_in]
