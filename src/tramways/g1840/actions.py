"""1840 actions and their notation.

Player actions start with the seat (``P1`` is seat 0): ``P1 bid KK 25``, ``P1 pass``,
``P1 order 2``, ``P2 par WT 90``, ``P1 buy W``, ``P1 sell WT 2``, ``P1 return KK``, ``P2 accept``,
``P2 decline`` (an offer for a private), ``P2 resign`` (the game ends: docs/async.md).

Company actions start with the tram company (``WT``, ``DT``, ``SJE``, ``BBG``, ``WKB``, ``GW``):
``WT pay 120``, ``WT buy orange``, ``WT scrap yellow``, ``WT arrange orange,yellow``,
``WT done``, ``WT auction L7 20``, ``WT bid 25``, ``WT pass``, ``WT return KK``.

Line actions start with the line (``L7``): ``L7 lay E17 57 r2``, ``L7 station E17.0``,
``L7 remove G3.0``, ``L7 buy KK 15`` (from the director at once; from another player as an
offer that player accepts or declines), ``L7 run`` or ``L7 run <route>``, and with the
18xx.games ruleset ``L7 done`` (end the turn after the run); ``L7 skip`` declines a pending
Stadtbahn bonus.

Company and line actions are taken by the company's director; their ``player`` is filled in by
``legal_actions`` but is not part of the notation (nor of equality), so
``parse(format(a)) == a`` holds for every action.

Each action class defines its own notation next to its fields: its ``verb`` and its ``words``
(one :class:`Word` per field: how it is written and read), from which :meth:`Notated.format`
writes it and :meth:`Notated.parse` reads it; a class whose words are not one per field
overrides ``args`` and ``parse``.  Registering a class (:func:`notation`) files it under its
kind (player, company or line) and verb, which is how :func:`parse_action` finds the parser
for a text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Self

from tramways.core.actions import Action
from tramways.core.errors import NotationError
from tramways.g1840.notation import (
    AUCTIONED_LINE,
    COLOUR,
    COLOURS,
    HEX,
    LINE,
    NAME,
    PLAYER,
    ROT,
    Notated,
    Word,
    arity,
    int_word,
    name_word,
    notation,
    parser,
    read_colour,
    read_int,
    read_location,
    read_name,
)

# --- player actions --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerAction(Action, Notated):
    """An action of a player (``P1`` is seat 0)."""

    kind: ClassVar[str] = "player"

    def head(self) -> str:
        return f"P{self.player + 1}"

    @classmethod
    def of(cls, subject: Any, **fields: Any) -> Self:
        return cls(subject, **fields)


@notation
@dataclass(frozen=True, slots=True)
class Bid(PlayerAction):
    """Pre-Share Round: open or raise the auction of ``private`` (VI)."""

    private: str
    amount: int
    verb: ClassVar[str] = "bid"
    words: ClassVar[tuple[Word, ...]] = (name_word("private"), int_word("amount"))


@notation
@dataclass(frozen=True, slots=True)
class Pass(PlayerAction):
    """A player passes (VI, VII.1)."""

    verb: ClassVar[str] = "pass"


@notation
@dataclass(frozen=True, slots=True)
class ChooseOrder(PlayerAction):
    """End of the Pre-Share Round: take a playing order card (VI)."""

    card: int
    verb: ClassVar[str] = "order"
    words: ClassVar[tuple[Word, ...]] = (int_word("card"),)


@notation
@dataclass(frozen=True, slots=True)
class Par(PlayerAction):
    """SR1: buy the director's share of ``company`` at ``price`` (VII.5)."""

    company: str
    price: int
    verb: ClassVar[str] = "par"
    words: ClassVar[tuple[Word, ...]] = (name_word("company"), int_word("price"))


@notation
@dataclass(frozen=True, slots=True)
class BuyShare(PlayerAction):
    """Buy one 10% share (VII.6)."""

    company: str
    verb: ClassVar[str] = "buy"
    words: ClassVar[tuple[Word, ...]] = (name_word("company"),)


@notation
@dataclass(frozen=True, slots=True)
class SellShares(PlayerAction):
    """Sell ``count`` 10% shares (VII.4) at the current price; ``price`` (per share) only in a
    record imported from 18xx.games, which pays the price its sale records (X-19, proposed):
    ``P1 sell WT 2 at 65``."""

    company: str
    count: int
    price: int | None = None
    verb: ClassVar[str] = "sell"
    words: ClassVar[tuple[Word, ...]] = (name_word("company"), int_word("count"))

    def args(self) -> str:
        at = "" if self.price is None else f" at {self.price}"
        return f"{self.company} {self.count}{at}"

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        if len(args) == 4 and args[2] == "at":  # X-19 (proposed): a recorded sale price
            return cls(subject, read_name(args[0], "company"), read_int(args[1], "count"),
                       read_int(args[3], "price"))
        return super(SellShares, cls).parse(subject, args, rest)


