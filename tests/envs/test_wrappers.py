"""The wrappers: vs_bots (Gymnasium single agent against bots), its vector form, and the
ParallelEnv form with PettingZoo's max_cycles_test."""

from __future__ import annotations

import random
import warnings
from functools import partial
from types import SimpleNamespace

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import max_cycles_test, parallel_api_test, parallel_seed_test  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

from tramways.bots import make_bot  # noqa: E402
from tramways.core import IllegalAction  # noqa: E402
from tramways.envs import vector_vs_bots, vs_bots  # noqa: E402
from tramways.envs.parallel import parallel_env  # noqa: E402
from tramways.games import get_game  # noqa: E402


def play(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        total += reward
        if terminated or truncated:
            return total, info


V0 = [("trambahn", {}), ("trambahn_v0", {}), ("g1840_v0", {"players": 2}),
      ("g1840_v0", {"players": 4, "ruleset": "18xx.games"})]


@pytest.mark.parametrize(("game", "settings"), V0)
def test_gymnasium_env_checker_passes(game, settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its hint about the unbounded Box
        check_env(vs_bots(game, opponents="random", illegal="end", **settings),
                  skip_render_check=True)


def test_the_learner_moves_only_on_its_turns_and_bots_play_the_rest():
    rng = random.Random(1)
    for seat in (0, 1):
        env = vs_bots("trambahn", opponents="rule", seat=seat)
        obs, info = env.reset(seed=40 + seat)
        assert info["seat"] == seat and env.env.agent_selection == env.agent
        total, info = play(env, 40 + seat, rng)
        assert info["rank"] in (1, 2) and total in (-1.0, 0.0, 1.0)
        # the game's record holds both sides' moves, the bots' included
        players = {a.player for a in env.env.actions}
        assert players == {0, 1}


def test_random_loses_to_the_rule_bot_through_the_wrapper():
    rng = random.Random(2)
    wins = sum(play(vs_bots("trambahn", opponents="rule"), 50 + g, rng)[0] > 0 for g in range(6))
    assert wins <= 1


def test_reset_seed_fixes_game_seat_and_bots():
    env = vs_bots("trambahn", opponents="rule")
    a = play(env, 77, random.Random(0))
    seat = env.seat
    record = env.env.record()
    b = play(env, 77, random.Random(0))
    assert a == b and env.seat == seat and env.env.record() == record


def test_opponents_by_name_or_bot_and_bad_arguments():
    bot = make_bot("random", get_game("trambahn"))
    env = vs_bots("trambahn", opponents=[bot])
    assert env.bots == [bot]
    with pytest.raises(ValueError, match="1 opponents needed"):
        vs_bots("trambahn", opponents=["rule", "rule"])
    with pytest.raises(ValueError, match="unknown game"):
        vs_bots("chess")
    env = vs_bots("trambahn", opponents="random")
    obs, _ = env.reset(seed=1)
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_illegal_end_stops_the_game_with_the_worst_reward():
    env = vs_bots("trambahn", opponents="random", illegal="end")
    obs, _ = env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)


def test_vector_form_runs_n_games_and_resets_them():
    envs = vector_vs_bots("trambahn", 3, opponents="random", score_reward=0.01)
    obs, info = envs.reset(seed=10)
    assert obs["observation"].shape == (3, 920) and obs["action_mask"].shape == (3, 1050)
    rng = random.Random(3)
    finished = 0
    for _ in range(400):
        actions = []
        for mask in obs["action_mask"]:
            legal = np.flatnonzero(mask)
            actions.append(int(legal[rng.randrange(len(legal))]) if len(legal) else 0)
        obs, reward, terminated, truncated, info = envs.step(np.array(actions))
        finished += int(terminated.sum())
    envs.close()
    assert finished >= 3


def test_parallel_form_passes_pettingzoo_parallel_tests():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = parallel_env("trambahn")
        parallel_api_test(env, num_cycles=200)
        parallel_seed_test(partial(parallel_env, "trambahn", illegal="ignore"))


@pytest.mark.parametrize(("game", "settings"), V0)
def test_max_cycles_test_passes_for_the_parallel_form(game, settings):
    """max_cycles_test sends unmasked samples and counts one move per agent per cycle: the
    parallel form (and its AEC conversion) with ``illegal="ignore"``."""
    def par(max_cycles):
        return parallel_env(game, max_cycles=max_cycles, illegal="ignore", **settings)

    mod = SimpleNamespace(parallel_env=par,
                          env=lambda max_cycles: parallel_to_aec(par(max_cycles)))
    max_cycles_test(mod)
