"""The new search's policy (issue 13): :mod:`tramways.bots.trambahn_policy`, beside the frozen
rule of thumb of the ``rule`` bot and the legacy search."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tramways.bots.trambahn_policy import RULE_CONSTANTS, Planner, plan_action, ranked_plan, variant
from tramways.bots.trambahn_rule import rule_action
from tramways.core import Session
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import IDS_BY_FACE
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.position import Column


def _position(hand: list[str], columns: list[tuple[list[str], str | None]],
              money: int = 0) -> TrambahnState:
    """P1 to move after one passenger, holding ``hand``, with ``columns`` (faces, tram)."""
    state = Session.new("trambahn", {}, seed=5).state
    pool = {f: list(ids) for f, ids in IDS_BY_FACE.items()}
    state.hands = [[pool[f].pop() for f in hand], []]
    state.columns = [[], []]
    for faces, tram in columns:
        cards = [pool[f].pop() for f in faces]
        col = Column(next(i for i, c in enumerate("brgy") if faces[0][-1] == c), [])
        for c in cards:
            col.add(c)
        col.tram = tram
        state.columns[0].append(col)
    state.money = [list(range(money)), []]  # only the pile's size matters to the policies
    state.passengers, state.step = 1, 1
    return state


def test_t_r_1_the_planner_extends_a_tram_column_over_a_gap_of_three_or_four_values():
    # column 2g with a steam tram; a 6g skips 3, 4 and 5: the rule banks it, the planner builds
    state = _position(["6g", "1b"], [(["2g"], "steam")])
    assert rule_action(state) != Station(0, "6g", 0)
    assert plan_action(state) == Station(0, "6g", 0)
    state = _position(["7g", "1b"], [(["2g"], "steam")])  # a gap of 4 values
    assert plan_action(state) == Station(0, "7g", 0)


def test_t_r_1_the_planner_still_skips_a_gap_of_five_values_early():
    state = _position(["7g", "2b"], [(["1g"], "steam")])
    assert Station(0, "7g", 0) not in ranked_plan(state)[:1]


def test_the_planner_plays_the_rules_passengers_step_1():
    state = _position(["6g", "1b", "4r"], [(["2g"], "steam")])
    state.passengers = 0
    assert isinstance(plan_action(state), Passenger)
    assert plan_action(state) == rule_action(state)


def test_step_2_the_planner_starts_a_two_card_column_with_high_cards_when_a_tram_is_affordable():
    # 7y and 9y, no yellow column, 12 money and horses on display: the rule keeps new columns
    # for low cards; the planner starts 7y (then 9y joins it) and buys a tram for it (T-R-6)
    state = _position(["7y", "9y", "6r"], [(["2g"], "steam")], money=12)
    assert state.display[0] == "horse"
    assert rule_action(state) != Station(0, "7y", None)
    assert plan_action(state) == Station(0, "7y", None)
    state.apply(Station(0, "7y", None))
    assert plan_action(state) == Station(0, "9y", 1)


def test_step_2_the_planner_starts_no_column_it_cannot_buy_a_tram_for():
    state = _position(["7y", "9y", "6r"], [(["2g"], "steam")], money=4)
    assert Station(0, "7y", None) != plan_action(state)
    assert Station(0, "7y", None) not in ranked_plan(state)[:3]


def test_step_2_the_planner_starts_a_fifth_and_sixth_column_where_the_rule_stops_at_five():
    columns = [([f"{v}g"], "horse") for v in (1, 2, 3, 4, 5)]
    state = _position(["2y", "5y", "1b"], columns, money=10)
    assert rule_action(state) != Station(0, "2y", None)
    assert plan_action(state) == Station(0, "2y", None)


# -- the tuned constants (benchmarks/tune_trambahn_planner.py) ---------------------------------


def test_step_2_the_planner_still_starts_a_two_card_column_with_two_scorings_left():
    # new_column_remaining = 1: the rule stops starting columns when fewer than 3 remain
    state = _position(["2y", "5y", "9r"], [(["2g"], "steam")], money=10)
    state.regular = 8
    assert Planner.new_column_remaining == 1
    assert plan_action(state) == Station(0, "2y", None)
    assert rule_action(state) != Station(0, "2y", None)


def test_step_3_the_planner_banks_a_spare_card_while_its_money_pile_is_below_twelve():
    # two scorings left: a 9g after 2g-3g (steam) is worth 2 x 3 x (0.5 + 0.5) x 0.2 = 1.2
    # kept; the rule keeps it (above 0.9, and its pile of 7 is not below 5), the planner banks
    # it (below 2.5, or below 3 while the pile is below 12)
    state = _position(["9g"], [(["2g", "3g"], "steam")], money=7)
    state.regular, state.step = 8, 3
    assert rule_action(state) == EndTurn(0)
    assert plan_action(state) == Income(0, "9g")
    assert plan_action(state, None, variant(RULE_CONSTANTS)) == EndTurn(0)



def test_variant_changes_only_the_named_constants_and_refuses_unknown_names():
    rule_like = variant(RULE_CONSTANTS)
    assert rule_like.income_money == 5 and Planner.income_money == 12
    assert rule_like.extend_gap == Planner.extend_gap == 4
    with pytest.raises(ValueError, match="no attribute income_monney"):
        variant({"income_monney": 3})


def test_the_tuning_benchmark_measures_its_start_on_fixed_deals():
    """benchmarks/tune_trambahn_planner.py still runs (figures printed, never asserted
    beyond their range); the same deals give the same figure."""
    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "tune_trambahn_planner.py"
    outs = [json.loads(subprocess.run(
        [sys.executable, str(bench), "--deals", "3", "--rounds", "0", "--jobs", "1",
         "--start", start], capture_output=True, text=True, timeout=300, check=True).stdout)
        for start in ("rule", "{}", "{}")]
    assert outs[0]["changes"] == RULE_CONSTANTS
    assert outs[1]["start_win_rate"] == outs[2]["start_win_rate"]
    assert all(0.0 <= o["start_win_rate"] <= 1.0 and o["variants"] == 0 for o in outs)


# -- the end of the game (T-R-4) ---------------------------------------------------------------


def _last_scoring(lead: int) -> TrambahnState:
    """Nine scorings done, P1 to place its first passenger, the red row at 3; P1's red column
    scores 12 (x3), the other player's none; P1 leads by ``lead`` before the scoring."""
    state = _position(["4r", "1b", "9g"], [(["2r", "5r", "8r"], "steam")])
    pool = [c for c in IDS_BY_FACE["1r"] + IDS_BY_FACE["3r"] + IDS_BY_FACE["6r"]
            if c not in state.hands[0]][:3]
    state.rows = [[], pool, [], []]
    state.passengers, state.regular = 0, 9
    state.scores = [50 + lead, 50]
    return state


