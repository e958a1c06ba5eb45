"""The one small interface every computer opponent implements, and the registry of bots.

A bot sees exactly what a player sees: the game's ``view(player)`` (typed, per game) and the
list of legal actions.  It never receives the state.  A search bot may also be given the game's
``determinize(view, rng) -> state``, which the engine implements by dealing the hidden cards
at random consistently with the view, so that search cannot peek at the real hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from tramways.core import Action, GameState, TramwaysError

View = Any
"""A seat's view as returned by ``state.view(player)``: each game's typed view
(:class:`~tramways.g1840.view_types.View1840`, :class:`~tramways.trambahn.view_types.TrambahnView`),
which that game's bots take as it is."""

Determinizer = Callable[[View, random.Random], GameState]
"""Samples a full state consistent with a view (hidden cards dealt at random)."""


@runtime_checkable
class Bot(Protocol):
    """A computer player: picks one of the legal actions from what its player may know."""

    name: str
    explanation: str

    def choose(self, view: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal_actions``; ``rng`` is the only source of randomness it may use."""
        ...

    def see_position(self, position: Any, rng: random.Random) -> None: ...


class BotBase:
    """What every bot answers beside ``choose``, with the answers of a bot that needs none."""

    explanation: str = ""
    """The one-line reason of the last decision (empty for a bot that gives none)."""

    def see_position(self, position: Any, rng: random.Random) -> None:
        """Receive a copy of the position before ``choose``, for a bot that searches it
        (:func:`tramways.bots.match.give_position`); a bot that reads only its view ignores
        it."""


BotFactory = Callable[..., Bot]
"""``factory(game, **options) -> Bot``; ``game`` is the game object (for ``determinize``)."""

_REGISTRY: dict[str, dict[str, BotFactory]] = {}
"""game name ("*" for every game) -> bot name -> factory."""


def register_bot(name: str, factory: BotFactory, game: str = "*") -> None:
    _REGISTRY.setdefault(game, {})[name] = factory


def bot_names(game: str) -> list[str]:
    _load_builtin()
    return sorted(set(_REGISTRY.get("*", {})) | set(_REGISTRY.get(game, {})))


def make_bot(name: str, game: Any, **options: Any) -> Bot:
    """The bot ``name`` for ``game`` (a game object); ``TramwaysError`` for an unknown one."""
    _load_builtin()
    factory = _REGISTRY.get(game.name, {}).get(name) or _REGISTRY.get("*", {}).get(name)
    if factory is None:
        raise TramwaysError(
            f"no bot {name!r} for {game.name} (bots: {', '.join(bot_names(game.name))})"
        )
    return factory(game, **options)


def _load_builtin() -> None:
    if _REGISTRY:
        return
    from tramways.bots import (
        g1840_economy,
        g1840_rule,
        g1840_search,
        levels,
        random_bot,
        search,
        trambahn_rule,
    )

    register_bot("random", random_bot.RandomBot.for_game)
    register_bot("rule", trambahn_rule.RuleBot.for_game, game="trambahn")
    register_bot("search", search.SearchBot.for_game, game="trambahn")
    register_bot("rule", g1840_rule.RuleBot1840.for_game, game="1840")
    register_bot("search", g1840_search.SearchBot1840.for_game, game="1840")
    register_bot("normal", g1840_economy.EconomyBot1840.normal, game="1840")
    register_bot("easy", g1840_economy.EconomyBot1840.easy, game="1840")
    register_bot("strong", levels.g1840_strong, game="1840")
    register_bot("easy", levels.trambahn_easy, game="trambahn")
    register_bot("normal", levels.trambahn_normal, game="trambahn")
    register_bot("strong", levels.trambahn_strong, game="trambahn")
