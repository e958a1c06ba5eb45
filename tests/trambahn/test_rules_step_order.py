"""Trambahn's steps in order (Course of Play, steps 1-4), Extra Tour points (T-R-3) and the
result's fields: the gaps mutation testing showed (issue 16)."""

from __future__ import annotations

from tests.support import refused
from tests.trambahn.helpers import position
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station


def _after_passenger(hand: str, **kw):
    st = position(hands=("1y " + hand, ""), money=kw.pop("money", (10, 10)), **kw)
    st.apply(Passenger(0, "1y", "y"))
    return st


def test_1_passenger_after_a_station_is_refused():
    st = _after_passenger("3r 4r 5b 6g 7y")
    st.apply(Station(0, "3r", None))
    assert not any(isinstance(a, Passenger) for a in st.legal_actions())
    refused("1", st.apply, Passenger(0, "4r", "r"))


def test_course_of_play_income_after_buying_a_tram_is_refused():
    st = _after_passenger("3r 4r 5b 6g 7y", money=(10, 10))
    st.apply(Station(0, "3r", None))
    assert Income(0, "4r") in st.legal_actions()
    st.apply(Buy(0, "horse", 0))
    assert not any(isinstance(a, (Income, Station)) for a in st.legal_actions())
    refused("Course of Play", st.apply, Income(0, "4r"))
    refused("Course of Play", st.apply, Station(0, "4r", 0))


def test_course_of_play_no_station_round_after_income_but_more_income_cards():
    st = _after_passenger("3r 4r 5b 6g 7y")
    st.apply(Station(0, "3r", None))
    st.apply(Station(0, "4r", 0))  # any number of stations in step 2
    st.apply(Income(0, "5b"))
    legal = st.legal_actions()
    assert not any(isinstance(a, Station) for a in legal)
    assert {a.card for a in legal if isinstance(a, Income)} == {"6g", "7y"}
    refused("Course of Play", st.apply, Station(0, "6g", None))
    st.apply(Income(0, "6g"))
    assert len(st.money[0]) == 12


def test_4_a_tram_costing_exactly_the_money_pile_may_be_bought():
    st = _after_passenger("3r 4r 5b 6g 7y", money=(5, 10))  # a horse tram costs 5
    st.apply(Station(0, "3r", None))
    assert Buy(0, "horse", 0) in st.legal_actions()
    st.apply(Buy(0, "horse", 0))
    assert st.money[0] == [] and st.columns[0][0].tram == "horse"


def test_4_one_card_short_of_the_price_is_refused():
    st = _after_passenger("3r 4r 5b 6g 7y", money=(4, 10))
    st.apply(Station(0, "3r", None))
    assert not any(isinstance(a, Buy) for a in st.legal_actions())
    refused("4", st.apply, Buy(0, "horse", 0))


def test_4_a_column_that_already_has_a_tram_gets_no_second_one():
    st = _after_passenger("3r 4r 5b 6g 7y", money=(15, 10),
                          columns=([("2g 5g", "horse")], []))
    st.apply(Station(0, "3r", None))
    assert {a.column for a in st.legal_actions() if isinstance(a, Buy)} == {1}
    refused("4", st.apply, Buy(0, "horse", 0))
    refused("4", st.apply, Buy(0, "horse", 2))  # no column 3
    refused("4", st.apply, Buy(0, "electric", 1))  # not on display
    st.apply(Buy(0, "horse", 1))
    assert [c.tram for c in st.columns[0]] == ["horse", "horse"]


def test_t_r_3_extra_tour_points_are_added_to_the_score():
    st = _after_passenger("9r C 4g 9b 9y", columns=([("1r 2r 3r 4r 5r 6r 7r", "steam")], []))
    st.scores[0] = 7  # points scored before
    st.apply(Station(0, "9r", 0))
    # 1..6 one point each, 7 and 9 two each: 10 points x steam 3 = 30, added to 7
    assert st.scores == [37, 0]


def test_t_r_3_result_splits_regular_and_extra_tour_points_and_counts_money():
    st = _after_passenger("9r C 4g 9b 9y", money=(11, 13),
                          columns=([("1r 2r 3r 4r 5r 6r 7r", "steam")], []))
    st.scores[0] = 7
    st.apply(Station(0, "9r", 0))
    res = st.result()
    assert res["scores"] == [37, 0]
    assert res["extra_tours"] == [30, 0]
    assert res["regular"] == [7, 0]
    assert res["money"] == [11, 13]
    assert res["winner"] is None  # the game goes on: no winner yet (Game End)
    assert res["reason"] == ""
    st.apply(EndTurn(0))
    assert st.result()["winner"] is None