@notation
@dataclass(frozen=True, slots=True)
class ReturnPrivate(PlayerAction):
    """Return a player's private to the bank for its face value (IV.2)."""

    private: str
    verb: ClassVar[str] = "return"
    words: ClassVar[tuple[Word, ...]] = (name_word("private"),)


@notation
@dataclass(frozen=True, slots=True)
class Accept(PlayerAction):
    """A player accepts a company's offer for their private (IV.2)."""

    verb: ClassVar[str] = "accept"


@notation
@dataclass(frozen=True, slots=True)
class Decline(PlayerAction):
    """A player declines a company's offer for their private (IV.2)."""

    verb: ClassVar[str] = "decline"


@notation
@dataclass(frozen=True, slots=True)
class Resign(PlayerAction):
    """A player resigns and the game ends at once (the site's ``on_resign: "end"``,
    docs/async.md): no rulebook section; R-END-1's ranking with the resigner last.  Never
    listed by ``legal_actions`` (``Action.resigns``)."""

    verb: ClassVar[str] = "resign"
    resigns: ClassVar[bool] = True


# --- company actions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyAction(Action, Notated):
    """An action of a tram company, taken by its director (``WT``)."""

    player: int = field(default=-1, compare=False)
    company: str
    kind: ClassVar[str] = "company"

    def head(self) -> str:
        return self.company

    @classmethod
    def of(cls, subject: Any, **fields: Any) -> Self:
        return cls(company=subject, **fields)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class Dividend(CompanyAction):
    """CRd: pay ``amount`` of the revenue space as dividend (VIII.5.1)."""

    amount: int
    verb: ClassVar[str] = "pay"
    words: ClassVar[tuple[Word, ...]] = (int_word("amount"),)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class BuyTram(CompanyAction):
    """Buy a tram of ``colour`` (VIII.5.3)."""

    colour: str
    verb: ClassVar[str] = "buy"
    words: ClassVar[tuple[Word, ...]] = (COLOUR,)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class ScrapTram(CompanyAction):
    """Scrap a tram of ``colour`` without compensation (VIII.5.3); ``line`` names the tram
    running that line (``WT scrap yellow L6``), otherwise a spare of that colour goes first."""

    colour: str
    line: int | None = None
    verb: ClassVar[str] = "scrap"
    words: ClassVar[tuple[Word, ...]] = (COLOUR,)

    def args(self) -> str:
        return self.colour + ("" if self.line is None else f" L{self.line}")

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        if len(args) == 2 and LINE.fullmatch(args[1]):
            return cls(company=subject, colour=read_colour(args[0]), line=int(args[1][1:]))
        return super(ScrapTram, cls).parse(subject, args, rest)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class Arrange(CompanyAction):
    """Rearrange the trams between the company's lines: ``colours`` in line order, ``"none"``
    for a line left without a tram, spares after the lines (``WT arrange orange,yellow``)."""

    colours: tuple[str, ...]
    verb: ClassVar[str] = "arrange"
    words: ClassVar[tuple[Word, ...]] = (COLOURS,)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class Done(CompanyAction):
    """End the company's tram buying turn."""

    verb: ClassVar[str] = "done"


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class OpenAuction(CompanyAction):
    """CRe: choose ``line`` and open its auction with ``amount`` (VIII.6, R-CR-7):
    ``WT auction L7 20``."""

    line: int
    amount: int
    verb: ClassVar[str] = "auction"
    words: ClassVar[tuple[Word, ...]] = (AUCTIONED_LINE, int_word("amount"))


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class LineBid(CompanyAction):
    """CRe: raise the current line auction to ``amount`` (VIII.6)."""

    amount: int
    verb: ClassVar[str] = "bid"
    words: ClassVar[tuple[Word, ...]] = (int_word("amount"),)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyPass(CompanyAction):
    """CRe: pass on choosing a line, or in the current auction (VIII.6)."""

    verb: ClassVar[str] = "pass"


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyReturnPrivate(CompanyAction):
    """Return a company-owned private to the bank for its face value (IV.2)."""

    private: str
    verb: ClassVar[str] = "return"
    words: ClassVar[tuple[Word, ...]] = (name_word("private"),)


