"""The new search's policy (issue 13): :mod:`tramways.bots.trambahn_policy`, beside the frozen
rule of thumb of the ``rule`` bot and the legacy search."""

from __future__ import annotations

from tramways.bots.trambahn_policy import plan_action, ranked_plan
from tramways.bots.trambahn_rule import rule_action
from tramways.core import Session
from tramways.trambahn.actions import Passenger, Station
from tramways.trambahn.cards import IDS_BY_FACE
from tramways.trambahn.state import Column, TrambahnState


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
    state.money = [[pool["C"].pop() for _ in range(money)], []]
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
