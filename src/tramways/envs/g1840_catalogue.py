"""1840's action catalogue: a fixed global index built from the notation grammar.

A position may have well over a thousand legal actions (every amount of every line
auction, every tile on every hex in every rotation), so the index is built once from the
grammar of :mod:`tramways.g1840.actions`, over every map, and never depends on the position.
Who acts is left out where the position fixes it: the agent itself for player actions, the
company whose turn it is for its turn actions (``company ...``), the line whose turn it is
for line actions (``line ...``).  Actions a director may take for *any* of their companies
(IV.2 returning a company's private, VIII.5.3 scrapping a tram) name the company.

In this order (amounts in the rules' steps; the caps are far above anything reachable in
practice, see below):

==============================  ===========================  ==================================
notation                        range                        count
==============================  ===========================  ==================================
``pass``, ``accept``,           VI, VII.1, IV.2 offers       3
``decline``
``order N``                     N = 1..6 (VI)                6
``bid PRIVATE A``               6 privates, A = 5..600 by 5  720
``par CO P``                    6 tram companies x 70..100   24
``buy CO``                      6 tram + 4 Stadtbahn         10
``sell CO N``                   10 companies x N = 1..6      60
``return PRIVATE``              6 (IV.2)                     6
``company pay A``               A = 0..3000 by 10 (VIII.4)   301
``company buy COLOUR``          5 tram colours (VIII.5.3)    5
``company arrange C1,C2,..``    1-3 of none + 5 colours      258
``company done``                                             1
``company pass``                VIII.6                       1
``company auction LN A``        18 lines x A = 20..2000 by 5 7,146
``company bid A``               A = 25..2000 by 5 (VIII.6)   396
``CO scrap COLOUR``             6 x 5 (VIII.5.3)             30
``CO return PRIVATE``           6 x 6 (IV.2)                 36
``line lay HEX TILE rR``        111 hexes where tiles may    38,628
                                be laid x 58 tiles x 6
``line station HEX.L``          148 hexes x L = 0..3 (IX.6)  592
``line remove HEX.L``           148 hexes x L = 0..3 (R-LR-5) 592
``line buy PRIVATE P``          6 x P = 1..60 (IV.2)         360
``line run``                    the best route (IX.8)        1
``line done``, ``line skip``    (18xx.games), R-LR-1         2
``line scrap COLOUR``           5 tram colours (X-23,        5
                                18xx.games), appended
==============================  ===========================  ==================================

49,183 actions.  ``line scrap COLOUR`` is ``ScrapTram`` naming the acting line (``WT scrap
yellow L6``), which only the 18xx.games ruleset lists (X-23: in a Line Round the acting line
scraps its own tram); it was added after the first 49,178 entries, at the end, so that no
earlier index moved.  ``CO scrap COLOUR`` is ``ScrapTram`` without a line (a spare of that
colour goes first); under 18xx.games a line's turn lists both forms for its own tram (the
second as older records write it, the same move there), each with its own index.

``line run ROUTE`` (a claimed route) has no index: a claimed run is accepted only if it earns the best revenue (IX.8), which ``line run`` always does.  Bids above
600 (possible only after many all-pass dividends in the Pre-Share Round, R-PRE-3), company
bids above 2000 and dividends above 3000 have no index either; the catalogue test plays
random games and checks that every legal action of its positions has an index (the highest
seen in 40 random games: bids 350, line auctions 1,000, dividends 1,220, 4 shares sold at
once, 3 trams arranged, station location 1).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from tramways.core.actions import Action
from tramways.envs.base import Catalogue, Indexers
from tramways.envs.legal_map import BlockIndexers
from tramways.g1840 import actions as A
from tramways.g1840.data import LAYOUTS, load_layout, tiles
from tramways.g1840.entities import TRAM_COLOURS, Entities, entities
from tramways.g1840.rounds.line_turn import Lays
from tramways.g1840.shared_actions import Rungs

BID_CAP = 600
DIVIDEND_CAP = 3000
AUCTION_CAP = 2000
MAX_SELL = 6
MAX_ARRANGE = 3
MAX_LOCATION = 3
MAX_PRIVATE_PRICE = 60


def _hex_key(coord: str) -> tuple[str, int]:
    return coord[0], int(coord[1:])


def all_hexes() -> list[str]:
    """Every hex of every map, in row then column order."""
    out: set[str] = set()
    for name in LAYOUTS:
        out |= set(load_layout(name).hexes)
    return sorted(out, key=_hex_key)


def layable_hexes() -> list[str]:
    """Hexes where some map allows laying tiles."""
    out: set[str] = set()
    for name in LAYOUTS:
        out |= {c for c, h in load_layout(name).hexes.items() if h.laying_allowed}
    return sorted(out, key=_hex_key)


_KEYS: dict[type, Callable[[Any], Hashable | None]] = {
    A.Pass: lambda a: ("pass",),
    A.Accept: lambda a: ("accept",),
    A.Decline: lambda a: ("decline",),
    A.ChooseOrder: lambda a: ("order", a.card),
    A.Bid: lambda a: ("bid", a.private, a.amount),
    A.Par: lambda a: ("par", a.company, a.price),
    A.BuyShare: lambda a: ("buy", a.company),
    A.SellShares: lambda a: ("sell", a.company, a.count),
    A.ReturnPrivate: lambda a: ("return", a.private),
    A.Dividend: lambda a: ("company pay", a.amount),
    A.BuyTram: lambda a: ("company buy", a.colour),
    A.Arrange: lambda a: ("company arrange", a.colours),
    A.Done: lambda a: ("company done",),
    A.CompanyPass: lambda a: ("company pass",),
    A.OpenAuction: lambda a: ("company auction", a.line, a.amount),
    A.LineBid: lambda a: ("company bid", a.amount),
    A.ScrapTram: lambda a: (("scrap", a.company, a.colour) if a.line is None
                            else ("line scrap", a.colour)),
    A.CompanyReturnPrivate: lambda a: ("company return", a.company, a.private),
    A.LayTile: lambda a: ("line lay", a.hex, a.tile, a.rotation),
    A.PlaceStation: lambda a: ("line station", a.hex, a.location),
    A.RemoveMarker: lambda a: ("line remove", a.hex, a.location),
    A.BuyPrivate: lambda a: ("line buy", a.private, a.price),
    A.Run: lambda a: ("line run",) if a.route is None else None,
    A.EndTurn: lambda a: ("line done",),
    A.SkipBonus: lambda a: ("line skip",),
}


def key_of(action: Action) -> Hashable | None:
    """The catalogue key of an 1840 action (``None``: no index, a claimed route)."""
    keyer = _KEYS.get(type(action))
    return None if keyer is None else keyer(action)


def _name(key: tuple[Any, ...]) -> str:
    verb, args = key[0], key[1:]
    if verb == "company arrange":
        return f"company arrange {','.join(args[0])}"
    if verb == "company auction":
        return f"company auction L{args[0]} {args[1]}"
    if verb == "scrap":
        return f"{args[0]} scrap {args[1]}"
    if verb == "line scrap":
        return f"line scrap {args[0]}"
    if verb == "company return":
        return f"{args[0]} return {args[1]}"
    if verb == "line lay":
        return f"line lay {args[0]} {args[1]} r{args[2]}"
    if verb in ("line station", "line remove"):
        return f"{verb} {args[0]}.{args[1]}"
    return " ".join([verb, *map(str, args)])


def keys() -> list[tuple[Any, ...]]:
    """Every key, in catalogue order (see the module docstring): the players' actions, the
    companies', the lines', then the entries appended since (:func:`_appended_keys`)."""
    ent = entities()
    return [*_player_keys(ent), *_company_keys(ent), *_line_keys(ent), *_appended_keys()]


def _player_keys(ent: Entities) -> list[tuple[Any, ...]]:
    """The players' actions: pass and offers, playing order, private bids (VI), par and
    share trades (VII), private returns (IV.2)."""
    privates = list(ent.privates)
    companies = list(ent.tram_companies)
    corps = companies + list(ent.stadtbahn)
    out: list[tuple[Any, ...]] = [("pass",), ("accept",), ("decline",)]
    out += [("order", n) for n in range(1, 7)]
    out += [("bid", p, a) for p in privates for a in range(5, BID_CAP + 1, 5)]
    out += [("par", c, p) for c in companies for p in ent.par_prices]
    out += [("buy", c) for c in corps]
    out += [("sell", c, n) for c in corps for n in range(1, MAX_SELL + 1)]
    out += [("return", p) for p in privates]
    return out


def _company_keys(ent: Entities) -> list[tuple[Any, ...]]:
    """The companies' actions (VIII): dividends, trams, line auctions, scrapping, returns."""
    privates = list(ent.privates)
    companies = list(ent.tram_companies)
    lines = sorted(ent.lines)
    out: list[tuple[Any, ...]] = [("company pay", a) for a in range(0, DIVIDEND_CAP + 1, 10)]
    out += [("company buy", c) for c in TRAM_COLOURS]
    symbols = ("none", *TRAM_COLOURS)
    out += [("company arrange", t) for k in range(1, MAX_ARRANGE + 1)
            for t in product(symbols, repeat=k)]
    out += [("company done",), ("company pass",)]
    out += [("company auction", ln, a) for ln in lines
            for a in range(ent.line_min_bid, AUCTION_CAP + 1, ent.bid_step)]
    out += [("company bid", a)
            for a in range(ent.line_min_bid + ent.bid_step, AUCTION_CAP + 1, ent.bid_step)]
    out += [("scrap", c, t) for c in companies for t in TRAM_COLOURS]
    out += [("company return", c, p) for c in companies for p in privates]
    return out