# --- line actions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LineAction(Action, Notated):
    """An action of a line, taken by its company's director (``L7``)."""

    player: int = field(default=-1, compare=False)
    line: int
    kind: ClassVar[str] = "line"

    def head(self) -> str:
        return f"L{self.line}"

    @classmethod
    def of(cls, subject: Any, **fields: Any) -> Self:
        return cls(line=subject, **fields)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class LayTile(LineAction):
    """Lay or upgrade a tile (IX.4, IX.5), or a Stadtbahn tile or a bonus tile (R-LR-1):
    ``L7 lay E17 57 r2``."""

    hex: str
    tile: str
    rotation: int
    verb: ClassVar[str] = "lay"

    def args(self) -> str:
        return f"{self.hex} {self.tile} r{self.rotation}"

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        arity(args, 3)
        m = ROT.fullmatch(args[2])
        if not m or not HEX.fullmatch(args[0]):
            raise NotationError("expected: lay HEX TILE rN")
        return cls(line=subject, hex=args[0], tile=args[1], rotation=int(m.group(1)))


@dataclass(frozen=True, slots=True, kw_only=True)
class _AtLocation(LineAction):
    """A line's action on one location of a hex, written ``HEX.LOCATION`` (``E17.0``)."""

    hex: str
    location: int

    def args(self) -> str:
        return f"{self.hex}.{self.location}"

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        arity(args, 1)
        hx, loc = read_location(args[0])
        return cls(line=subject, hex=hx, location=loc)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceStation(_AtLocation):
    """Place a station marker on ``hex`` location ``location`` (IX.6): ``L7 station E17.0``."""

    verb: ClassVar[str] = "station"


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveMarker(_AtLocation):
    """Remove a Stadtbahn station marker for 40 (IX.6, R-LR-5): ``L7 remove G3.0``."""

    verb: ClassVar[str] = "remove"


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class BuyPrivate(LineAction):
    """The line's company buys a private from a player (IV.2, from LR2a): ``L7 buy KK 15``."""

    private: str
    price: int
    verb: ClassVar[str] = "buy"
    words: ClassVar[tuple[Word, ...]] = (name_word("private"), int_word("price"))


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class Run(LineAction):
    """Run the line's tram (IX.7): the best route, or a claimed route in route notation
    (``L7 run E15.0-E17.0``, the rest of the text)."""

    route: str | None = None
    verb: ClassVar[str] = "run"

    def args(self) -> str:
        return "" if self.route is None else self.route

    @classmethod
    def parse(cls, subject: Any, args: list[str], rest: str) -> Self:
        return cls(line=subject, route=rest if args else None)


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(LineAction):
    """18xx.games ruleset: end a line's turn after its run (its company may still buy a
    private then, the site's BuyCompany step): ``L7 done``."""

    verb: ClassVar[str] = "done"


@notation
@dataclass(frozen=True, slots=True, kw_only=True)
class SkipBonus(LineAction):
    """Decline the pending bonus action of the Stadtbahn tile just laid (R-LR-1)."""

    verb: ClassVar[str] = "skip"


# --- notation --------------------------------------------------------------------------


def format_action(action: Action) -> str:
    """The notation of an action (its class's :meth:`Notated.format`)."""
    if isinstance(action, Notated):
        return action.format()
    raise NotationError(f"not an 1840 action: {action!r}")


_SUBJECTS: tuple[tuple[re.Pattern[str], str, Callable[[str], int | str]], ...] = (
    (PLAYER, "player", lambda head: int(head[1:]) - 1),
    (LINE, "line", lambda head: int(head[1:])),
    (NAME, "company", lambda head: head),
)
"""How a head reads, in the order tried: ``P1`` a seat, ``L7`` a line, ``WT`` a company."""


@lru_cache(maxsize=8192)
def parse_action(text: str) -> Action:
    """Parse the notation of an action; ``NotationError`` for anything else.  (Actions are
    frozen values: the parse of a text is remembered, as replays parse the same texts.)"""
    stripped = text.strip()
    words = stripped.split()
    if len(words) < 2:
        raise NotationError(f"not an 1840 action: {text!r}")
    head, verb, args = words[0], words[1], words[2:]
    rest = stripped.split(None, 2)[2] if args else ""
    for pattern, kind, subject in _SUBJECTS:
        if not pattern.fullmatch(head):
            continue
        cls = parser(kind, verb)
        if cls is None:
            raise NotationError(f"unknown {kind} verb {verb!r}")
        try:
            parsed = cls.parse(subject(head), args, rest)
        except (IndexError, ValueError):
            raise NotationError(f"not an 1840 action: {text!r}") from None
        assert isinstance(parsed, Action)
        return parsed
    raise NotationError(f"not an 1840 action: {text!r}")
