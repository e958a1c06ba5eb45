"""g1840_v1: factored actions (type, then arguments, each with its own mask), the compact
hex-grid observation, and the PettingZoo / Gymnasium test suites."""

from __future__ import annotations

import random
import warnings
from types import SimpleNamespace

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, max_cycles_test, seed_test  # noqa: E402
from pettingzoo.utils import parallel_to_aec  # noqa: E402

from tramways.core import IllegalAction, replay  # noqa: E402
from tramways.envs import g1840_v1, vs_bots  # noqa: E402
from tramways.envs.g1840_catalogue import CATALOGUE  # noqa: E402
from tramways.envs.g1840_factored import HEADS, TYPES, describe, factor  # noqa: E402
from tramways.envs.g1840_v1 import CHOICE, COLS, GRID, OBS_SIZE, ROWS, cell  # noqa: E402
from tramways.g1840.actions import LayTile  # noqa: E402


def choose_randomly(env, rng):
    legal = env.legal_indices()
    env.step(legal[rng.randrange(len(legal))])


def test_sizes_well_under_the_v0_observation_and_a_small_action_space():
    assert OBS_SIZE == 6202 and OBS_SIZE < 16_184 // 2
    env = g1840_v1.raw_env(players=3)
    assert env.action_space("player_1").n == 401 == max(HEADS.values())
    assert len(TYPES) == 25
    assert len({cell(h) for h in g1840_v1.HEXES}) == len(g1840_v1.HEXES)
    assert max(cell(h) for h in g1840_v1.HEXES) < ROWS * COLS


def test_every_legal_action_has_one_factored_form_and_the_masks_lead_to_it():
    """Over random positions: every legal action with a flat index has a distinct choice
    tuple, and following the masks stage by stage reaches exactly those tuples."""
    rng = random.Random(4)
    env = g1840_v1.raw_env(players=4)
    env.reset(seed=8)
    positions = 0
    while positions < 120 and not (env.terminations["player_1"] or env.truncations["player_1"]):
        seat = env.state.current_players()[0]
        legal = [a for a in env.state.legal_actions(seat) if CATALOGUE.index_of(a) is not None]
        tuples = {factor(a) for a in legal}
        assert None not in tuples and len(tuples) == len(legal)
        first = {c[0] for c in tuples}
        assert set(env.legal_indices()) == first
        positions += 1
        # walk a random path down the masks to one legal action
        while True:
            before = len(env.actions)
            choose_randomly(env, rng)
            if len(env.actions) > before or env.terminations["player_1"]:
                break
            assert env.agent_selection == env.possible_agents[seat]  # the same agent goes on
    assert positions == 120


def test_a_tile_lay_is_type_then_hex_then_tile_then_rotation():
    """IX.4: the lay's hex is asked first, then the tile, then the rotation; each mask holds
    only what leads to a legal lay."""
    env = g1840_v1.raw_env(players=2)
    rng = random.Random(2)
    env.reset(seed=5)
    lay = TYPES.index("line lay")
    for _ in range(5000):
        if lay in env.legal_indices() and not env.prefix:
            break
        choose_randomly(env, rng)
    else:
        raise AssertionError("no tile lay reached")
    lays = [a for a in env.legal_engine_actions() if isinstance(a, LayTile)]
    env.step(lay)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs[CHOICE + 1] == 1.0  # the hex head is asked
    hexes = {g1840_v1.HEXES.index(a.hex) for a in lays}
    assert set(env.legal_indices()) == hexes
    h = env.legal_indices()[0]
    env.step(h)
    tiles_there = {g1840_v1.TILES.index(a.tile) for a in lays if a.hex == g1840_v1.HEXES[h]}
    assert set(env.legal_indices()) == tiles_there
    t = env.legal_indices()[0]
    env.step(t)
    rotations = {a.rotation for a in lays
                 if a.hex == g1840_v1.HEXES[h] and a.tile == g1840_v1.TILES[t]}
    assert set(env.legal_indices()) == rotations
    assert describe(env.prefix).startswith(f"line lay hex={g1840_v1.HEXES[h]}")
    count = len(env.actions)
    env.step(env.legal_indices()[0])
    assert len(env.actions) == count + 1 and isinstance(env.actions[-1], LayTile)
    assert env.prefix == ()
    # the grid shows the tile's track on that hex
    obs = env.observe(env.possible_agents[0])["observation"]
    laid = env.actions[-1]
    channels = obs[GRID:GRID + 31 * ROWS * COLS].reshape(31, ROWS, COLS)
    r, c = divmod(cell(laid.hex), COLS)
    assert channels[2:14, r, c].sum() > 0 and channels[14:19, r, c].sum() == 1  # track, colour


def test_an_unmasked_choice_raises_and_changes_nothing():
    env = g1840_v1.raw_env(players=3)
    env.reset(seed=1)
    bad = next(i for i in range(401) if i not in env.legal_indices())
    with pytest.raises(IllegalAction, match="choosing the type"):
        env.step(bad)
    assert env.actions == [] and env.prefix == ()


def test_records_replay():
    env = g1840_v1.raw_env(players=2)
    env.reset(seed=9)
    rng = random.Random(9)
    for _ in range(100):
        choose_randomly(env, rng)
    assert len(env.actions) > 40
    state, _ = replay(env.record())
    assert state.view(None) == env.state.view(None)


@pytest.mark.parametrize("ruleset", ["rules", "18xx.games"])
def test_pettingzoo_api_and_seed_tests_pass(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = g1840_v1.env(players=2, ruleset=ruleset)
        env.reset(seed=1)
        for k, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(k)
        api_test(env, num_cycles=60)
        seed_test(lambda: g1840_v1.env(players=2, ruleset=ruleset), num_cycles=40)


def test_max_cycles_test_passes_for_the_parallel_form():
    def par(max_cycles):
        return g1840_v1.parallel_env(max_cycles=max_cycles, illegal="ignore", players=2)

    max_cycles_test(SimpleNamespace(parallel_env=par,
                                    env=lambda max_cycles: parallel_to_aec(par(max_cycles))))


def test_gymnasium_env_checker_and_rule_bots_through_vs_bots():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(vs_bots("1840", opponents="random", players=2, illegal="end"),
                  skip_render_check=True)
    env = vs_bots("1840", opponents="rule", players=3, seat=1)
    obs, info = env.reset(seed=4)
    assert env.env.agent_selection == "player_2" and obs["observation"].shape == (OBS_SIZE,)
    rng = random.Random(4)
    for _ in range(30):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
    players = {a.player for a in env.env.actions if a.player >= 0}
    assert {0, 2} <= players
