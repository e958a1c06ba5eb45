"""1840 actions and their notation.

Player actions start with the seat (``P1`` is seat 0): ``P1 bid KK 25``, ``P1 pass``,
``P1 order 2``, ``P2 par WT 90``, ``P1 buy W``, ``P1 sell WT 2``, ``P1 return KK``, ``P2 accept``,
``P2 decline`` (an offer for a private).

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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tramways.core.actions import Action
from tramways.core.errors import NotationError
from tramways.g1840.entities import TRAM_COLOURS

# --- player actions --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Pre-Share Round: open or raise the auction of ``private`` (VI)."""

    private: str
    amount: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """A player passes (VI, VII.1)."""


@dataclass(frozen=True, slots=True)
class ChooseOrder(Action):
    """End of the Pre-Share Round: take a playing order card (VI)."""

    card: int


@dataclass(frozen=True, slots=True)
class Par(Action):
    """SR1: buy the director's share of ``company`` at ``price`` (VII.5)."""

    company: str
    price: int


@dataclass(frozen=True, slots=True)
class BuyShare(Action):
    """Buy one 10% share (VII.6)."""

    company: str


@dataclass(frozen=True, slots=True)
class SellShares(Action):
    """Sell ``count`` 10% shares (VII.4) at the current price; ``price`` (per share) only in a
    record imported from 18xx.games, which pays the price its sale records (X-19, proposed)."""

    company: str
    count: int
    price: int | None = None


@dataclass(frozen=True, slots=True)
class ReturnPrivate(Action):
    """Return a player's private to the bank for its face value (IV.2)."""

    private: str


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """A player accepts a company's offer for their private (IV.2)."""


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """A player declines a company's offer for their private (IV.2)."""