def _line_keys(ent: Entities) -> list[tuple[Any, ...]]:
    """The lines' actions (IX): lays, stations, marker removals, private purchases, the end."""
    tile_ids = list(tiles())
    out: list[tuple[Any, ...]] = [("line lay", h, t, r) for h in layable_hexes()
                                  for t in tile_ids for r in range(6)]
    hexes = all_hexes()
    out += [("line station", h, loc) for h in hexes for loc in range(MAX_LOCATION + 1)]
    out += [("line remove", h, loc) for h in hexes for loc in range(MAX_LOCATION + 1)]
    out += [("line buy", p, a) for p in ent.privates for a in range(1, MAX_PRIVATE_PRICE + 1)]
    out += [("line run",), ("line done",), ("line skip",)]
    return out


def _appended_keys() -> list[tuple[Any, ...]]:
    """Entries added after the first 49,178, at the end so that no earlier index moves (saved
    policies and tests name them): X-23 (18xx.games), the acting line scraps its own tram,
    ``ScrapTram(line=L)`` (``WT scrap yellow L6``), one per tram colour (VIII.5.3).  The same
    position may also list ``CO scrap COLOUR`` (``line=None``, the form older records write,
    which that ruleset takes as the line's scrap): the two have distinct indices."""
    return [("line scrap", c) for c in TRAM_COLOURS]


