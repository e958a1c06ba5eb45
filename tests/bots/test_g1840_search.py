"""The 1840 search bot (issue 13): its base policy, which decisions it searches, and a
recorded position where looking ahead finds the better share."""

from __future__ import annotations

import random

from tramways.bots import make_bot
from tramways.bots.g1840_rule import Rules1840
from tramways.bots.g1840_search import Policy1840, SearchBot1840, decision_kind
from tramways.g1840.actions import BuyShare, Dividend, LayTile
from tramways.g1840.game import GAME

from .g1840_games import rule_game_positions


def _game(seed: int = 5) -> list:
    """Every position of one 4-player game of rule bots (the pinned game of seed 5)."""
    return rule_game_positions(4, seed, 1)


def _decisions(every: int = 1):
    for state in _game()[::every]:
        p = state.current_players()[0]
        yield state, p, state.view(p), state.legal_actions(p)


def test_policy_with_neutral_options_is_the_rule_bot():
    """Policy1840 changes the rule bot only where its options say so."""
    for _, _, view, legal in _decisions(every=3):
        assert Policy1840(view, legal, stadtbahn_weight=1.0, pay_out=False,
                          line_cap=None, track_weight=0.0).decide() == \
            Rules1840(view, legal).decide()


def test_policy_pays_out_everything_and_weighs_stadtbahn_shares_double():
    """VIII.5.1 / Table 6: a bigger dividend moves the price further; VIII.5.2: Stadtbahn
    runs grow and CR6 pays x10."""
    dividends = 0
    for _, _, view, legal in _decisions():
        divs = [a for a in legal if isinstance(a, Dividend)]
        if divs:
            dividends += 1
            action, _ = Policy1840(view, legal).decide()
            assert action == max(divs, key=lambda d: d.amount)
        if view.round_info.type == "SR":
            policy, rule = Policy1840(view, legal), Rules1840(view, legal)
            for sid in view.stadtbahn:
                assert policy.share_score(sid) == 2.0 * rule.share_score(sid)
    assert dividends >= 6


def test_decision_kinds_of_a_game():
    kinds = {decision_kind(view.round_info.type, legal) for _, _, view, legal in
             _decisions() if len(legal) > 1}
    assert {"share", "par", "dividend", "tram", "auction", "lay"} <= kinds


def test_search_bot_without_a_position_plays_its_policys_move():
    search = make_bot("search", GAME)
    for _, _, view, legal in _decisions(every=29):
        assert search.choose(view, legal, random.Random(1)) == \
            Policy1840(view, legal).decide()[0]


def test_search_bot_searches_share_round_decisions_only_by_default():
    bot = make_bot("search", GAME, budget=0.05)
    searched = set()
    for state, _p, view, legal in _decisions(every=5):
        bot.see_position(state.clone(), random.Random(3))  # type: ignore[attr-defined]
        action = bot.choose(view, legal, random.Random(3))
        assert action in legal
        if " sample" in bot.explanation:  # type: ignore[attr-defined]
            searched.add(decision_kind(view.round_info.type, legal))
    assert "share" in searched and searched <= {"share", "par"}


def test_search_finds_the_stadtbahn_share_that_pays_x10_in_cr6():
    """SR5 of the pinned game, P4 to act with 512 Gulden: a base policy blind to Stadtbahn
    shares (weight 0) buys DT; play-outs to the end of the game (VIII.5.2: CR6 pays x10) find
    a share of the Stadtbahn W or G, which nobody holds yet, better.  Played on by four rule
    bots from here, buying W ends 108 Gulden further ahead of the best opponent than DT
    (margin +229 against +121)."""
    state = _game()[590]
    p = state.current_players()[0]
    view, legal = state.view(p), state.legal_actions(p)
    assert p == 3 and view.round == "SR5"
    blind = {"stadtbahn_weight": 0.0}
    assert Policy1840(view, legal, **blind).decide()[0] == BuyShare(player=3, company="DT")
    bot = SearchBot1840(GAME, budget=60.0, rounds=10, max_samples=2, **blind)
    bot.see_position(state.clone(), random.Random(2))
    action = bot.choose(view, legal, random.Random(3))
    assert isinstance(action, BuyShare) and action.company in ("W", "G")
    assert "projected margin" in bot.explanation


def test_a_passed_deadline_stops_the_lay_weighing_at_the_first_useful_lay():
    """The search bot's budget: its policy stops weighing lays once the deadline has passed
    (the rule bot has none and weighs them all)."""
    cut = 0
    for _, _, view, legal in _decisions(every=2):
        if view.round_info.type != "LR" or sum(isinstance(a, LayTile) for a in legal) < 5:
            continue
        full, hurried = Rules1840(view, legal), Rules1840(view, legal, deadline=0.0)
        action, _ = full.decide()
        quick, _ = hurried.decide()
        assert quick in legal
        if len(full.scored) > 1 and any(s > 0 for s, _ in full.scored):
            cut += 1
            useful = next(a for s, a in full.scored if s > 0)
            assert quick == useful and len(hurried.scored) <= len(full.scored)
    assert cut >= 5


def test_ix2_the_track_weight_lays_a_first_tile_that_reaches_no_stop_yet():
    """A line whose home reaches no other stop: every lay leaves its run at 0 and reaches no
    stop, so the rule bot runs it for 0 without building (for the whole 2-player game of seed
    3); with the track weight (the search policy's default, the rule bot's option) the bot
    lays the tile that extends its track (IX.2), and its tram can then earn."""
    found = []
    for state in rule_game_positions(2, 3, 1):
        p = state.current_players()[0]
        view, legal = state.view(p), state.legal_actions(p)
        if view.round_info.type != "LR":
            continue
        rule, _ = Rules1840(view, legal).decide()
        assert Rules1840(view, legal, track_weight=0.5).decide() == Policy1840(view, legal).decide()
        policy = Policy1840(view, legal)
        action, why = policy.decide()
        if rule != action:
            found.append((rule, action, why, policy))
    assert found
    rule, action, why, policy = found[0]
    assert GAME.format_action(rule) == "L1 run"
    assert isinstance(action, LayTile) and (action.hex, action.tile) == ("D18", "235")
    assert why == "lay 235 on D18: best run 0 -> 0, its track reaches 2 more hex sides"
    m = policy.m
    after = m.after_lay(action.hex, action.tile, action.rotation)
    assert m.reach_size(1, after, ("t",), "edges") == m.reach_size(1, what="edges") + 2
    assert m.reach_size(1, after, ("t",)) == m.reach_size(1)
