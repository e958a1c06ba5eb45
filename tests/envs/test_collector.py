"""The opt-in collector settings for a process that steps environments
(:mod:`tramways.envs.collector`): set within the block, restored after it."""

from __future__ import annotations

import gc
import random

from tramways.envs import g1840_v0
from tramways.envs.collector import THRESHOLDS, collector_tuned


def test_collector_tuned_freezes_sets_thresholds_and_restores_them() -> None:
    before = gc.get_threshold()
    if gc.get_freeze_count():  # another test froze objects: start from none frozen
        gc.unfreeze()
    with collector_tuned() as frozen:
        assert frozen > 1_000 and gc.get_freeze_count() > 1_000  # the imports at least
        assert gc.get_threshold() == THRESHOLDS == (10_000, 10, 10)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_collector_tuned_leaves_a_random_1840_game_as_it_plays_without() -> None:
    def play() -> tuple[list[int], list[float]]:
        env = g1840_v0.raw_env(max_steps=300, players=4)
        env.reset(seed=11)
        rng = random.Random(11)
        chosen: list[int] = []
        while not (env.terminations[env.agent_selection]
                   or env.truncations[env.agent_selection]):
            legal = env.legal_indices()
            chosen.append(legal[rng.randrange(len(legal))])
            env.step(chosen[-1])
        return chosen, [env.rewards[a] for a in env.possible_agents]

    plain = play()
    with collector_tuned():
        tuned = play()
    assert len(plain[0]) == 270  # the game ends within the 300 steps
    assert tuned == plain
