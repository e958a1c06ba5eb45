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
