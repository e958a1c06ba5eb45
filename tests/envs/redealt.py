"""Observations of a Trambahn environment beside those of the same position with the hidden
cards dealt anew (the engine's own ``determinize``), for the tests that an observation is
built from its agent's view alone."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from tramways.trambahn.determinize import determinize


def redealt_observations(env: Any, rng: random.Random, seeds: range, chance: float,
                         step: Callable[[Any, random.Random], None],
                         ) -> Iterator[tuple[Any, Any, Any, Any, int]]:
    """Play random games of ``env`` from each seed; at a share ``chance`` of the positions,
    yield for each agent ``(observation, observation redealt, real state, redealt state,
    seat)``. The environment holds its real state again when the next item is asked for."""
    for seed in seeds:
        env.reset(seed=seed)
        while not env.terminations["player_1"]:
            if rng.random() < chance:
                for agent in env.possible_agents:
                    seat = env._seat[agent]
                    obs = env.observe(agent)
                    real = env.state
                    env.state = determinize(real.view(seat), rng)
                    try:
                        other = env.observe(agent)
                        redealt = env.state
                    finally:
                        env.state = real
                    yield obs, other, real, redealt, seat
            step(env, rng)
