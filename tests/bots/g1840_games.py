"""Games of rule bots for the 1840 bot tests: every position, kept once per process."""

from __future__ import annotations

import functools
import random

from tramways.bots import make_bot
from tramways.core import Session
from tramways.g1840.game import GAME


@functools.cache
def rule_game_positions(players: int, seed: int, rng_seed: int, track_weight: float = 0.0
                        ) -> list:
    """Every position (before each action) of one game of ``players`` rule bots from ``seed``,
    the bots drawing from ``random.Random(rng_seed)`` (``track_weight``: as ``RuleBot1840``'s)."""
    bots = [make_bot("rule", GAME, track_weight=track_weight) for _ in range(players)]
    s = Session.new("1840", {"players": players}, seed)
    rng = random.Random(rng_seed)
    out = []
    while not s.state.is_over():
        state = s.state
        p = state.current_players()[0]
        out.append(state.clone())
        s.play(bots[p].choose(state.view(p), state.legal_actions(p), rng), seat=p)
    return out
