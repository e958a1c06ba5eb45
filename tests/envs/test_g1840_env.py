"""The 1840 PettingZoo environment: API, seeding, the global action catalogue, rewards."""

from __future__ import annotations

import json
import random
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tramways.core import IllegalAction, Session, replay  # noqa: E402
from tramways.envs import g1840_v0  # noqa: E402
from tramways.envs.g1840_catalogue import CATALOGUE, key_of  # noqa: E402
from tramways.g1840 import actions as A  # noqa: E402
from tramways.g1840.game import GAME  # noqa: E402
from tramways.g1840.view_types import View1840  # noqa: E402


def catalogue_name(action) -> str:
    """What the catalogue calls an action: its notation with the implicit actor replaced."""
    head, rest = GAME.format_action(action).split(" ", 1)
    if isinstance(action, A.ScrapTram) and action.line is not None:
        return f"line scrap {action.colour}"  # the acting line's own tram
    if isinstance(action, A.ScrapTram | A.CompanyReturnPrivate):
        return f"{head} {rest}"
    if isinstance(action, A.CompanyAction):
        return f"company {rest}"
    if isinstance(action, A.LineAction):
        return f"line {rest}"
    return rest


def policy_step(env, rng):
    """One action of the engine's selfplay policy (games end in a few hundred actions)."""
    seat = env.state.current_players()[0]
    action = GAME.selfplay_policy(env.state, seat, rng)
    env.step(CATALOGUE.index_of(action))


@pytest.mark.parametrize("ruleset", ["rules", "18xx.games"])
def test_pettingzoo_api_test_passes(ruleset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its hints for non-dict observations
        env = g1840_v0.env(players=4, ruleset=ruleset)
        env.reset(seed=1)  # api_test's own resets then draw their seeds from this one
        for k, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(k)  # and its random actions are the same every run
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("ruleset", ["rules", "18xx.games"])
def test_pettingzoo_seed_test_passes(ruleset):
    seed_test(lambda: g1840_v0.env(players=3, small_map=True, ruleset=ruleset), num_cycles=60)


def test_reset_seed_is_the_record_seed():
    env = g1840_v0.raw_env(players=5)
    env.reset(seed=12)
    assert env.state.view(None) == Session.new("1840", {"players": 5}, seed=12).state.view(None)
    assert env.possible_agents == [f"player_{i}" for i in range(1, 6)]


def test_catalogue_is_the_documented_49183_actions():
    assert len(CATALOGUE) == 49183
    assert CATALOGUE.notation(0) == "pass"
    assert CATALOGUE.index_of(A.Bid(3, "KK", 25)) == CATALOGUE.names.index("bid KK 25")
    assert CATALOGUE.index_of(A.LayTile(line=7, hex="E17", tile="57", rotation=2)) == \
        CATALOGUE.names.index("line lay E17 57 r2")
    assert CATALOGUE.index_of(A.ScrapTram(company="WT", colour="yellow")) == \
        CATALOGUE.names.index("WT scrap yellow")
    assert CATALOGUE.index_of(A.ScrapTram(company="WT", colour="yellow", line=6)) == \
        CATALOGUE.names.index("line scrap yellow") == 49178  # X-23, appended
    assert key_of(A.Run(line=3, route="D18.0-E19.0")) is None  # a claimed route: no index


def test_every_legal_action_of_1000_random_positions_has_an_index_and_every_masked_index_is_legal():
    """Positions of a few random games (2-6 players, all three maps): every legal action of
    every seat has an index named by its notation, distinct actions get distinct indices, and
    the mask is exactly the acting seat's legal actions; one masked action per position is
    applied to a copy and accepted by the engine."""
    rng = random.Random(14)
    positions = 0
    settings = [{"players": 2}, {"players": 3, "small_map": True}, {"players": 4},
                {"players": 6}, {"players": 5}]
    for game, setting in enumerate(settings):
        env = g1840_v0.raw_env(**setting)
        env.reset(seed=40 + game)
        while not env.state.is_over() and positions < 1000:
            state = env.state
            actor = state.current_players()[0]
            for seat in range(state.n):
                legal = state.legal_actions(seat)
                indices = [CATALOGUE.index_of(a) for a in legal]
                assert None not in indices, [a for a, i in zip(legal, indices, strict=True) if i is None]
                assert len(set(indices)) == len(legal)
                for i, a in zip(indices, legal, strict=True):
                    assert CATALOGUE.notation(i) == catalogue_name(a)
                if seat == actor:
                    mask = env.action_mask(env.agent_selection)
                    assert set(np.flatnonzero(mask)) == set(indices)
            masked = sorted(env.legal_actions())
            trial = state.clone()
            trial.apply(env.legal_actions()[rng.choice(masked)], actor)
            positions += 1
            if rng.random() < 0.5:
                policy_step(env, rng)
            else:
                env.step(rng.choice(masked))
    assert positions == 1000


def test_observation_is_a_function_of_the_agents_json_view():
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=3)
    rng = random.Random(3)
    for step in range(300):
        if step % 25 == 0:
            for seat, agent in enumerate(env.possible_agents):
                view = View1840.from_json(json.loads(json.dumps(env.state.view(seat).to_json())))
                obs = env.observe(agent)
                assert np.array_equal(obs["observation"], g1840_v0.encode(view, seat))
                assert env.observation_space(agent).contains(obs)
                # relative seats: the agent's own cash comes first
                at = g1840_v0.L.seat
                assert obs["observation"][at + 1] == pytest.approx(
                    view.players[seat].cash / 1000)
        policy_step(env, rng)


