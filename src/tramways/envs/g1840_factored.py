"""1840 actions as a short sequence of small choices: the action type, then its arguments.

The flat catalogue of :mod:`tramways.envs.g1840_catalogue` has 49,183 entries; a learner's
policy head over it is huge and most entries are never legal.  Here an action is a tuple of
choices, each from one small **head**:

==========  =====  ===========================================================================
head        size   values
==========  =====  ===========================================================================
type        25     :data:`TYPES` (``pass`` ... ``line skip``)
hex         148    every hex of the three maps (:func:`g1840_catalogue.all_hexes`)
tile        58     the tiles (``tramways.g1840.data.tiles``)
rotation    6      0..5
location    4      a station location 0..3 on a hex (IX.6)
company     10     WT, DT, SJE, BBG, WKB, GW, then the Stadtbahn companies W, V, G, D
private     6      the privates
line        18     lines 1..18
colour      5      tram colours
number      401    a count or an amount, in the type's unit (below)
==========  =====  ===========================================================================

The arguments of each type, in order (``number`` units in brackets):

* ``pass``, ``accept``, ``decline``, ``company done``, ``company pass``, ``line run`` (the best
  route, IX.8), ``line done``, ``line skip``: none;
* ``order``: number (the card, VI); ``bid``: private, number (amount / 5, VII.1);
  ``par``: company, number (the price); ``buy``: company; ``sell``: company, number (shares);
  ``return``: private (IV.2);
* ``company pay``: number (amount / 10, VIII.4); ``company buy``: colour (VIII.5.3);
  ``company arrange``: number (the index in :data:`ARRANGEMENTS`); ``company auction``:
  line, number (amount / 5, VIII.6); ``company bid``: number (amount / 5); ``scrap``: company,
  colour (a scrap naming the line, ``WT scrap yellow L6``, too: under the 18xx.games ruleset the
  acting line's own tram, listed next to ``WT scrap yellow``, the same move there, X-23; the
  flat catalogue gives the two distinct indices); ``company return``: company, private;
* ``line lay``: hex, tile, rotation (IX.4); ``line station`` and ``line remove``: hex,
  location (IX.6, R-LR-5); ``line buy``: private, number (the price, IV.2).

Amounts past the number head (bids and line auctions above 2,000, dividends above 4,000) and
claimed routes (``line run ROUTE``) have no factored form, like in the flat catalogue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

from tramways.core.actions import Action
from tramways.envs.g1840_catalogue import MAX_ARRANGE, MAX_LOCATION, all_hexes
from tramways.g1840 import actions as A
from tramways.g1840.data import tiles
from tramways.g1840.entities import TRAM_COLOURS, entities

_ENT = entities()
HEXES = all_hexes()
TILES = list(tiles())
CORPS = list(_ENT.tram_companies) + list(_ENT.stadtbahn)
PRIVATES = list(_ENT.privates)
LINES = sorted(_ENT.lines)
ARRANGEMENTS = [t for k in range(1, MAX_ARRANGE + 1)
                for t in product(("none", *TRAM_COLOURS), repeat=k)]
"""``company arrange`` tuples, in the order of the number head."""

TYPES = ("pass", "accept", "decline", "order", "bid", "par", "buy", "sell", "return",
         "company pay", "company buy", "company arrange", "company done", "company pass",
         "company auction", "company bid", "scrap", "company return", "line lay",
         "line station", "line remove", "line buy", "line run", "line done", "line skip")

NUMBER = 401
HEADS: dict[str, int] = {"type": len(TYPES), "hex": len(HEXES), "tile": len(TILES),
                         "rotation": 6, "location": MAX_LOCATION + 1, "company": len(CORPS),
                         "private": len(PRIVATES), "line": len(LINES),
                         "colour": len(TRAM_COLOURS), "number": NUMBER}
HEAD_NAMES = tuple(HEADS)
MAX_HEAD = max(HEADS.values())

ARGS: dict[str, tuple[str, ...]] = {
    "pass": (), "accept": (), "decline": (), "order": ("number",),
    "bid": ("private", "number"), "par": ("company", "number"), "buy": ("company",),
    "sell": ("company", "number"), "return": ("private",), "company pay": ("number",),
    "company buy": ("colour",), "company arrange": ("number",), "company done": (),
    "company pass": (), "company auction": ("line", "number"), "company bid": ("number",),
    "scrap": ("company", "colour"), "company return": ("company", "private"),
    "line lay": ("hex", "tile", "rotation"), "line station": ("hex", "location"),
    "line remove": ("hex", "location"), "line buy": ("private", "number"), "line run": (),
    "line done": (), "line skip": (),
}
"""The heads of each type's arguments, in order."""

