"""The Trambahn PettingZoo environment: API, seeding, catalogue, hidden cards, rewards."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tests.envs.redealt import redealt_observations  # noqa: E402
from tramways.core import IllegalAction, Session, replay  # noqa: E402
from tramways.envs import trambahn_v0  # noqa: E402
from tramways.envs.base import place_rewards  # noqa: E402
from tramways.envs.trambahn_catalogue import CATALOGUE, MAX_COLUMNS  # noqa: E402
from tramways.trambahn.actions import format_action  # noqa: E402


def random_step(env, rng):
    legal = np.flatnonzero(env.action_mask(env.agent_selection))
    env.step(int(legal[rng.randrange(len(legal))]))


def test_pettingzoo_api_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its hints for non-dict observations
        env = trambahn_v0.env()
        env.reset(seed=1)  # api_test's own resets then draw their seeds from this one
        for k, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(k)  # and its random actions are the same every run
        api_test(env, num_cycles=500)


def test_pettingzoo_seed_test_passes():
    seed_test(trambahn_v0.env, num_cycles=300)


def test_reset_seed_is_the_record_seed():
    """``reset(seed=s)`` deals the game ``tramways new trambahn --seed s`` deals."""
    env = trambahn_v0.raw_env()
    env.reset(seed=7)
    assert env.state.view(None) == Session.new("trambahn", {}, seed=7).state.view(None)
    assert env.possible_agents == ["player_1", "player_2"]
    assert env.agent_selection == "player_1"


def test_catalogue_has_1050_fixed_actions_named_by_notation():
    assert len(CATALOGUE) == 1050 and MAX_COLUMNS == 21
    assert CATALOGUE.notation(0) == "passenger 1b"
    assert CATALOGUE.notation(CATALOGUE.names.index("passenger C y")) == "passenger C y"
    assert CATALOGUE.notation(len(CATALOGUE) - 1) == "end"


def test_mask_is_exactly_the_legal_actions_of_the_seat_to_move():
    """Every legal action has an index, named by its own notation, and every masked index
    is a legal action (random positions of random games)."""
    rng = random.Random(3)
    env = trambahn_v0.raw_env()
    positions = 0
    for game in range(6):
        env.reset(seed=100 + game)
        while not env.terminations["player_1"]:
            seat = env.state.current_players()[0]
            legal = env.state.legal_actions(seat)
            mask = env.action_mask(env.agent_selection)
            indices = {CATALOGUE.index_of(a) for a in legal}
            assert None not in indices and len(indices) == len(legal)
            assert set(np.flatnonzero(mask)) == indices
            for i, a in env.legal_actions().items():
                assert CATALOGUE.notation(i) == format_action(a).split(" ", 1)[1]
            other = env.possible_agents[1 - seat]
            assert not env.action_mask(other).any()  # not its turn
            positions += 1
            random_step(env, rng)
    assert positions > 500


def test_observation_is_built_from_the_agents_view_only():
    """Positions that look the same to a player (the hidden cards dealt differently, by the
    engine's own ``determinize``) give that player the same observation and mask."""
    compared = differed = 0
    for obs, other, real, redealt, seat in redealt_observations(
            trambahn_v0.raw_env(), random.Random(5), range(200, 204), 0.2, random_step):
        differed += sorted(redealt.hands[1 - seat]) != sorted(real.hands[1 - seat])
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        compared += 1
    assert compared > 50 and differed > compared // 2


def test_observation_shows_own_hand_and_not_the_other():
    env = trambahn_v0.raw_env()
    env.reset(seed=11)
    from tramways.envs.trambahn_v0 import FACE_INDEX, HAND
    from tramways.trambahn.cards import CARD_FACE

    for agent, seat in (("player_1", 0), ("player_2", 1)):
        obs = env.observe(agent)["observation"]
        hand = np.zeros(41)
        for c in env.state.hands[seat]:
            hand[FACE_INDEX[CARD_FACE[c]]] += 1
        assert np.array_equal(obs[HAND:HAND + 41], hand)
        assert obs[10] == 1.0 and obs[11] == 1.0  # both hands hold 6 cards
    assert env.observation_space("player_1").contains(env.observe("player_1"))


def test_rewards_at_the_end_only_win_loss_and_raw_scores_in_infos():
    """Game End (T-R-4): +1 to the winner, -1 to the loser, the scores in infos."""
    rng = random.Random(9)
    env = trambahn_v0.env()
    for game in range(5):
        env.reset(seed=300 + game)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            assert reward == 0 and info == {}
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        result = env.unwrapped.state.result()
        winner = result["winner"]
        for seat, agent in enumerate(env.possible_agents):
            expected = 0.0 if winner is None else (1.0 if seat == winner else -1.0)
            assert total[agent] == expected
        infos = env.unwrapped.final_infos(env.unwrapped.state.outcome())
        assert [i["score"] for i in infos] == result["scores"]
        assert [i["money"] for i in infos] == result["money"]


def test_place_rewards_split_shared_places():
    assert place_rewards([1, 2]) == [1.0, -1.0]
    assert place_rewards([1, 1]) == [0.0, 0.0]
    assert place_rewards([2, 1, 3]) == [0.0, 1.0, -1.0]
    assert place_rewards([1, 1, 3, 4]) == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1])
    assert place_rewards([1, 2, 2, 2]) == pytest.approx([1, -1 / 3, -1 / 3, -1 / 3])


def test_an_unmasked_index_raises_and_changes_nothing():
    env = trambahn_v0.raw_env()
    env.reset(seed=4)
    before = env.state.view(None)
    end = CATALOGUE.names.index("end")  # no passenger yet: ending is illegal (Step 1)
    with pytest.raises(IllegalAction) as err:
        env.step(end)
    assert "end" in err.value.message
    assert env.state.view(None) == before and env.actions == []


def test_the_record_of_an_env_game_replays_to_the_same_position():
    rng = random.Random(2)
    env = trambahn_v0.raw_env()
    env.reset(seed=21)
    for _ in range(150):
        random_step(env, rng)
    state, _ = replay(env.record())
    assert state.view(None) == env.state.view(None)


def test_max_steps_truncates():
    env = trambahn_v0.raw_env(max_steps=10)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(10):
        random_step(env, rng)
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_render_modes():
    env = trambahn_v0.raw_env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("Turn 1: P1 (P1) to play") and "Your hand" not in text
    env = trambahn_v0.raw_env(render_mode="rgb_array")
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        random_step(env, rng)
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (260, 528, 3)
    assert (img != 245).any()


def test_every_catalogue_entry_is_notation_that_parses_back_to_its_index():
    from tramways.trambahn.actions import parse_action

    for i, name in enumerate(CATALOGUE.names):
        for seat in (1, 2):
            assert CATALOGUE.index_of(parse_action(f"P{seat} {name}")) == i


def test_observation_layout_is_the_documented_one():
    from tramways.envs import trambahn_v0 as T

    assert (T.HAND, T.ROWS, T.COLUMNS, T.TABLE_FACES, T.TRAMS_AT, T.HISTORY, T.OBS_SIZE) == (
        17, 58, 103, 691, 732, 738, 742)
