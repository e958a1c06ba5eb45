"""The cards of the 1840 table: the privates (IV.2, Table 4) and the lines (IV.3), as a player
of the printed game has them in front of them, built from the view and the game's entities.

A private's card: its face value and dividend (paid to the owner in step a of each Company
Round, VIII.5), its owner (a player, a tram company, or the bank while unsold), its landmark
hex and what it does (IV.2: +20 to a route of its company's lines through the landmark; the
owner may return it to the bank for the face value; from LR2a a company may buy it from a
player for 1 to the face value).  A line's card: its number, its home hex and the place's
name, its company and tram once bought.  Every card names a hex, which the page highlights on
the map while the card is hovered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tramways.g1840.entities import entities
from tramways.g1840.view_types import View1840

LANDMARK_BONUS = 20
"""IV.2: a route to or through the landmark of a private its company owns earns 20 more."""


@dataclass(frozen=True)
class PrivateCard:
    id: str
    name: str
    face_value: int
    dividend: int
    hex: str
    owner: str  # a player's name or a company id; "" while the bank has it
    owner_kind: str  # "player", "company" or "bank"
    in_auction: bool
    high: int | None  # the auction's high bid on it (VI)
    bonus: int = LANDMARK_BONUS


@dataclass(frozen=True)
class LineCard:
    number: int
    hex: str
    home: str
    company: str  # "" while on display or in the deck
    tram: str | None
    in_auction: bool


def private_cards(view: View1840) -> list[PrivateCard]:
    """The privates of the game (XII, XIII leave some out), cheapest first."""
    ent = entities()
    auction = view.round_info.auction
    bidding = getattr(auction, "private", None)
    high = getattr(auction, "high", None)
    out = []
    for pid in sorted(view.privates, key=lambda p: ent.privates[p].face_value):
        p = ent.privates[pid]
        owner = view.privates[pid]
        if isinstance(owner, int):
            name, kind = view.players[owner].name, "player"
        elif owner:
            name, kind = str(owner), "company"
        else:
            name, kind = "", "bank"
        out.append(PrivateCard(p.id, p.name, p.face_value, p.dividend, p.landmark_hex, name, kind,
                               bidding == pid, high if bidding == pid else None))
    return out


def line_card(view: View1840, number: int) -> LineCard:
    card = entities().lines[number]
    company = view.company_of_line(number) or ""
    tram = view.companies[company].tram_of(number) if company else None
    auction = view.round_info.auction
    return LineCard(number, card.home_hex, card.home_name, company, tram,
                    getattr(auction, "line", None) == number)


def display_cards(view: View1840) -> list[LineCard]:
    """The lines on display (IV.3, VIII.6): the ones the companies may auction."""
    return [line_card(view, n) for n in view.line_display]


def company_line_cards(view: View1840) -> dict[str, list[LineCard]]:
    """Each tram company's lines with their home and tram."""
    return {cid: [line_card(view, n) for n in c.lines] for cid, c in view.companies.items()}


def auction_lines(view: View1840) -> list[LineCard]:
    """The line being auctioned (VIII.6), or the lines that may be (on display)."""
    line = getattr(view.round_info.auction, "line", None)
    return [line_card(view, int(line))] if line is not None else display_cards(view)


@dataclass(frozen=True)
class TileRow:
    """One entry of the tile supply (R-LR-11, or X-7 with the 18xx.games ruleset)."""

    key: str
    colour: str
    left: int
    total: int
    upgrades: tuple[str, ...]  # the supply entries that may replace it (IX.5)
    tiles: tuple[str, ...] = ()  # its tiles (L30 is L30a and L30b), each drawn in the manifest
    upgrade_tiles: tuple[str, ...] = ()  # a tile of each entry of ``upgrades``, for its picture


def tile_manifest(board: Any) -> list[TileRow]:
    """Every tile of the supply: what is left of how many, and what it upgrades to."""
    from tramways.g1840.data import initial_supply, supply_key, tiles

    defs = tiles()
    by_key: dict[str, list[Any]] = {}
    for tile in defs.values():
        try:
            by_key.setdefault(supply_key(tile.id, board.ruleset), []).append(tile)
        except KeyError:
            continue
    out = []
    for key, total in initial_supply(board.ruleset).items():
        members = by_key.get(key, [])
        if not members:
            continue
        ups = sorted({supply_key(u, board.ruleset) for t in members for u in t.upgrades
                      if u in defs}, key=_tile_number)
        out.append(TileRow(key, members[0].colour, int(board.supply.get(key, 0)), int(total),
                           tuple(ups), tuple(t.id for t in members),
                           tuple(by_key[u][0].id for u in ups)))
    order = ("yellow", "green", "brown", "grey", "red", "purple", "orange")
    out.sort(key=lambda r: (order.index(r.colour) if r.colour in order else len(order),
                            _tile_number(r.key)))
    return out


def _tile_number(key: str) -> tuple[int, str]:
    digits = "".join(ch for ch in key if ch.isdigit())
    return (int(digits) if digits else 0, key)
