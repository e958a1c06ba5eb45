"""The difficulty levels a person picks for a bot seat: ``easy``, ``normal`` and
``strong``, for both games, registered beside the bots they are made of.

* 1840: ``easy`` and ``normal`` are the economy bots of :mod:`tramways.bots.g1840_economy`
  (``normal``: the rule bot that plays the economy as people do; ``easy``: the same with human
  mistakes); ``strong`` is ``normal`` that keeps no cash for trams once none are sold (after
  CR5, R-CR-4), its shares, dividends and trams searched by play-outs to the end of the game
  from the last tram-buying round on (:class:`~tramways.bots.g1840_strong.StrongBot1840`; its
  searched decisions take about its 1.5 s budget at most).
* Trambahn: ``normal`` is the ``rule`` bot; ``easy`` the rule bot that now and then
  (:data:`EASY_SLIP`) plays another action of the same kind than the one it meant (another
  passenger, another tram: a slip of detail, not a blunder); ``strong`` the ``search`` bot
  (whole turns, the last scorings played out to the end; 7 ms of CPU a decision on average,
  about 0.2 s at most).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import Bot, BotBase
from tramways.core import Action

LEVELS = ("easy", "normal", "strong")
"""The difficulty levels, easiest first."""

EASY_SLIP = 0.15
"""How often Trambahn's ``easy`` bot slips (plays another action of the same kind)."""


class Slipping(BotBase):
    """``inner``'s choice, except that with probability ``slip`` another legal action of the
    same kind is played instead (a human slip); named ``name``."""

    def __init__(self, inner: Bot, slip: float, name: str) -> None:
        self.inner = inner
        self.slip = slip
        self.name = name
        self.explanation = ""

    def see_position(self, position: Any, rng: random.Random) -> None:
        self.inner.see_position(position, rng)

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        action = self.inner.choose(view, legal_actions, rng)
        self.explanation = self.inner.explanation
        if rng.random() >= self.slip:
            return action
        alike = [a for a in legal_actions if type(a) is type(action) and a != action]
        if not alike:
            return action
        slip = alike[rng.randrange(len(alike))]
        self.explanation = "a slip: meant something else of the kind"
        return slip


def renamed(bot: Bot, name: str) -> Bot:
    """``bot`` answering to ``name`` (a level's name for one of the bots)."""
    bot.name = name
    return bot


def trambahn_easy(game: Any, **options: Any) -> Bot:
    from tramways.bots.trambahn_rule import RuleBot

    return Slipping(RuleBot.for_game(game, **options), EASY_SLIP, "easy")


def trambahn_normal(game: Any, **options: Any) -> Bot:
    from tramways.bots.trambahn_rule import RuleBot

    return renamed(RuleBot.for_game(game, **options), "normal")


def trambahn_strong(game: Any, **options: Any) -> Bot:
    from tramways.bots.search import SearchBot

    return renamed(SearchBot.for_game(game, **options), "strong")


def g1840_strong(game: Any, **options: Any) -> Bot:
    from tramways.bots.g1840_strong import StrongBot1840

    return StrongBot1840(game, **options)
