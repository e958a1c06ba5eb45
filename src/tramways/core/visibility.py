"""What of a game may leave its host: redacted notation and the record.

The engine builds views (``state.view(player)``); these helpers cover the two other things a
host shows: the notation of past actions, and the whole record.

- ``public_notation(game, action, viewer)``: a game with hidden information defines
  ``public_notation(action, viewer) -> str`` to redact what ``viewer`` may not know (a
  Trambahn card put face down onto a money pile); otherwise it is the plain notation.
- ``record_is_public(game, state)``: a game declares ``hidden_information = True`` if its
  record (seed, deal, deck order) must stay with the host until the game is over.  Games that
  do not say are treated as hidden (the safe default); 1840 declares ``False``.
"""

from __future__ import annotations

from typing import Any

from tramways.core.actions import Action


def public_notation(game: Any, action: Action, viewer: int | None) -> str:
    """The notation of ``action`` as ``viewer`` (0-based seat, ``None``: spectator) may read it."""
    hook = getattr(game, "public_notation", None)
    if hook is not None:
        return str(hook(action, viewer))
    return str(game.format_action(action))


def record_is_public(game: Any, state: Any) -> bool:
    """Whether the whole record (seed, set-up, every action) may be shown now."""
    if getattr(game, "hidden_information", True):
        return bool(state.is_over())
    return True