# --- company actions -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyAction(Action):
    """An action of a tram company, taken by its director."""

    player: int = field(default=-1, compare=False)
    company: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Dividend(CompanyAction):
    """CRd: pay ``amount`` of the revenue space as dividend (VIII.5.1)."""

    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyTram(CompanyAction):
    """Buy a tram of ``colour`` (VIII.5.3)."""

    colour: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ScrapTram(CompanyAction):
    """Scrap a tram of ``colour`` without compensation (VIII.5.3); ``line`` names the tram
    running that line (``WT scrap yellow L6``), otherwise a spare of that colour goes first."""

    colour: str
    line: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrange(CompanyAction):
    """Rearrange the trams between the company's lines: ``colours`` in line order, ``"none"``
    for a line left without a tram, spares after the lines."""

    colours: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Done(CompanyAction):
    """End the company's tram buying turn."""


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenAuction(CompanyAction):
    """CRe: choose ``line`` and open its auction with ``amount`` (VIII.6, R-CR-7)."""

    line: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LineBid(CompanyAction):
    """CRe: raise the current line auction to ``amount`` (VIII.6)."""

    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyPass(CompanyAction):
    """CRe: pass on choosing a line, or in the current auction (VIII.6)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanyReturnPrivate(CompanyAction):
    """Return a company-owned private to the bank for its face value (IV.2)."""

    private: str


# --- line actions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LineAction(Action):
    """An action of a line, taken by its company's director."""

    player: int = field(default=-1, compare=False)
    line: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LayTile(LineAction):
    """Lay or upgrade a tile (IX.4, IX.5), or a Stadtbahn tile or a bonus tile (R-LR-1)."""

    hex: str
    tile: str
    rotation: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceStation(LineAction):
    """Place a station marker on ``hex`` location ``location`` (IX.6)."""

    hex: str
    location: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveMarker(LineAction):
    """Remove a Stadtbahn station marker for 40 (IX.6, R-LR-5)."""

    hex: str
    location: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BuyPrivate(LineAction):
    """The line's company buys a private from a player (IV.2, from LR2a)."""

    private: str
    price: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Run(LineAction):
    """Run the line's tram (IX.7): the best route, or a claimed route in route notation."""

    route: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(LineAction):
    """18xx.games ruleset: end a line's turn after its run (its company may still buy a
    private then, the site's BuyCompany step)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipBonus(LineAction):
    """Decline the pending bonus action of the Stadtbahn tile just laid (R-LR-1)."""


# --- notation --------------------------------------------------------------------------


def format_action(action: Action) -> str:
    """The notation of an action."""
    if isinstance(action, CompanyAction):
        head = action.company
        if isinstance(action, Dividend):
            return f"{head} pay {action.amount}"
        if isinstance(action, BuyTram):
            return f"{head} buy {action.colour}"
        if isinstance(action, ScrapTram):
            return f"{head} scrap {action.colour}" + (
                "" if action.line is None else f" L{action.line}")
        if isinstance(action, Arrange):
            return f"{head} arrange {','.join(action.colours)}"
        if isinstance(action, Done):
            return f"{head} done"
        if isinstance(action, OpenAuction):
            return f"{head} auction L{action.line} {action.amount}"
        if isinstance(action, LineBid):
            return f"{head} bid {action.amount}"
        if isinstance(action, CompanyPass):
            return f"{head} pass"
        if isinstance(action, CompanyReturnPrivate):
            return f"{head} return {action.private}"
    elif isinstance(action, LineAction):
        head = f"L{action.line}"
        if isinstance(action, LayTile):
            return f"{head} lay {action.hex} {action.tile} r{action.rotation}"
        if isinstance(action, PlaceStation):
            return f"{head} station {action.hex}.{action.location}"
        if isinstance(action, RemoveMarker):
            return f"{head} remove {action.hex}.{action.location}"
        if isinstance(action, BuyPrivate):
            return f"{head} buy {action.private} {action.price}"
        if isinstance(action, Run):
            return head + " run" + ("" if action.route is None else " " + action.route)
        if isinstance(action, EndTurn):
            return f"{head} done"
        if isinstance(action, SkipBonus):
            return f"{head} skip"
    else:
        head = f"P{action.player + 1}"
        if isinstance(action, Bid):
            return f"{head} bid {action.private} {action.amount}"
        if isinstance(action, Pass):
            return f"{head} pass"
        if isinstance(action, ChooseOrder):
            return f"{head} order {action.card}"
        if isinstance(action, Par):
            return f"{head} par {action.company} {action.price}"
        if isinstance(action, BuyShare):
            return f"{head} buy {action.company}"
        if isinstance(action, SellShares):
            at = "" if action.price is None else f" at {action.price}"
            return f"{head} sell {action.company} {action.count}{at}"
        if isinstance(action, ReturnPrivate):
            return f"{head} return {action.private}"
        if isinstance(action, Accept):
            return f"{head} accept"
        if isinstance(action, Decline):
            return f"{head} decline"
    raise NotationError(f"not an 1840 action: {action!r}")


_NAME = re.compile(r"[A-Z][A-Za-z]*")
_INT = re.compile(r"-?\d+")
_LOC = re.compile(r"([A-Z]\d+)\.(\d+)")
_ROT = re.compile(r"r([0-5])")
_PLAYER = re.compile(r"P[1-9]")
_LINE = re.compile(r"L\d{1,2}")
_HEX = re.compile(r"[A-K]\d{1,2}")


def _int(text: str, what: str) -> int:
    if not _INT.fullmatch(text):
        raise NotationError(f"{what}: expected a number, got {text!r}")
    return int(text)


def _name(text: str, what: str) -> str:
    if not _NAME.fullmatch(text):
        raise NotationError(f"{what}: expected a name, got {text!r}")
    return text


def _colour(text: str, allow_none: bool = False) -> str:
    if allow_none and text == "none":
        return text
    if text not in TRAM_COLOURS:
        raise NotationError(f"unknown tram colour {text!r} (one of {', '.join(TRAM_COLOURS)})")
    return text


def _loc(text: str) -> tuple[str, int]:
    m = _LOC.fullmatch(text)
    if not m:
        raise NotationError(f"expected HEX.LOCATION such as E17.0, got {text!r}")
    return m.group(1), int(m.group(2))


def parse_action(text: str) -> Action:
    """Parse the notation of an action; ``NotationError`` for anything else."""
    stripped = text.strip()
    words = stripped.split()
    if len(words) < 2:
        raise NotationError(f"not an 1840 action: {text!r}")
    head, verb, args = words[0], words[1], words[2:]
    try:
        if _PLAYER.fullmatch(head):
            return _parse_player(int(head[1:]) - 1, verb, args)
        if _LINE.fullmatch(head):
            if verb == "run":
                route = stripped.split(None, 2)[2] if len(words) > 2 else None
                return Run(line=int(head[1:]), route=route)
            return _parse_line(int(head[1:]), verb, args)
        if _NAME.fullmatch(head):
            return _parse_company(head, verb, args)
    except (IndexError, ValueError):
        raise NotationError(f"not an 1840 action: {text!r}") from None
    raise NotationError(f"not an 1840 action: {text!r}")


def _arity(args: list[str], n: int) -> None:
    if len(args) != n:
        raise NotationError(f"expected {n} argument(s), got {len(args)}")


def _parse_player(seat: int, verb: str, args: list[str]) -> Action:
    if verb == "bid":
        _arity(args, 2)
        return Bid(seat, _name(args[0], "private"), _int(args[1], "amount"))
    if verb == "pass":
        _arity(args, 0)
        return Pass(seat)
    if verb == "order":
        _arity(args, 1)
        return ChooseOrder(seat, _int(args[0], "card"))
    if verb == "par":
        _arity(args, 2)
        return Par(seat, _name(args[0], "company"), _int(args[1], "price"))
    if verb == "buy":
        _arity(args, 1)
        return BuyShare(seat, _name(args[0], "company"))
    if verb == "sell":
        if len(args) == 4 and args[2] == "at":  # X-19 (proposed): a recorded sale price
            return SellShares(seat, _name(args[0], "company"), _int(args[1], "count"),
                              _int(args[3], "price"))
        _arity(args, 2)
        return SellShares(seat, _name(args[0], "company"), _int(args[1], "count"))
    if verb == "return":
        _arity(args, 1)
        return ReturnPrivate(seat, _name(args[0], "private"))
    if verb in ("accept", "decline"):
        _arity(args, 0)
        return Accept(seat) if verb == "accept" else Decline(seat)
    raise NotationError(f"unknown player verb {verb!r}")


def _parse_company(company: str, verb: str, args: list[str]) -> Action:
    if verb == "pay":
        _arity(args, 1)
        return Dividend(company=company, amount=_int(args[0], "amount"))
    if verb == "buy":
        _arity(args, 1)
        return BuyTram(company=company, colour=_colour(args[0]))
    if verb == "scrap":
        if len(args) == 2 and _LINE.fullmatch(args[1]):
            return ScrapTram(company=company, colour=_colour(args[0]), line=int(args[1][1:]))
        _arity(args, 1)
        return ScrapTram(company=company, colour=_colour(args[0]))
    if verb == "arrange":
        _arity(args, 1)
        return Arrange(company=company, colours=tuple(_colour(c, True) for c in args[0].split(",")))
    if verb == "done":
        _arity(args, 0)
        return Done(company=company)
    if verb == "auction":
        _arity(args, 2)
        if not _LINE.fullmatch(args[0]):
            raise NotationError(f"expected a line such as L7, got {args[0]!r}")
        return OpenAuction(company=company, line=int(args[0][1:]), amount=_int(args[1], "amount"))
    if verb == "bid":
        _arity(args, 1)
        return LineBid(company=company, amount=_int(args[0], "amount"))
    if verb == "pass":
        _arity(args, 0)
        return CompanyPass(company=company)
    if verb == "return":
        _arity(args, 1)
        return CompanyReturnPrivate(company=company, private=_name(args[0], "private"))
    raise NotationError(f"unknown company verb {verb!r}")


def _parse_line(line: int, verb: str, args: list[str]) -> Action:
    if verb == "lay":
        _arity(args, 3)
        m = _ROT.fullmatch(args[2])
        if not m or not _HEX.fullmatch(args[0]):
            raise NotationError("expected: lay HEX TILE rN")
        return LayTile(line=line, hex=args[0], tile=args[1], rotation=int(m.group(1)))
    if verb == "station":
        _arity(args, 1)
        hx, loc = _loc(args[0])
        return PlaceStation(line=line, hex=hx, location=loc)
    if verb == "remove":
        _arity(args, 1)
        hx, loc = _loc(args[0])
        return RemoveMarker(line=line, hex=hx, location=loc)
    if verb == "buy":
        _arity(args, 2)
        return BuyPrivate(line=line, private=_name(args[0], "private"), price=_int(args[1], "price"))
    if verb == "done":
        _arity(args, 0)
        return EndTurn(line=line)
    if verb == "skip":
        _arity(args, 0)
        return SkipBonus(line=line)
    raise NotationError(f"unknown line verb {verb!r}")
