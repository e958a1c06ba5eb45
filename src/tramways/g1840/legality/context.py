"""What the legality checks need to know about a game: the :class:`BuildState` protocol.

The rules engine's state satisfies it; :class:`SimpleBuildState` is a plain dataclass for tests,
bots and tools. ``phase`` is the newest available tile colour (R-LR-7): ``"yellow"`` until
LR2a, ``"green"`` from LR2a, ``"brown"`` from LR4a, ``"grey"`` from LR5a (IX.5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from tramways.g1840.board import Board

PHASE_ORDER: dict[str, int] = {"yellow": 0, "green": 1, "brown": 2, "grey": 3}
"""The normal tile colours in the order they become available (IX.5)."""

NEXT_COLOUR: dict[str, str] = {"yellow": "green", "green": "brown", "brown": "grey"}
"""IX.5: yellow is upgraded to green, green to brown, brown to grey; nothing else upgrades."""


@runtime_checkable
class BuildState(Protocol):
    """The part of a game state the tile and station rules read."""

    @property
    def board(self) -> Board: ...

    @property
    def phase(self) -> str: ...

    def has_operated(self, line: int) -> bool:
        """True once ``line`` has placed its home base marker (IX.6)."""
        ...


@dataclass
class SimpleBuildState:
    """A minimal :class:`BuildState`: a board, a phase and the lines that have operated."""

    board: Board
    phase: str = "yellow"
    operated: set[int] = field(default_factory=set)

    def has_operated(self, line: int) -> bool:
        return line in self.operated

    @classmethod
    def with_lines(
        cls, board: Board, phase: str = "yellow", operated: Iterable[int] = ()
    ) -> SimpleBuildState:
        return cls(board, phase, set(operated))


def colour_available(colour: str, phase: str) -> bool:
    """IX.5: green tiles from LR2a, brown from LR4a, grey from LR5a; yellow always."""
    if colour not in PHASE_ORDER:
        return False
    return PHASE_ORDER[colour] <= PHASE_ORDER[phase]
