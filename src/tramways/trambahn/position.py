"""The position of a Trambahn game as plain data: who holds which card, the table, the scores.

Every one of the 120 cards (ids, see :mod:`tramways.trambahn.cards`) is in exactly one place:
the draw pile, the discard pile, a hand, a money pile, a passenger row or a column.

It imports no rules and no view: the rules (:mod:`tramways.trambahn.rules`) read and change
it, the views (:mod:`tramways.trambahn.views`) show a seat what it may know of it, and the
engine (:mod:`tramways.trambahn.engine`) is the position that plays actions, as 1840's
``engine.State1840`` is its ``position.Position`` that plays them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Self

from tramways.core import Action
from tramways.trambahn.cards import CARD_POINTS, CARD_VALUE, COMPLETE_VALUE, tram_value
from tramways.trambahn.view_types import ScoringView


@dataclass(slots=True)
class Column:
    """One route of a player: stations in ascending value, conductors beside it, a tram."""

    colour: int
    stations: list[int] = field(default_factory=list)
    conductors: list[int] = field(default_factory=list)
    tram: str | None = None
    toured: bool = False
    """Whether the column has had its Extra Tour (T-R-3)."""
    points: int = field(init=False, compare=False)
    """Victory points of the stations (T-FACT-2), kept up to date by :meth:`add`."""

    def __post_init__(self) -> None:
        self.points = sum(CARD_POINTS[c] for c in self.stations)

    def add(self, card: int) -> None:
        """Put a station on top of the column, or a conductor beside it."""
        if CARD_VALUE[card] == 0:
            self.conductors.append(card)
        else:
            self.stations.append(card)
            self.points += CARD_POINTS[card]

    @property
    def top(self) -> int:
        """Value of the highest station (0 for none)."""
        return CARD_VALUE[self.stations[-1]] if self.stations else 0

    @property
    def complete(self) -> bool:
        """A 10 completes a column: nothing more may join it (Step 2; T-R-1)."""
        return self.top == COMPLETE_VALUE

    @property
    def size(self) -> int:
        """Stations and conductors (the tramway card does not count, T-R-3)."""
        return len(self.stations) + len(self.conductors)

    @property
    def score(self) -> int:
        """What the column scores now: points x tram value (0 without a tram, T-R-3)."""
        return self.points * tram_value(self.tram)

    def copy(self) -> Column:
        return Column(self.colour, self.stations[:], self.conductors[:], self.tram, self.toured)


@dataclass(slots=True)
class TrambahnPosition:
    """A whole position as plain data with queries.  Piles are lists whose *last* element is
    the top card.  The engine's :class:`~tramways.trambahn.engine.TrambahnState` is the
    position that plays actions."""

    seed: int
    names: tuple[str, str]
    deck: list[int]
    discard: list[int]
    hands: list[list[int]]
    money: list[list[int]]
    rows: list[list[int]]
    columns: list[list[Column]]
    stack: list[str]
    """Tram stack, top first."""
    display: list[str]
    turn: int = 0
    turn_number: int = 1
    step: int = 1
    """The highest step reached in this turn (1-4; steps only move forward)."""
    passengers: int = 0
    """Passengers placed in this turn (1 or 2 must be, Step 1)."""
    regular: int = 0
    """Regular scorings so far (T-R-4: the 10th ends the game)."""
    scores: list[int] = field(default_factory=lambda: [0, 0])
    history: list[ScoringView] = field(default_factory=list)
    """Every scoring: regular ones and Extra Tours, with the points of each player (frozen,
    so a clone shares them)."""
    reshuffles: int = 0
    over: bool = False
    end_reason: str = ""
    resigned: int | None = None
    """The player whose resignation ended the game (``P1 resign``, docs/async.md), if one did."""

    # -- queries ------------------------------------------------------------------------------

    def current_players(self) -> list[int]:
        return [] if self.over else [self.turn]

    def seats_for(self, action: Action) -> list[int]:
        """Every Trambahn action is decided by the player it names (and nobody else)."""
        return [action.player] if action.player in (0, 1) else []

    def is_over(self) -> bool:
        return self.over

    def clone(self) -> Self:
        return type(self)(
            seed=self.seed,
            names=self.names,
            deck=self.deck[:],
            discard=self.discard[:],
            hands=[h[:] for h in self.hands],
            money=[m[:] for m in self.money],
            rows=[r[:] for r in self.rows],
            columns=[[c.copy() for c in cols] for cols in self.columns],
            stack=self.stack[:],
            display=self.display[:],
            turn=self.turn,
            turn_number=self.turn_number,
            step=self.step,
            passengers=self.passengers,
            regular=self.regular,
            scores=self.scores[:],
            history=self.history[:],
            reshuffles=self.reshuffles,
            over=self.over,
            end_reason=self.end_reason,
            resigned=self.resigned,
        )
