"""What of a game may leave its host: redacted notation and the record.

The engine builds views (``state.view(player)``); these helpers cover the two other things a
host shows: the notation of past actions, and the whole record.

- ``public_notation(game, action, viewer)``: a game with hidden information overrides
  ``public_notation(action, viewer) -> str`` to redact what ``viewer`` may not know (a
  Trambahn card put face down onto a money pile); otherwise it is the plain notation.
- ``record_is_public(game, state)``: a game whose ``info.hidden_information`` is true (see
  :class:`~tramways.core.game.GameInfo`) keeps its record (seed, set-up, every action) with
  the host until the game is over; 1840 declares ``False``.
"""

from __future__ import annotations

from typing import Any

from tramways.core.actions import Action
from tramways.core.game import Game


def public_notation(game: Game, action: Action, viewer: int | None) -> str:
    """The notation of ``action`` as ``viewer`` (0-based seat, ``None``: spectator) may read it."""
    return str(game.public_notation(action, viewer))


def record_is_public(game: Game, state: Any) -> bool:
    """Whether the whole record (seed, set-up, every action) may be shown now."""
    if game.info.hidden_information:
        return bool(state.is_over())
    return True