def test_rewards_at_the_end_by_wealth_and_wealth_in_infos():
    """XI / R-END-1: places by final wealth, +1 first to -1 last, shared places split."""
    rng = random.Random(8)
    env = g1840_v0.raw_env(players=3)
    env.reset(seed=8)
    while not env.state.is_over():
        assert all(r == 0 for r in env.rewards.values())
        policy_step(env, rng)
    result = env.state.result()
    assert [env.infos[a]["wealth"] for a in env.possible_agents] == result["wealth"]
    assert [env.infos[a]["rank"] for a in env.possible_agents] == result["rank"]
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    assert sum(rewards) == pytest.approx(0)
    best = result["rank"].index(1)
    assert rewards[best] == max(rewards) > 0
    assert all(env.terminations.values())


def test_an_unmasked_index_raises_and_changes_nothing():
    env = g1840_v0.raw_env(players=4)
    env.reset(seed=5)
    before = env.state.view(None)
    with pytest.raises(IllegalAction):
        env.step(CATALOGUE.names.index("line run"))  # the Pre-Share Round: no line runs
    assert env.state.view(None) == before


def test_the_record_of_an_env_game_replays_to_the_same_position():
    rng = random.Random(6)
    env = g1840_v0.raw_env(players=2)
    env.reset(seed=6)
    for _ in range(120):
        policy_step(env, rng)
    state, _ = replay(env.record())
    assert state.view(None) == env.state.view(None)


def test_render_modes():
    env = g1840_v0.raw_env(players=2, render_mode="ansi")
    env.reset(seed=2)
    assert env.render().startswith("1840 Vienna Tramways - PRE")
    pytest.importorskip("cairosvg")
    env = g1840_v0.raw_env(players=2, render_mode="rgb_array")
    env.reset(seed=2)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 300 and img.shape[1] > 300 and img.min() < 100


def test_every_catalogue_entry_is_notation_that_parses_back_to_its_index():
    """The catalogue is the notation grammar: with its actor filled in (P1, the company WT,
    the line L7), every entry parses to an action whose index is the entry's own."""
    for i, name in enumerate(CATALOGUE.names):
        if name.startswith("company "):
            text = "WT " + name.removeprefix("company ")
        elif name.startswith("line scrap "):  # the company names the line's tram
            text = f"WT scrap {name.removeprefix('line scrap ')} L7"
        elif name.startswith("line "):
            text = "L7 " + name.removeprefix("line ")
        elif name.split()[0] in ("WT", "DT", "SJE", "BBG", "WKB", "GW"):
            text = name
        else:
            text = "P1 " + name
        assert CATALOGUE.index_of(GAME.parse_action(text)) == i, text


def test_each_classes_indexer_gives_the_index_of_the_actions_key():
    """The per-class indexers (field by field for lays, auctions and bids) give exactly the
    index of the action's key, for every entry and for values just off the catalogue's grid
    (no index)."""
    for i, name in enumerate(CATALOGUE.names):
        if not name.startswith(("line lay", "company auction", "company bid", "bid")):
            continue
        text = ("WT " + name.removeprefix("company ") if name.startswith("company ")
                else "L7 " + name.removeprefix("line ") if name.startswith("line ")
                else "P1 " + name)
        action = GAME.parse_action(text)
        assert CATALOGUE.indexers[type(action)](action) == CATALOGUE.index[key_of(action)] == i
    off_grid = [A.LayTile(line=7, hex="E17", tile="57", rotation=6, player=0),
                A.LayTile(line=7, hex="Z99", tile="57", rotation=0, player=0),
                A.LayTile(line=7, hex="E17", tile="no such tile", rotation=0, player=0),
                A.OpenAuction(company="WT", line=7, amount=22, player=0),
                A.OpenAuction(company="WT", line=19, amount=20, player=0),
                A.OpenAuction(company="WT", line=7, amount=2005, player=0),
                A.LineBid(company="WT", amount=20, player=0),
                A.LineBid(company="WT", amount=2005, player=0),
                A.Bid(player=0, private="no such private", amount=5),
                A.Bid(player=0, private=CATALOGUE.keys[9][1], amount=605)]
    for action in off_grid:
        assert CATALOGUE.index.get(key_of(action)) is None
        assert CATALOGUE.indexers[type(action)](action) is None, action


def test_observation_layout_is_the_documented_one():
    L = g1840_v0.L
    assert (g1840_v0.GLOBAL, L.seat_size, L.company_size, L.line_size, L.stadtbahn_size,
            L.private_size, L.hex_size) == (152, 23, 27, 13, 7, 13, 104)
    assert g1840_v0.OBS_SIZE == 152 + 6 * 23 + 6 * 27 + 18 * 13 + 4 * 7 + 6 * 13 + 148 * 104


def test_r_pre_1_the_observation_holds_the_private_auction():
    """R-PRE-1: during a private's auction the observation names the private, the high bid and
    the high bidder (relative to the agent); no line and no company is bidding."""
    env = g1840_v0.raw_env(players=3)
    env.reset(seed=3)
    opener = env.state.current_players()[0]
    bid = next(a for a in env.state.legal_actions(opener) if isinstance(a, A.Bid))
    env.step(CATALOGUE.index_of(bid))
    L, P = g1840_v0.L, g1840_v0.PRIVATES
    me = env.state.current_players()[0]  # the next bidder observes
    obs = env.observe(env.possible_agents[me])["observation"]
    assert obs[L.auction_private + P.index(bid.private)] == 1.0
    assert sum(obs[L.auction_private:L.auction_private + len(P)]) == 1.0
    assert obs[L.auction_high] == pytest.approx(bid.amount / 100)
    assert obs[L.auction_seat + (opener - me) % 3] == 1.0
    assert not obs[L.auction_line:L.auction_line + len(g1840_v0.LINES)].any()
    assert not obs[L.auction_company:L.auction_company + len(g1840_v0.COMPANIES)].any()
