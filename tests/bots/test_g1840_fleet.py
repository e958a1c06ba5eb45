"""The ``normal`` bot's view of its tram fleet (Table 7, VIII.5.3; bots/g1840_fleet.py): the
newest colour it expects, what an upgrade forces, and its plan for the last tram-buying round.
The positions are those of a real 2-player game of ``normal`` bots (seed 4)."""

from __future__ import annotations

import random

import pytest

from tramways.bots import make_bot
from tramways.bots.g1840_fleet import (
    last_round_plan,
    newest_path,
    rank,
    runs_with,
    tram_need,
)
from tramways.bots.g1840_model import ViewModel
from tramways.core import Session, derive_rng
from tramways.core.actions import moves
from tramways.g1840.game import GAME


def _position_at(round_name: str, seed: int = 4) -> Session:
    session = Session.new("1840", {"players": 2}, seed)
    bots = [make_bot("normal", GAME) for _ in range(2)]
    rngs = [derive_rng(seed, "bot", i) for i in range(2)]
    while session.state.view(None).round != round_name:
        seat = session.state.current_players()[0]
        legal = moves(session.state.legal_actions(seat))
        session.play(bots[seat].choose(session.state.view(seat), legal, rngs[seat]), seat=seat)
    return session


@pytest.fixture(scope="module")
def cr5() -> Session:
    return _position_at("CR5")


def test_table7_the_newest_colour_expected_turns_purple_in_the_last_line_rounds(cr5):
    model = ViewModel(cr5.state.view(None), me=0)
    assert newest_path(model) == ["purple"] * 3  # LR5a-c
    now = model.view.trams.newest
    assert newest_path(model, expected={}) == [now] * 3
    assert newest_path(model, bought="pink", expected={}) == [max(
        now, "pink", key=rank)] * 3


def test_table7_a_purple_tram_earns_200_more_a_run_than_a_pink_one(cr5):
    model = ViewModel(cr5.state.view(None), me=0)
    company = next(iter(model.view.companies.values()))
    line = company.lines[0]
    purple = runs_with(model, line, "purple", ["purple"] * 3)
    pink = runs_with(model, line, "pink", ["purple"] * 3)
    assert purple - pink == 600 and pink >= 0


@pytest.mark.parametrize("cash", [0, 300, 700, 5000])
def test_viii53_the_last_round_plan_spends_at_most_the_cash_it_is_given(cr5, cash):
    model = ViewModel(cr5.state.view(None), me=0)
    for cid, company in model.view.companies.items():
        plan = last_round_plan(model, cid, cash, free=cash)
        assert plan is not None
        assert plan.cost <= cash and len(plan.colours) == min(3, len(company.lines))
        assert plan.cost == sum(model.tram_price(c) for c in plan.buys)
        if cash < 400:  # pink, the cheapest tram of CR5, costs 400
            assert not plan.buys


def test_xi_the_last_round_plan_buys_purple_when_treasury_money_would_be_lost(cr5):
    """Treasury money left after the game is worth nothing (XI): with enough of it, every
    line worth a run gets a tram, and purple (+200 a run) goes to the lines first."""
    model = ViewModel(cr5.state.view(None), me=0)
    for cid in model.view.companies:
        plan = last_round_plan(model, cid, 5000, free=5000)
        assert plan is not None
        assert "purple" in plan.buys
        assert all(c is not None for c in plan.colours)


def test_viii53_a_company_needs_a_tram_for_each_line_without_one(cr5):
    model = ViewModel(cr5.state.view(None), me=0)
    for cid, company in model.view.companies.items():
        missing = sum(1 for i in range(min(3, len(company.lines)))
                      if i >= len(company.trams) or company.trams[i] is None)
        assert tram_need(model, cid) >= missing * 400
        assert tram_need(model, cid, expected=True) >= 0


def test_viii53_normal_bots_keep_the_trams_of_the_last_round_plan():
    """In CR5 a ``normal`` company acts towards its plan: scrap what the plan replaces, buy
    what it adds (the explanation names the plan)."""
    session = _position_at("CR5")
    bots = [make_bot("normal", GAME) for _ in range(2)]
    rng = random.Random(5)
    reasons = []
    while session.state.view(None).round == "CR5":
        seat = session.state.current_players()[0]
        legal = moves(session.state.legal_actions(seat))
        action = bots[seat].choose(session.state.view(seat), legal, rng)
        reasons.append(bots[seat].explanation)
        session.play(action, seat=seat)
    assert any("the last trams" in r for r in reasons), reasons


def test_strong_plays_normals_moves_until_cr5_then_searches_to_the_end():
    """``strong`` is ``normal`` until the last tram-buying round (its own deck reshuffles
    draw nothing from the seat's generator); from CR5 on it weighs play-outs to the end."""
    from tramways.bots.match import give_position

    seed = 4
    session = Session.new("1840", {"players": 2}, seed)
    strong, normal = make_bot("strong", GAME, budget=60.0, max_samples=2), make_bot("normal", GAME)
    other = make_bot("normal", GAME)
    rngs = [derive_rng(seed, "bot", i) for i in range(2)]
    twin = derive_rng(seed, "bot", 0)
    searched = 0
    while session.state.view(None).round != "SR5":
        seat = session.state.current_players()[0]
        legal = moves(session.state.legal_actions(seat))
        view = session.state.view(seat)
        if seat == 1:
            session.play(other.choose(view, legal, rngs[1]), seat=1)
            continue
        give_position(strong, session.state, rngs[0])
        before_cr5 = view.round not in ("CR5",)
        played = strong.choose(view, legal, rngs[0])
        if before_cr5:
            assert played == normal.choose(view, legal, twin)
        searched += "samples" in strong.explanation
        session.play(played, seat=0)
    assert searched >= 1