@dataclass(frozen=True)
class FieldMaps:
    """The catalogue's indices by field for the classes listed by the hundred."""

    lays: dict[str, dict[str, int]]
    """hex -> tile -> its rotation 0's index (a tile's six rotations follow each other)."""
    auctions: dict[int, dict[int, int]]
    """line -> opening amount -> index."""
    raises: dict[int, int]
    """line auction raise amount -> index."""
    bids: dict[str, dict[int, int]]
    """private -> bid amount -> index."""


def field_maps(index: dict[Hashable, int]) -> FieldMaps:
    """The :class:`FieldMaps` of ``index``, in one pass over it."""
    lays: dict[str, dict[str, int]] = {}
    auctions: dict[int, dict[int, int]] = {}
    raises: dict[int, int] = {}
    bids: dict[str, dict[int, int]] = {}
    n_lays = 0
    for entry, i in index.items():
        key: tuple[Any, ...] = entry if type(entry) is tuple else ("",)
        verb = key[0]
        if verb == "line lay":
            _, coord, tile_id, rotation = key
            by_tile = lays.get(coord)
            if by_tile is None:
                by_tile = lays[coord] = {}
            if rotation == 0:
                by_tile[tile_id] = i
            elif rotation not in _ROTATIONS or by_tile.get(tile_id, -7) + rotation != i:
                raise ValueError(f"the lays of {tile_id} on {coord} are not six in a row")
            n_lays += 1
        elif verb == "company auction":
            amounts = auctions.get(key[1])
            if amounts is None:
                amounts = auctions[key[1]] = {}
            amounts[key[2]] = i
        elif verb == "company bid":
            raises[key[1]] = i
        elif verb == "bid":
            amounts = bids.get(key[1])
            if amounts is None:
                amounts = bids[key[1]] = {}
            amounts[key[2]] = i
    if n_lays != 6 * sum(map(len, lays.values())):
        raise ValueError("every tile's lay has six rotations in the catalogue")
    return FieldMaps(lays, auctions, raises, bids)