_T = {t: i for i, t in enumerate(TYPES)}
_HEX = {h: i for i, h in enumerate(HEXES)}
_TILE = {t: i for i, t in enumerate(TILES)}
_CORP = {c: i for i, c in enumerate(CORPS)}
_PRIV = {p: i for i, p in enumerate(PRIVATES)}
_LINE = {n: i for i, n in enumerate(LINES)}
_COLOUR = {c: i for i, c in enumerate(TRAM_COLOURS)}
_ARR = {t: i for i, t in enumerate(ARRANGEMENTS)}


def _n(value: int) -> int | None:
    return value if 0 <= value < NUMBER else None


Choices = tuple[str, tuple[int | None, ...]]
"""An action's type and its arguments' indices (``None``: past its head)."""

_CHOICES: dict[type, Callable[[Any], Choices | None]] = {
    A.Pass: lambda a: ("pass", ()),
    A.Accept: lambda a: ("accept", ()),
    A.Decline: lambda a: ("decline", ()),
    A.ChooseOrder: lambda a: ("order", (_n(a.card),)),
    A.Bid: lambda a: ("bid", (_PRIV[a.private], _n(a.amount // 5))),
    A.Par: lambda a: ("par", (_CORP[a.company], _n(a.price))),
    A.BuyShare: lambda a: ("buy", (_CORP[a.company],)),
    A.SellShares: lambda a: ("sell", (_CORP[a.company], _n(a.count))),
    A.ReturnPrivate: lambda a: ("return", (_PRIV[a.private],)),
    A.Dividend: lambda a: ("company pay", (_n(a.amount // 10),)),
    A.BuyTram: lambda a: ("company buy", (_COLOUR[a.colour],)),
    A.Arrange: lambda a: ("company arrange", (_ARR.get(tuple(a.colours)),)),
    A.Done: lambda a: ("company done", ()),
    A.CompanyPass: lambda a: ("company pass", ()),
    A.OpenAuction: lambda a: ("company auction", (_LINE[a.line], _n(a.amount // 5))),
    A.LineBid: lambda a: ("company bid", (_n(a.amount // 5),)),
    A.ScrapTram: lambda a: ("scrap", (_CORP[a.company], _COLOUR[a.colour])),
    A.CompanyReturnPrivate: lambda a: ("company return", (_CORP[a.company], _PRIV[a.private])),
    A.LayTile: lambda a: ("line lay", (_HEX[a.hex], _TILE[a.tile], a.rotation)),
    A.PlaceStation: lambda a: ("line station", (_HEX[a.hex], min(a.location, MAX_LOCATION + 1))),
    A.RemoveMarker: lambda a: ("line remove", (_HEX[a.hex], min(a.location, MAX_LOCATION + 1))),
    A.BuyPrivate: lambda a: ("line buy", (_PRIV[a.private], _n(a.price))),
    A.Run: lambda a: ("line run", ()) if a.route is None else None,
    A.EndTurn: lambda a: ("line done", ()),
    A.SkipBonus: lambda a: ("line skip", ()),
}
"""Each action class's choices, by its type (the classes of :mod:`tramways.g1840.actions` do
not subclass one another)."""


def _choices(action: Action) -> Choices | None:
    chooser = _CHOICES.get(type(action))
    return None if chooser is None else chooser(action)


def factor(action: Action) -> tuple[int, ...] | None:
    """The choices of ``action`` (type index first, then each argument's index in its head),
    or ``None`` if it has no factored form."""
    found = _choices(action)
    if found is None:
        return None
    kind, args = found
    if any(x is None or not 0 <= x < HEADS[h] for x, h in zip(args, ARGS[kind], strict=True)):
        return None
    return (_T[kind], *(int(x) for x in args if x is not None))


def head_of(prefix: tuple[int, ...]) -> str:
    """The head of the next choice after ``prefix`` (``"type"`` for the first)."""
    if not prefix:
        return "type"
    return ARGS[TYPES[prefix[0]]][len(prefix) - 1]


def describe(choices: tuple[int, ...]) -> str:
    """A readable form of a (partial) choice tuple, e.g. ``line lay F12 tile 8 r2``."""
    if not choices:
        return ""
    kind = TYPES[choices[0]]
    names: dict[str, Sequence[Any]] = {"hex": HEXES, "tile": TILES, "company": CORPS, "private": PRIVATES,
             "line": LINES, "colour": TRAM_COLOURS}
    parts = [kind]
    for head, x in zip(ARGS[kind], choices[1:], strict=False):
        parts.append(f"{head}={names[head][x]}" if head in names else f"{head}={x}")
    return " ".join(parts)
