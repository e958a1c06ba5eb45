"""What ``legal_actions`` offers, the rule each refusal names, and what a scoring records: the
gaps the mutation run of ``trambahn/rules.py`` showed (issue 16)."""

from __future__ import annotations

from dataclasses import dataclass

from tests.support import refused
from tests.trambahn.helpers import position
from tramways.core import Action
from tramways.trambahn.actions import EndTurn, Income, Passenger, Station


def _after_passenger(hand: str, **kw):
    st = position(hands=("1y " + hand, ""), money=kw.pop("money", (10, 10)), **kw)
    st.apply(Passenger(0, "1y", "y"))
    return st


def _stations(st) -> set[tuple[str, int | None]]:
    return {(a.card, a.column) for a in st.legal_actions() if isinstance(a, Station)}


# -- Course of Play: who acts ------------------------------------------------------------------


def test_course_of_play_only_the_player_to_move_has_legal_actions():
    st = position(hands=("3r 4r 5b 6g 7y 8y", "3g 4g 5g 6g 7g 8g"), money=(10, 10))
    assert st.legal_actions(1) == []
    assert st.legal_actions(0) == st.legal_actions() != []


def test_course_of_play_a_seat_may_not_play_the_other_players_action():
    st = position(hands=("3r 4r 5b 6g 7y 8y", ""), money=(10, 10))
    refused("Course of Play", st.apply, Passenger(0, "3r", "r"), 1)
    st.apply(Passenger(0, "3r", "r"), 0)


@dataclass(frozen=True, slots=True)
class _Bid(Action):
    amount: int


def test_course_of_play_an_action_of_another_game_is_refused():
    st = position(hands=("3r 4r 5b 6g 7y 8y", ""), money=(10, 10))
    refused("Course of Play", st.apply, _Bid(0, 5))


def test_1_a_passenger_for_a_row_that_does_not_exist_is_refused():
    st = position(hands=("3r C 5b 6g 7y 8y", ""), money=(10, 10))
    refused("1", st.apply, Passenger(0, "C", "x"))


# -- T-R-1: the stations offered ---------------------------------------------------------------


def test_t_r_1_more_stations_are_offered_after_a_station():
    """Step 2 is "any number of stations": after 3r started a column, 4r is offered on it."""
    st = _after_passenger("3r 4r 5b 6g 7y")
    st.apply(Station(0, "3r", None))
    assert st.step == 2
    assert ("4r", 0) in _stations(st)
    assert ("5b", None) in _stations(st)


def test_t_r_1_a_conductor_in_hand_does_not_hide_the_other_cards_stations():
    """The conductor comes first in the hand: the 5b and 6g after it are offered all the same."""
    st = _after_passenger("C 5b 6g", columns=([("2b 3b", "horse")], []))
    assert _stations(st) == {("C", 0), ("5b", 0), ("6g", None)}


def test_t_r_1_a_ten_is_offered_on_a_column_that_ends_lower():
    st = _after_passenger("10r 2g", columns=([("2r 5r", "horse")], []))
    assert ("10r", 0) in _stations(st) and ("10r", None) not in _stations(st)
    st.apply(Station(0, "10r", 0))
    assert st.columns[0][0].top == 10


def test_t_r_1_a_card_equal_to_the_columns_top_is_not_offered_on_it():
    """Columns ascend strictly: a 5r on a column ending with 5r must start a new column."""
    st = _after_passenger("5r 2g", columns=([("2r 5r", "horse")], []))
    assert ("5r", 0) not in _stations(st)
    assert ("5r", None) in _stations(st)


def test_2_a_station_for_a_column_the_player_does_not_have_is_refused():
    """One past the last column (index 1 of a single column) is no column: rule 2, for a
    station card and for a conductor alike; the state is untouched."""
    st = _after_passenger("3r C 6g", columns=([("2r 5r", "horse")], []))
    refused("2", st.apply, Station(0, "9r", 1))
    refused("2", st.apply, Station(0, "C", 1))
    refused("2", st.apply, Station(0, "C", 3))


def test_t_r_1_a_new_column_is_numbered_after_the_players_other_columns():
    st = _after_passenger("3g 4r", columns=([("2r 5r", "horse")], []))
    log = st.apply(Station(0, "3g", None))
    assert log == ["P1 starts column 2 with 3g"]
    assert [c.top for c in st.columns[0]] == [5, 3]


# -- T-R-2 / T-R-3: scorings -------------------------------------------------------------------


def test_t_r_2_a_regular_scoring_adds_to_the_points_already_scored():
    st = position(hands=("9b 2r 3r 4r 5r 6r", ""), money=(10, 10), rows={"b": "1b 2b 3b"},
                  columns=([("1b 2b 5b 6b", "steam")], [("3b 5b 8b 10b", "horse")]), turn=0)
    st.scores[:] = [5, 7]
    st.turn_number = 9
    log = st.apply(Passenger(0, "9b", "b"))
    assert st.scores == [5 + 12, 7 + 14]  # 1-2-5-6: 4 x steam 3 = 12; 3-5-8-10: 7 x horse 2 = 14
    assert st.history[-1].to_json() == {"kind": "regular", "number": 1, "colour": "b", "turn": 9,
                              "columns": [[12], [14]], "points": [12, 14]}
    assert log[-1] == "Scoring 1 (blue): P1 12, P2 14"


def test_scoring_log_shows_the_sum_of_several_columns():
    """The rulebook's example (Scoring): P2's two blue columns 10 + 14."""
    st = position(hands=("9b 2r 3r 4r 5r 6r", ""), money=(10, 10), rows={"b": "1b 2b 3b"},
                  columns=([("1b 2b 5b 6b", "steam")],
                           [("2b 3b 4b 7b", "horse", 1), ("3b 5b 8b 10b", "horse")]))
    log = st.apply(Passenger(0, "9b", "b"))
    assert log[-1] == "Scoring 1 (blue): P1 12, P2 10+14=24"


def test_t_r_3_an_extra_tour_of_the_second_player_counts_for_the_second_player():
    st = position(hands=("", "1y 9r C 4g 9b 9y"), money=(10, 10), turn=1,
                  columns=([], [("1r 2r 3r 4r 5r 6r 7r", "steam")]))
    st.apply(Passenger(1, "1y", "y"))
    st.apply(Station(1, "9r", 0))
    assert st.history[-1].points == (0, 30)
    assert st.scores == [0, 30]
    assert st.result()["extra_tours"] == [0, 30]


# -- T-R-4: the end ----------------------------------------------------------------------------


def test_t_r_4_the_final_line_names_the_winner_or_a_draw():
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(10, 12), rows={"b": "1b 2b 3b"},
                  columns=([("4b 5b", "horse")], [("7b", "steam")]), regular=9)
    log = st.apply(Passenger(0, "9b", "b"))
    assert log[-1] == "Game over (tenth scoring): P1 4, P2 6 - P2 wins"
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(12, 12), rows={"b": "1b 2b 3b"},
                  regular=9)
    log = st.apply(Passenger(0, "9b", "b"))
    assert log[-1] == "Game over (tenth scoring): P1 0, P2 0 - a draw"


def test_course_of_play_income_and_end_of_turn_need_a_passenger_first():
    st = position(hands=("3r 4r 5b 6g 7y 8y", ""), money=(10, 10))
    refused("1", st.apply, Income(0, "3r"))
    refused("1", st.apply, EndTurn(0))
