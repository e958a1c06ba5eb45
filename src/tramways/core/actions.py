"""Actions: small immutable typed values with a short text notation.

Every game's actions subclass :class:`Action` as frozen dataclasses.  ``player`` is who acts
(a 0-based seat index).  The game provides ``format_action`` / ``parse_action`` so that
``parse(format(a)) == a`` for every action the engine can list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. ``player`` is the acting seat (0-based)."""

    player: int
    standing_order: ClassVar[bool] = False
    """True for an action that sets a seat's standing order (1840's programmed actions) and
    plays no move of the game itself: computer players leave them out (:func:`moves`)."""
    resigns: ClassVar[bool] = False
    """True for a seat's resignation (``P2 resign`` in both games; docs/async.md): the one
    action that no ``legal_actions`` lists, so that no computer player or environment ever
    chooses it.  The engine accepts it from the seat it names, at any time while the game
    runs, and it ends the game at once: the resigner places last, the others by the game's
    own standing at that moment.  A host offers it only where its settings say a resignation
    ends the game (the site's ``on_resign``)."""


def moves(actions: Iterable[Action]) -> list[Action]:
    """The actions among ``actions`` that play the game (standing orders left out): what a
    computer player chooses from."""
    return [a for a in actions if not a.standing_order]
