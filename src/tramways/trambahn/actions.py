"""The small actions of a Trambahn turn and their notation.

A turn is a sequence of small actions, in the order of the five steps:

==========================  ==============================================================
``P1 passenger 7r``         Step 1: a station card as a passenger of its own colour's row
``P1 passenger C r``        Step 1: a conductor as a passenger of any row
``P1 station 7r new``       Step 2: start a new column (only when no column can take it, T-R-1)
``P1 station 7r 2``         Step 2: add to column 2 (1-based) of the player's columns
``P1 income 7r``            Step 3: a hand card onto the money pile
``P1 buy steam 2``          Step 4: buy a tramway card from the display, assign it to column 2
``P1 end``                  Step 5: discard tram-less columns, draw up to 6, refill the display
``P1 resign``               at any time: the player resigns and the game ends (docs/async.md)
==========================  ==============================================================

Cards are named by face (``"7r"``, ``"10b"``, ``"C"``); columns are 0-based in the action
objects and 1-based in the notation, like players.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from tramways.core import Action, NotationError
from tramways.trambahn.cards import CONDUCTOR


@dataclass(frozen=True, slots=True)
class Passenger(Action):
    """Step 1: play ``card`` as a passenger into row ``row`` (a colour letter)."""

    card: str
    row: str


@dataclass(frozen=True, slots=True)
class Station(Action):
    """Step 2: play ``card`` into column ``column`` (0-based) or a new column (``None``)."""

    card: str
    column: int | None


@dataclass(frozen=True, slots=True)
class Income(Action):
    """Step 3: put ``card`` from the hand onto the money pile."""

    card: str


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """Step 4: buy tram ``kind`` from the display and assign it to ``column`` (0-based)."""

    kind: str
    column: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Step 5: end the turn (discard tram-less columns, draw, refill the display)."""


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """The player resigns and the game ends at once, the other player winning (the site's
    ``on_resign: "end"``, docs/async.md; no rulebook section).  Never listed by
    ``legal_actions`` (``Action.resigns``)."""

    resigns: ClassVar[bool] = True


TrambahnAction = Passenger | Station | Income | Buy | EndTurn | Resign


def format_action(action: Action) -> str:
    """The notation of an action (see the module docstring)."""
    p = f"P{action.player + 1}"
    if isinstance(action, Passenger):
        if action.card == CONDUCTOR:
            return f"{p} passenger C {action.row}"
        return f"{p} passenger {action.card}"
    if isinstance(action, Station):
        where = "new" if action.column is None else str(action.column + 1)
        return f"{p} station {action.card} {where}"
    if isinstance(action, Income):
        return f"{p} income {action.card}"
    if isinstance(action, Buy):
        return f"{p} buy {action.kind} {action.column + 1}"
    if isinstance(action, EndTurn):
        return f"{p} end"
    if isinstance(action, Resign):
        return f"{p} resign"
    raise NotationError(f"not a Trambahn action: {action!r}")


_CARD = r"(?P<card>C|(?:10|[1-9])[brgy])"
_PATTERNS = {
    "passenger": re.compile(rf"{_CARD}(?:\s+(?P<row>[brgy]))?"),
    "station": re.compile(rf"{_CARD}\s+(?P<col>new|\d+)"),
    "income": re.compile(_CARD),
    "buy": re.compile(r"(?P<kind>horse|steam|electric)\s+(?P<col>\d+)"),
    "end": re.compile(r""),
    "resign": re.compile(r""),
}


def parse_action(text: str) -> Action:
    """Parse the notation; ``NotationError`` for text that is no Trambahn action."""
    m = re.fullmatch(r"\s*[Pp]([12])\s+(\w+)\s*(.*?)\s*", text)
    if not m or m.group(2).lower() not in _PATTERNS:
        raise NotationError(
            f"not a Trambahn action: {text!r} (expected e.g. 'P1 passenger 7r', "
            "'P1 station 7r new', 'P1 income 3b', 'P1 buy horse 1', 'P1 end')"
        )
    player = int(m.group(1)) - 1
    verb = m.group(2).lower()
    rest = _PATTERNS[verb].fullmatch(m.group(3))
    if rest is None:
        raise NotationError(f"bad arguments for {verb!r}: {text!r}")
    args = rest.groupdict()
    if verb == "passenger":
        card = args["card"]
        row = args["row"]
        if card == CONDUCTOR:
            if row is None:
                raise NotationError(f"a conductor passenger needs a row (b, r, g, y): {text!r}")
        else:
            if row is not None and row != card[-1]:
                raise NotationError(f"{card} can only be a passenger of its own row: {text!r}")
            row = card[-1]
        return Passenger(player, card, row)
    if verb == "station":
        col = args["col"]
        return Station(player, args["card"], None if col == "new" else _column(col, text))
    if verb == "income":
        return Income(player, args["card"])
    if verb == "buy":
        return Buy(player, args["kind"], _column(args["col"], text))
    if verb == "resign":
        return Resign(player)
    return EndTurn(player)


def _column(text: str, whole: str) -> int:
    n = int(text)
    if n < 1:
        raise NotationError(f"columns are numbered from 1: {whole!r}")
    return n - 1

