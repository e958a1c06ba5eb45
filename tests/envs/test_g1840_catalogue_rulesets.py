"""The 1840 catalogue under every ruleset: each legal action has its own index, and the
index maps back to exactly that action (X-23: under 18xx.games a line scraps its own tram as
``CO scrap COLOUR Ln``, and the same turn lists ``CO scrap COLOUR`` too, VIII.5.3)."""

from __future__ import annotations

import random
import time

import pytest

pytest.importorskip("pettingzoo")

from tramways.envs import g1840_v0, g1840_v1  # noqa: E402
from tramways.envs.g1840_catalogue import CATALOGUE, key_of  # noqa: E402
from tramways.envs.g1840_factored import factor  # noqa: E402
from tramways.g1840 import actions as A  # noqa: E402
from tramways.g1840.data import RULESETS  # noqa: E402


def over(env) -> bool:
    agent = env.agent_selection
    return env.terminations[agent] or env.truncations[agent]


def assert_distinct_and_back(env) -> dict[int, A.Action]:
    """The acting seat's legal actions: one index each, and the index gives that action
    back (the environment's map, the catalogue's key and its index of the action)."""
    seat = env.state.current_players()[0]
    listed = env.state.legal_actions(seat)
    legal = env.legal_actions()
    indices = [CATALOGUE.index_of(a) for a in listed]
    assert None not in indices, [a for a, i in zip(listed, indices, strict=True) if i is None]
    assert len(set(indices)) == len(listed) == len(legal)
    for i, a in zip(indices, listed, strict=True):
        assert legal[i] == a
        assert CATALOGUE.keys[i] == key_of(a)
    return legal


def test_x23_seed_304_line_scrap_and_unnamed_scrap_have_distinct_indices() -> None:
    """The reported crash: 4 players, 18xx.games, game seed 304.  At the line's turn where
    GW may scrap line 12's yellow tram both as ``GW scrap yellow L12`` and ``GW scrap yellow``
    (the form older records write), the two get their own indices (``line scrap yellow``,
    appended, and ``GW scrap yellow``), and either played gives the same position there."""
    env = g1840_v0.raw_env(players=4, ruleset="18xx.games")
    env.reset(seed=304)
    rng = random.Random(0)
    for _ in range(90):
        env.step(rng.choice(sorted(assert_distinct_and_back(env))))
    legal = assert_distinct_and_back(env)
    scraps = {i: a for i, a in legal.items() if isinstance(a, A.ScrapTram)}
    named = CATALOGUE.names.index("line scrap yellow")
    plain = CATALOGUE.names.index("GW scrap yellow")
    assert named >= 49_178  # appended: the default ruleset's indices did not move
    assert scraps == {
        plain: A.ScrapTram(company="GW", colour="yellow", player=3),
        named: A.ScrapTram(company="GW", colour="yellow", line=12, player=3)}
    after = []
    for i in (plain, named):
        trial = env.state.clone()
        trial.apply(scraps[i], 3)
        after.append(trial.view(None))
    assert after[0] == after[1]
    env.step(named)  # the masked step that crashed
    assert env.state.companies["GW"].trams.count("yellow") == 0


CASES = [(ruleset, players, small) for ruleset in RULESETS for players in range(2, 7)
         for small in (False, True) if not small or players == 3]


@pytest.mark.parametrize(("ruleset", "players", "small_map"), CASES)
def test_random_play_every_legal_action_has_its_own_index_and_maps_back(
        ruleset: str, players: int, small_map: bool) -> None:
    """Random masked play, a few short games per ruleset, player count and map (bounded to
    about a second each): at every position the acting seat's legal actions have distinct
    indices, each mapping back to its action; v1 factors each of them."""
    start = time.process_time()
    games = steps = 0
    while games < 3 and time.process_time() - start < 1.5:
        env = g1840_v0.raw_env(players=players, small_map=small_map, ruleset=ruleset)
        env.reset(seed=300 + games)
        rng = random.Random(games)
        for _ in range(400):
            if over(env):
                break
            legal = assert_distinct_and_back(env)
            assert all(factor(a) is not None for a in legal.values())
            env.step(rng.choice(sorted(legal)))
            steps += 1
        games += 1
    assert steps >= 100


def test_x23_v1_plays_a_line_scrap_under_18xx_games() -> None:
    """g1840_v1 factors ``GW scrap yellow L12`` as ``scrap GW yellow``, the choices of the
    unnamed form listed in the same turn (the same move there, X-23); a bot may play either
    through ``step_engine``."""
    env = g1840_v0.raw_env(players=4, ruleset="18xx.games")
    env.reset(seed=304)
    rng = random.Random(0)
    for _ in range(90):
        env.step(rng.choice(sorted(env.legal_actions())))
    v1 = g1840_v1.raw_env(players=4, ruleset="18xx.games")
    v1.reset(seed=304)
    for action in env.actions:
        v1.step_engine(action)
    named = A.ScrapTram(company="GW", colour="yellow", line=12, player=3)
    plain = A.ScrapTram(company="GW", colour="yellow", player=3)
    assert named in v1.legal_engine_actions() and plain in v1.legal_engine_actions()
    assert factor(named) == factor(plain)
    v1.step_engine(named)
    assert v1.state.companies["GW"].trams.count("yellow") == 0
