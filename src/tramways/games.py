"""The registry of games: name -> :class:`tramways.core.game.Game`.

Games are imported lazily so that using one does not load the other.
"""

from __future__ import annotations

import importlib

from tramways.core.errors import RecordError
from tramways.core.game import Game

_GAMES: dict[str, str] = {
    "1840": "tramways.g1840.game:GAME",
    "trambahn": "tramways.trambahn.game:GAME",
}


_LOADED: dict[str, Game] = {}


def register(name: str, game: Game) -> None:
    """Register a game object directly (used by tests and plug-ins)."""
    _LOADED[name] = game


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (tests that register one for a while);
    the built-in games stay."""
    _LOADED.pop(name, None)


def game_names() -> list[str]:
    return sorted(set(_GAMES) | set(_LOADED))


def get_game(name: str) -> Game:
    """The game called ``name``; ``RecordError`` for an unknown one."""
    if name in _LOADED:
        return _LOADED[name]
    target = _GAMES.get(name)
    if target is None:
        raise RecordError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:  # game not built yet
        raise RecordError(f"game {name!r} is not available: {exc}") from None
    game: Game = getattr(module, attr)
    _LOADED[name] = game
    return game