def test_t_r_4_the_planner_places_the_tenth_scoring_when_it_wins_by_it():
    state = _last_scoring(lead=-5)  # 45 + 12 against 50: ahead after the scoring
    assert plan_action(state) == Passenger(0, "4r", "r")


def test_t_r_4_the_planner_does_not_end_the_game_behind():
    state = _last_scoring(lead=-20)  # 30 + 12 against 50: still behind
    assert plan_action(state) != Passenger(0, "4r", "r")
    assert variant({"endgame": 0.0})  # the rule's view is still available


# -- the search's building plan (bots/trambahn_builder.py) --------------------------------------


def test_step_2_and_4_the_building_plan_lays_a_station_and_buys_its_tram_in_one_plan():
    from tramways.bots.search import evaluate
    from tramways.bots.trambahn_builder import build_turn

    state = _position(["2y", "5y", "9r"], [(["2g", "4g"], "steam")], money=10)
    assert state.display[0] == "horse"
    plan = build_turn(state, evaluate)
    yellow = 1 + sum(1 for a in plan[: plan.index(Station(0, "2y", None))]
                     if isinstance(a, Station) and a.column is None)
    assert Station(0, "5y", yellow) in plan
    assert any(isinstance(a, Buy) and a.column == yellow for a in plan)
    assert plan[-1] == EndTurn(0)
    for a in plan:  # the plan is legal action by action
        assert a in state.legal_actions()
        state.apply(a)


def test_the_search_follows_its_building_plan_to_the_end_of_the_turn():
    """After its passengers, every decision of the search's turn comes from one plan."""
    import random

    from tramways.bots import make_bot
    from tramways.trambahn.game import GAME

    state = Session.new("trambahn", {}, seed=7).state
    bot = make_bot("search", GAME, determinizations=2, seconds=60, flat=True,
                   searched=("passenger", "build"),
                   whole_turn=False)
    rng = random.Random(3)
    ends = []
    while not state.is_over() and state.turn_number < 30:
        if state.turn == 1:
            state.apply(rule_action(state))
            continue
        action = bot.choose(state.view(0), state.legal_actions(), rng)
        if isinstance(action, EndTurn):
            ends.append(bot.explanation)
        state.apply(action)
    assert len(ends) >= 10
    assert all("building plan" in e or e == "only action" for e in ends)
    assert sum("building plan" in e for e in ends) >= 3