def indexers(index: dict[Hashable, int], maps: FieldMaps | None = None) -> Indexers:
    """Per action class, action -> index without building its key (:class:`Catalogue`):
    the classes listed by the hundred (tile lays, line auctions and bids, private bids) through
    maps of their fields (a lay: hex -> tile -> its rotation 0's index, plus the rotation: a
    tile's six rotations follow each other), every other class through its key; each gives
    exactly ``index.get(key_of(action))``."""
    get = index.get
    m = field_maps(index) if maps is None else maps
    lays, auctions, raises, bids = m.lays, m.auctions, m.raises, m.bids

    def by_key(keyer: Callable[[Any], Hashable | None]) -> Callable[[Any], int | None]:
        return lambda a: get(keyer(a))

    out: Indexers = {cls: by_key(keyer) for cls, keyer in _KEYS.items()}

    def lay(a: A.LayTile) -> int | None:
        tiles_of = lays.get(a.hex)
        first = None if tiles_of is None else tiles_of.get(a.tile)
        turn = _ROTATIONS.get(a.rotation)
        return None if first is None or turn is None else first + turn

    def auction(a: A.OpenAuction) -> int | None:
        amounts = auctions.get(a.line)
        return None if amounts is None else amounts.get(a.amount)

    def bid(a: A.Bid) -> int | None:
        amounts = bids.get(a.private)
        return None if amounts is None else amounts.get(a.amount)

    out[A.LayTile] = lay
    out[A.OpenAuction] = auction
    out[A.LineBid] = lambda a: raises.get(a.amount)
    out[A.Bid] = bid
    return out


def _rungs(amounts: dict[int, int] | None, block: Rungs[Any]) -> Sequence[int | None]:
    """The indices of a block's amounts (``range(low, high + 1, step)``): consecutive
    indices when its first and last amounts are that many apart in the catalogue (its
    amounts follow each other there), else amount by amount."""
    n = len(block)
    if amounts is None:
        return [None] * n
    low, step = block.low, block.step
    first, last = amounts.get(low), amounts.get(low + (n - 1) * step)
    if first is not None and last is not None and last - first == n - 1:
        return range(first, last + 1)
    return [amounts.get(low + k * step) for k in range(n)]


def block_indexers(maps: FieldMaps) -> BlockIndexers:
    """Per action class, a block of the engine's listing (:meth:`State1840.legal_parts
    <tramways.g1840.engine.State1840.legal_parts>`) -> its actions' indices, without making
    them: a line's tile lays (:class:`~tramways.g1840.rounds.line_turn.Lays`) field by field,
    a line auction's openings or raises and a private's bids
    (:class:`~tramways.g1840.shared_actions.Rungs`) as a run of indices; each the index
    :func:`indexers` gives its actions."""
    lays, auctions, raises, bids = maps.lays, maps.auctions, maps.raises, maps.bids

    def lay_block(block: Lays) -> list[int | None]:
        # a hex's lays of one tile follow each other (the listing's memo groups): the
        # tile's first index is looked up once per run of them
        out: list[int | None] = []
        coord = tile = first = None
        for t in block.lays:
            if t.tile_id is not tile or t.coord is not coord:
                coord, tile = t.coord, t.tile_id
                tiles_of = lays.get(coord)
                first = None if tiles_of is None else tiles_of.get(tile)
            turn = _ROTATIONS.get(t.rotation)
            out.append(None if first is None or turn is None else first + turn)
        return out

    return {A.LayTile: lay_block,
            A.OpenAuction: lambda b: _rungs(auctions.get(b.fields[1]), b),
            A.LineBid: lambda b: _rungs(raises, b),
            A.Bid: lambda b: _rungs(bids.get(b.fields[1]), b)}


_ROTATIONS = {r: r for r in range(6)}


def build() -> tuple[Catalogue, BlockIndexers]:
    """The catalogue and its block indexers (one pass over the index for both)."""
    ks = keys()
    maps: list[FieldMaps] = []

    def with_maps(index: dict[Hashable, int]) -> Indexers:
        maps.append(field_maps(index))
        return indexers(index, maps[0])

    catalogue = Catalogue(ks, key_of, [_name(k) for k in ks], indexers=with_maps)
    return catalogue, block_indexers(maps[0])


CATALOGUE, BLOCKS = build()
"""The catalogue, and the indexers of the engine's blocks (:func:`block_indexers`)."""
