"""trambahn_v1: the information state (T-R-2, T-R-5, T-R-6 piles), column slots as stable
action ids, the shaped reward, and the PettingZoo / Gymnasium test suites."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tests.envs.redealt import redealt_observations  # noqa: E402
from tramways.envs import trambahn_v1  # noqa: E402
from tramways.envs.trambahn_catalogue import CATALOGUE  # noqa: E402
from tramways.envs.trambahn_v1 import (  # noqa: E402
    COLUMN_SIZE,
    COLUMNS,
    DISCARD,
    OBS_SIZE,
    SNAPSHOT_SIZE,
    UNSEEN,
)
from tramways.trambahn.actions import Buy, EndTurn, Station  # noqa: E402
from tramways.trambahn.cards import CARD_FACE  # noqa: E402


def random_step(env, rng):
    legal = env.legal_indices()
    env.step(legal[rng.randrange(len(legal))])


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = trambahn_v1.env(score_reward=0.01)
        env.reset(seed=1)
        for k, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(k)
        api_test(env, num_cycles=300)


def test_pettingzoo_seed_test_passes():
    seed_test(trambahn_v1.env, num_cycles=200)


def test_sizes_and_the_snapshot_option():
    assert (SNAPSHOT_SIZE, OBS_SIZE) == (753, 920)
    full, snap = trambahn_v1.raw_env(), trambahn_v1.raw_env(observation="snapshot")
    full.reset(seed=5)
    snap.reset(seed=5)
    a, b = full.observe("player_2"), snap.observe("player_2")
    assert b["observation"].shape == (753,) and a["observation"].shape == (920,)
    assert np.array_equal(a["observation"][:SNAPSHOT_SIZE], b["observation"])
    assert a["observation"][1] == 1.0 and full.observe("player_1")["observation"][1] == 0.0
    with pytest.raises(ValueError, match="observation must be"):
        trambahn_v1.raw_env(observation="full")


def test_memory_matches_the_real_piles_and_never_claims_a_wrong_card():
    """What the memory says is in the discard and money piles is really there (T-R-2 row
    passengers, Step 4 payments, T-R-6 columns to money, T-R-5 reshuffles), and the money
    piles have the engine's sizes."""
    rng = random.Random(8)
    env = trambahn_v1.raw_env()
    known = reshuffled = 0
    for game in range(4):
        env.reset(seed=400 + game)
        while not env.terminations["player_1"]:
            state = env.state
            for memory in env.memories:
                true_discard = Counter(CARD_FACE[c] for c in state.discard)
                assert not memory.discard - true_discard
                for p in (0, 1):
                    assert len(memory.money[p]) == len(state.money[p])
                    for face, card in zip(memory.money[p], state.money[p], strict=True):
                        assert face is None or face == CARD_FACE[card]
                        known += face is not None
                assert min(memory.unseen(state.view(memory.seat)).values()) >= 0
            reshuffled = max(reshuffled, state.reshuffles)
            random_step(env, rng)
    assert known > 1000 and reshuffled >= 1


def test_own_income_is_remembered_the_opponents_is_not():
    """Step 3 puts a card face down: its owner knows it, the other player does not."""
    env = trambahn_v1.raw_env()
    env.reset(seed=3)
    rng = random.Random(3)
    while not any(CATALOGUE.notation(i).startswith("income") for i in env.legal_indices()):
        random_step(env, rng)
    seat = env._seat[env.agent_selection]
    i = next(i for i in env.legal_indices() if CATALOGUE.notation(i).startswith("income"))
    env.step(i)
    face = CATALOGUE.notation(i).split()[1]
    assert env.memories[seat].money[seat][-1] == face
    assert env.memories[1 - seat].money[seat][-1] is None


def test_information_state_hides_the_hidden_cards():
    """Positions that look the same to a player (hidden cards dealt anew by ``determinize``)
    give the same observation and mask, memory included."""
    compared = 0
    for obs, other, _real, _redealt, _seat in redealt_observations(
            trambahn_v1.raw_env(), random.Random(5), range(500, 503), 0.15, random_step):
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        compared += 1
    assert compared > 30


def test_a_columns_slot_survives_the_discard_of_an_earlier_column():
    """T-R-6 discards tram-less columns; the ids of the columns kept do not move (v0's
    position ids would), and the freed slot goes to the next new column."""
    rng = random.Random(12)
    env = trambahn_v1.raw_env()
    for game in range(40):
        env.reset(seed=600 + game)
        while not env.terminations["player_1"]:
            seat = env._seat[env.agent_selection]
            slots = list(env.memories[seat].slots[seat])
            cols = env.state.columns[seat]
            legal = env.legal_actions()
            end = [i for i, a in legal.items() if isinstance(a, EndTurn)]
            lost = [k for k, c in enumerate(cols) if c.tram is None]
            kept = [k for k, c in enumerate(cols) if c.tram is not None]
            if end and lost and kept and lost[0] < kept[-1]:
                env.step(end[0])
                after = env.memories[seat].slots[seat]
                assert after == [slots[k] for k in kept]
                assert after != list(range(len(after)))  # a v0 position would have shifted
                # the ids of the kept columns name them by slot in the next turn's actions
                return
            # prefer buying trams so columns survive
            buys = [i for i, a in legal.items() if isinstance(a, Buy)]
            news = [i for i, a in legal.items() if isinstance(a, Station) and a.column is None]
            pick = buys or news
            if pick and rng.random() < 0.7:
                env.step(pick[rng.randrange(len(pick))])
            else:
                random_step(env, rng)
    raise AssertionError("no discard of an earlier column in 40 games")


def test_station_and_buy_ids_name_slots_and_columns_are_observed_by_slot():
    rng = random.Random(4)
    env = trambahn_v1.raw_env()
    checked = 0
    for game in range(3):
        env.reset(seed=700 + game)
        while not env.terminations["player_1"]:
            seat = env._seat[env.agent_selection]
            slots = env.memories[seat].slots[seat]
            obs = env.observe(env.agent_selection)["observation"]
            for i, a in env.legal_actions().items():
                if isinstance(a, Station | Buy) and a.column is not None:
                    slot = int(CATALOGUE.notation(i).split()[-1]) - 1  # 1-based names
                    assert slot == slots[a.column]
                    colour = env.state.columns[seat][a.column].colour
                    assert obs[COLUMNS + slot * COLUMN_SIZE + colour] == 1.0
                    checked += 1
            random_step(env, rng)
    assert checked > 100


def test_shaped_reward_adds_up_to_the_score_difference():
    """``score_reward=c``: over a game, c x (my final score - the other's) besides +1/-1."""
    rng = random.Random(6)
    env = trambahn_v1.env(score_reward=0.01)
    env.reset(seed=31)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    result = env.unwrapped.state.result()
    s, w = result["scores"], result["winner"]
    for seat, agent in enumerate(env.possible_agents):
        place = 0.0 if w is None else (1.0 if w == seat else -1.0)
        assert total[agent] == pytest.approx(place + 0.01 * (s[seat] - s[1 - seat]))
    assert s[0] != s[1]


def test_no_shaping_by_default_and_the_unseen_counts_start_from_the_deal():
    env = trambahn_v1.raw_env()
    env.reset(seed=2)
    obs = env.observe("player_1")["observation"]
    # at the deal: 120 cards - 6 in my hand are unseen (the table is empty, no pile known)
    assert obs[UNSEEN:UNSEEN + 41].sum() == 114
    assert obs[DISCARD:DISCARD + 41].sum() == 0
    assert env.score_reward == 0.0
