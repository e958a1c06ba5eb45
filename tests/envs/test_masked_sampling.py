"""The environments' ``Discrete`` action space samples a mask faster than gymnasium's and
draws the same actions from the same seed (:class:`tramways.envs.base.MaskedDiscrete`)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from tramways.envs import g1840_v0, trambahn_v0
from tramways.envs.base import MaskedDiscrete


def _masks(n: int, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        mask = np.zeros(n, dtype=np.int8)
        mask[rng.choice(n, size=int(rng.integers(0, min(n, 80) + 1)), replace=False)] = 1
        out.append(mask)
    return out


@pytest.mark.parametrize("n", [1, 7, 1_050, 49_178])
def test_masked_sample_draws_what_gymnasium_draws_from_the_same_seed(n: int) -> None:
    ours, theirs = MaskedDiscrete(n, seed=11), spaces.Discrete(n, seed=11)
    masks = _masks(n, 200, seed=n)
    drawn = [ours.sample(m) for m in masks]
    assert drawn == [theirs.sample(m) for m in masks]
    assert all(type(d) is np.int64 for d in drawn)
    assert all(m[d] == 1 for m, d in zip(masks, drawn, strict=True) if m.any())
    assert ours.sample(np.zeros(n, dtype=np.int8)) == 0  # nothing legal: start, as gymnasium


def test_masked_sample_keeps_gymnasiums_refusals_of_a_bad_mask() -> None:
    space = MaskedDiscrete(10, seed=1)
    bad = np.zeros(10, dtype=np.int8)
    bad[3] = 2
    with pytest.raises(AssertionError):
        space.sample(bad)
    bad[3] = -1  # negative: read as 255 by the one-pass check
    with pytest.raises(AssertionError):
        space.sample(bad)
    with pytest.raises(AssertionError):
        space.sample(np.ones(10, dtype=np.float32))
    with pytest.raises(AssertionError):
        space.sample(np.ones(9, dtype=np.int8))
    assert space.sample(probability=np.eye(10)[4]) == 4  # the probability form is gymnasium's


def test_both_environments_sample_with_the_masked_space() -> None:
    for module in (trambahn_v0, g1840_v0):
        env = module.env()
        env.reset(seed=3)
        agent = env.agent_selection
        space = env.action_space(agent)
        assert isinstance(space, MaskedDiscrete)
        space.seed(5)
        mask = env.observe(agent)["action_mask"]
        legal = set(env.unwrapped.legal_indices())
        assert {int(space.sample(mask)) for _ in range(50)} <= legal


def test_a_mask_the_environment_built_is_sampled_from_its_known_ones_as_gymnasium_would():
    """The 1840 environment tells the agent's space where a mask's ones are; sampling that
    array draws what gymnasium draws from the same seed, at positions of a random game."""
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=12)
    theirs = spaces.Discrete(len(env.catalogue), seed=4)
    for agent in env.possible_agents:
        env.action_space(agent).seed(4)
    for _ in range(200):
        agent = env.agent_selection
        mask = env.action_mask(agent)
        space = env.action_space(agent)
        assert space._expected is not None and space._expected[0] is mask
        theirs.seed(len(env.actions))
        space.seed(len(env.actions))
        drawn = space.sample(mask)
        assert drawn == theirs.sample(mask) and int(drawn) in env.legal_indices()
        env.step(int(drawn))


def test_a_mask_changed_after_it_was_handed_out_is_read_again() -> None:
    """Changed in place (a one added; a one moved, the count kept; a value of 2), the array
    is not taken for the ones the environment named: the draws are gymnasium's, a bad value
    is refused as gymnasium refuses it."""
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=3)
    while len(env.legal_indices()) < 3:
        env.step(env.legal_indices()[0])
    agent = env.agent_selection
    space = env.action_space(agent)
    for change in ("add", "move"):
        mask = env.action_mask(agent)
        ones = np.flatnonzero(mask)
        if change == "move":
            mask[ones[0]] = 0
        mask[len(mask) - 1] = 1
        space.seed(9)
        theirs = spaces.Discrete(len(mask), seed=9)
        draws = [space.sample(mask) for _ in range(40)]
        assert draws == [theirs.sample(mask) for _ in range(40)], change
        if change == "move":
            assert ones[0] not in draws
    mask[ones[1]] = 2
    with pytest.raises(AssertionError):
        space.sample(mask)
