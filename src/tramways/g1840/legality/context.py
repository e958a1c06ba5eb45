"""What the legality checks need to know about a game: the :class:`BuildState` protocol.

The rules engine's position satisfies it; :class:`SimpleBuildState` is a plain dataclass for tests,
bots and tools. ``phase`` is the newest available tile colour (R-LR-7): ``"yellow"`` until
LR2a, ``"green"`` from LR2a, ``"brown"`` from LR4a, ``"grey"`` from LR5a (IX.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from tramways.g1840.board import Board

PHASE_ORDER: dict[str, int] = {"yellow": 0, "green": 1, "brown": 2, "grey": 3}
"""The normal tile colours in the order they become available (IX.5)."""

NEXT_COLOUR: dict[str, str] = {"yellow": "green", "green": "brown", "brown": "grey"}
"""IX.5: yellow is upgraded to green, green to brown, brown to grey; nothing else upgrades."""


@runtime_checkable
class BuildState(Protocol):
    """The part of a position the tile and station rules read."""

    @property
    def board(self) -> Board: ...

    @property
    def phase(self) -> str: ...

    def has_operated(self, line: int) -> bool:
        """True once ``line`` has placed its home base marker (IX.6)."""
        ...


def may_still_operate(pos: BuildState, line: int) -> bool:
    """Whether ``line`` can still enter the game (and so needs its home circle kept, IX.6,
    R-LR-12).

    Optional hook: a position may define ``may_still_operate(line)``; without it every line may
    (the literal reading of IX.6). 18xx.games removes the unsold lines once every tram company
    holds three (game.rb 885-890), and their reservations go with them: the recorded 2-player
    game stations line 5 on D18 beside line 2 although line 1 never operated (action 183).
    """
    hook = getattr(pos, "may_still_operate", None)
    return True if hook is None else bool(hook(line))


@dataclass
class SimpleBuildState:
    """A minimal :class:`BuildState`: a board, a phase, the lines that have operated and the
    lines that can no longer enter the game (``retired``, see :func:`may_still_operate`)."""

    board: Board
    phase: str = "yellow"
    operated: set[int] = field(default_factory=set)
    retired: set[int] = field(default_factory=set)

    def has_operated(self, line: int) -> bool:
        return line in self.operated

    def may_still_operate(self, line: int) -> bool:
        return line not in self.retired


def colour_available(colour: str, phase: str) -> bool:
    """IX.5: green tiles from LR2a, brown from LR4a, grey from LR5a; yellow always."""
    if colour not in PHASE_ORDER:
        return False
    return PHASE_ORDER[colour] <= PHASE_ORDER[phase]
