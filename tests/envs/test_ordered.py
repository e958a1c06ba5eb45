"""The public ``env()``'s wrapper (tramways.envs.ordered): PettingZoo's order-enforcing
wrapper, with the per-step calls reading the environment directly; the same checks, the same
play."""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

from tramways.envs import g1840_v0, trambahn_v0  # noqa: E402
from tramways.envs.ordered import Ordered  # noqa: E402


def loop(env, seed, steps):
    """The usual loop; what it saw (observations, masks, rewards, actions) in order."""
    env.reset(seed=seed)
    for k, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + k)
    seen = []
    for agent in env.agent_iter(max_iter=steps):
        obs, reward, term, trunc, info = env.last()
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                     term, trunc, dict(info)))
        action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
        seen.append(action)
        env.step(action)
    return seen


@pytest.mark.parametrize("module", [trambahn_v0, g1840_v0])
def test_the_loop_sees_what_pettingzoos_own_wrapper_shows(module):
    ours = module.env()
    theirs = OrderEnforcingWrapper(module.raw_env())
    assert isinstance(ours, Ordered) and isinstance(ours, OrderEnforcingWrapper)
    assert str(ours) == str(theirs)
    assert loop(ours, 5, 300) == loop(theirs, 5, 300)


def test_before_reset_the_wrapper_refuses_as_pettingzoos_does():
    env = trambahn_v0.env()
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        env.agent_selection  # noqa: B018
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    with pytest.raises(Exception, match="reset"):
        env.agent_iter()


def test_agent_iter_asks_for_a_step_between_agents():
    env = trambahn_v0.env()
    env.reset(seed=3)
    agents = iter(env.agent_iter())
    next(agents)
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)


def test_agent_iter_stops_at_max_iter_and_at_the_end_of_the_game():
    env = trambahn_v0.env()
    env.reset(seed=3)
    assert len(loop(env, 3, 7)) == 14
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else
                 int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == [] and all(env.unwrapped.terminations.values())


def test_a_step_after_the_game_warns_as_pettingzoos_wrapper_does(caplog):
    env = trambahn_v0.env()
    env.reset(seed=3)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else
                 int(np.flatnonzero(obs["action_mask"])[0]))
    with caplog.at_level(logging.WARNING):
        env.step(None)
    assert "step() called after all agents are terminated or truncated" in caplog.text
