"""A bot that plays a uniformly random legal action (any game)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tramways.bots.base import BotBase
from tramways.core import Action


class RandomBot(BotBase):
    """Uniformly random among the legal actions."""

    name = "random"

    @classmethod
    def for_game(cls, game: Any, **options: Any) -> RandomBot:
        return cls()

    def choose(self, view: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return rng.choice(list(legal_actions))
