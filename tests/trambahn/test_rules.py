"""The rules of Trambahn, one test per rule (rulebook step or ruling id)."""

from __future__ import annotations

import copy

from tests.support import refused
from tests.trambahn.helpers import position
from tramways.core import Session, derive_rng
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Station
from tramways.trambahn.cards import (
    CARD_FACE,
    CARD_POINTS,
    CARD_VALUE,
    NUM_CARDS,
    TRAM_STACK,
    VICTORY_POINTS,
)
from tramways.trambahn.game import GAME
from tramways.trambahn.invariants import check_invariants


def faces(ids):
    return sorted(CARD_FACE[c] for c in ids)


# -- components and set-up -------------------------------------------------------------------


def test_components_112_stations_8_conductors():
    assert len(CARD_FACE) == NUM_CARDS == 120
    assert CARD_FACE.count("C") == 8
    for letter in "brgy":
        assert sum(1 for f in CARD_FACE if f.endswith(letter) and f != "C") == 28
        assert CARD_FACE.count(f"1{letter}") == 2
        assert CARD_FACE.count(f"10{letter}") == 2
        assert all(CARD_FACE.count(f"{v}{letter}") == 3 for v in range(2, 10))


def test_t_fact_2_victory_points_table():
    assert VICTORY_POINTS == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 3}
    assert sum(CARD_POINTS) == 4 * (2 * 1 + 3 * 5 * 1 + 3 * 3 * 2 + 2 * 3)


def test_t_fact_1_tram_stack_and_display():
    assert TRAM_STACK.count("horse") == 5
    assert TRAM_STACK.count("steam") == 4
    assert TRAM_STACK.count("electric") == 7
    s = Session.new("trambahn", {}, seed=3)
    assert s.state.display == ["horse", "horse", "horse"]
    assert s.state.stack == ["horse", "horse"] + ["steam"] * 4 + ["electric"] * 7


def test_setup_c_start_player_12_money_second_15_hands_of_6():
    s = Session.new("trambahn", {}, seed=11)
    st = s.state
    assert [len(m) for m in st.money] == [12, 15]
    assert [len(h) for h in st.hands] == [6, 6]
    assert len(st.deck) == 120 - 27 - 12
    assert st.turn == 0 and st.step == 1
    setup = s.record.setup
    assert len(setup["money"][0]) == 12 and len(setup["money"][1]) == 15
    # the top of the draw pile is the first card of setup.draw_pile
    assert CARD_FACE[st.deck[-1]] == setup["draw_pile"][0]
    assert faces(st.hands[0]) == sorted(setup["hands"][0])
    check_invariants(st)


def test_setup_is_a_pure_function_of_the_seed():
    a = GAME.setup(GAME.normalize_settings({}), 5)
    b = GAME.setup(GAME.normalize_settings({}), 5)
    c = GAME.setup(GAME.normalize_settings({}), 6)
    assert a == b and a != c


# -- step 1: passengers ----------------------------------------------------------------------


def test_1_must_play_at_least_one_passenger():
    st = position(hands=("3r 4r 5b 6g 7y C", ""), money=(10, 10))
    assert all(isinstance(a, Passenger) for a in st.legal_actions())
    for action in (EndTurn(0), Income(0, "3r"), Station(0, "3r", None)):
        refused("1", st.apply, action)


def test_1_at_most_two_passengers():
    st = position(hands=("3r 4r 5b 6g 7y C", ""), money=(10, 10))
    st.apply(Passenger(0, "3r", "r"))
    st.apply(Passenger(0, "5b", "b"))
    assert not any(isinstance(a, Passenger) for a in st.legal_actions())
    refused("1", st.apply, Passenger(0, "4r", "r"))
    assert [len(r) for r in st.rows] == [1, 1, 0, 0]


def test_1_station_card_joins_its_colour_row_conductor_any_row():
    st = position(hands=("3r C 5b 6g 7y 8y", ""), money=(10, 10))
    legal = st.legal_actions()
    assert Passenger(0, "3r", "r") in legal
    assert {a.row for a in legal if isinstance(a, Passenger) and a.card == "C"} == set("brgy")
    refused("1", st.apply, Passenger(0, "3r", "b"))
    st.apply(Passenger(0, "C", "g"))
    assert faces(st.rows[2]) == ["C"]


def test_1_passenger_after_another_step_is_illegal():
    st = position(hands=("3r 4r 5b 6g 7y C", ""), money=(10, 10))
    st.apply(Passenger(0, "3r", "r"))
    st.apply(Income(0, "7y"))
    refused("1", st.apply, Passenger(0, "4r", "r"))


# -- scoring ---------------------------------------------------------------------------------


def test_scoring_rulebook_example_12_10_and_14():
    """Scoring: blue A 1-2-5-6 steam = 12; B C-2-3-4-7 horse = 10 and 3-5-8-10 horse = 14."""
    st = position(
        hands=("9b 2r 3r 4r 5r 6r", ""),
        money=(10, 10),
        rows={"b": "1b 2b 3b"},
        columns=(
            [("1b 2b 5b 6b", "steam")],
            [("2b 3b 4b 7b", "horse", 1), ("3b 5b 8b 10b", "horse")],
        ),
    )
    log = st.apply(Passenger(0, "9b", "b"))
    assert st.history[-1].columns == ((12,), (10, 14))
    assert st.history[-1].points == (12, 24)
    assert st.scores == [12, 24]
    assert st.regular == 1
    assert st.rows[0] == []
    assert len(st.discard) == 4
    assert "P2 10+14=24" in log[-1]
    # columns stay on the table (Scoring: "Do not discard your columns!")
    assert [len(c) for c in st.columns] == [1, 2]
    check_invariants(st)


def test_scoring_only_the_rows_colour_and_tramless_columns_score_zero():
    st = position(
        hands=("9r 2r 3r 4r 5r 6r", ""),
        money=(10, 10),
        rows={"r": "1r 2r 3r"},
        columns=([("7r 8r", None), ("7b 8b", "electric")], [("7r 9r 10r", "electric")]),
    )
    st.apply(Passenger(0, "9r", "r"))
    assert st.history[-1].columns == ((0,), (28,))
    assert st.scores == [0, 28]


def test_t_r_2_second_passenger_after_a_scoring_starts_an_empty_row():
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(10, 10), rows={"b": "1b 2b 3b"},
                  columns=([("4b 5b", "horse")], []))
    st.apply(Passenger(0, "9b", "b"))
    assert st.scores == [4, 0] and st.rows[0] == []
    st.apply(Passenger(0, "8b", "b"))
    assert faces(st.rows[0]) == ["8b"]
    assert st.regular == 1
    check_invariants(st)


def test_t_r_2_scoring_counts_toward_ten_without_columns():
    st = position(hands=("C 8b 3r 4r 5r 6r", ""), money=(10, 10), rows={"g": "1g 2g 3g"})
    st.apply(Passenger(0, "C", "g"))
    assert st.regular == 1 and st.scores == [0, 0]
    assert st.history[-1].points == (0, 0)


def test_t_r_2_two_passengers_can_trigger_two_scorings():
    st = position(hands=("9b 9g 3r 4r 5r 6r", ""), money=(10, 10),
                  rows={"b": "1b 2b 3b", "g": "1g 2g 3g"})
    st.apply(Passenger(0, "9b", "b"))
    st.apply(Passenger(0, "9g", "g"))
    assert st.regular == 2
    assert [h.colour for h in st.history] == ["b", "g"]


# -- step 2: stations ------------------------------------------------------------------------


def _after_passenger(hand: str, **kw):
    st = position(hands=("1y " + hand, ""), money=kw.pop("money", (10, 10)), **kw)
    st.apply(Passenger(0, "1y", "y"))
    return st


def test_t_r_1_columns_strictly_ascending():
    st = _after_passenger("5r 3r 5r 9g 9y", columns=([("2r 5r", "horse")], []))
    assert Station(0, "3r", 0) not in st.legal_actions()
    refused("T-R-1", st.apply, Station(0, "5r", 0))
    # 3r cannot extend 2-5, so it starts a new column; skipping values is allowed
    st.apply(Station(0, "3r", None))
    assert [CARD_VALUE[c] for c in st.columns[0][1].stations] == [3]
    st.apply(Station(0, "5r", 1))
    assert [CARD_VALUE[c] for c in st.columns[0][1].stations] == [3, 5]


def test_t_r_1_new_column_only_if_no_column_can_take_the_card():
    st = _after_passenger("6r 3r 4r 9g 9y", columns=([("2r 5r", "horse")], []))
    assert Station(0, "6r", None) not in st.legal_actions()
    refused("T-R-1", st.apply, Station(0, "6r", None))
    assert Station(0, "6r", 0) in st.legal_actions()


def test_t_r_1_player_picks_the_column_when_several_fit():
    st = _after_passenger("6r 3r 4r 9g 9y",
                          columns=([("2r 5r", "horse"), ("1r 3r", "steam")], []))
    assert {a.column for a in st.legal_actions() if isinstance(a, Station) and a.card == "6r"} \
        == {0, 1}
    st.apply(Station(0, "6r", 1))
    assert [CARD_VALUE[c] for c in st.columns[0][1].stations] == [1, 3, 6]


def test_t_r_1_nothing_after_a_ten_not_even_a_conductor():
    st = _after_passenger("C 3r 4r 9g 9y",
                          columns=([("2r 10r", "horse"), ("2g 3g", "horse")], []))
    assert {a.column for a in st.legal_actions() if isinstance(a, Station) and a.card == "C"} \
        == {1}
    refused("T-R-1", st.apply, Station(0, "C", 0))


def test_t_r_1_conductors_never_start_a_column():
    st = _after_passenger("C 3r 4r 9g 9y")
    assert not any(isinstance(a, Station) and a.card == "C" for a in st.legal_actions())
    refused("T-R-1", st.apply, Station(0, "C", None))


def test_2_station_of_other_colour_cannot_join_column():
    st = _after_passenger("9g 3r 4r 9b 9y", columns=([("2r 5r", "horse")], []))
    refused("2", st.apply, Station(0, "9g", 0))


def test_t_r_3_extra_tour_on_the_eighth_card():
    st = _after_passenger("9r C 4g 9b 9y", columns=([("1r 2r 3r 4r 5r 6r", "steam")], []))
    log = st.apply(Station(0, "C", 0))
    assert st.scores == [0, 0]  # 7 cards: nothing yet
    log = st.apply(Station(0, "9r", 0))
    # 1..6 are 1 point each, 9 is 2: 8 points x steam 3 = 24
    assert st.scores == [24, 0]
    assert st.history[-1].to_json() == {"kind": "extra", "player": 0, "colour": "r", "turn": 1,
                              "column": 0, "points": [24, 0]}
    assert st.columns[0][0].toured
    assert "Extra Tour" in log[-1]
    assert st.regular == 0  # an Extra Tour is no regular scoring (Game End)
    check_invariants(st)


def test_t_r_3_ninth_card_does_not_score_again():
    st = _after_passenger("9r C 4g 9b 9y",
                          columns=([("1r 2r 3r 4r 5r 6r", "steam", 1)], []))
    st.apply(Station(0, "C", 0))
    assert st.scores == [18, 0]
    st.apply(Station(0, "9r", 0))
    assert st.columns[0][0].size == 9
    assert st.scores == [18, 0]
    assert sum(1 for h in st.history if h.kind == "extra") == 1


def test_t_r_3_extra_tour_without_tram_scores_zero_and_is_used_up():
    st = _after_passenger("8r 9y 4g 9b 9g", columns=([("1r 2r 3r 4r 5r 6r 7r", None)], []))
    log = st.apply(Station(0, "8r", 0))
    assert st.columns[0][0].toured and st.scores == [0, 0]
    assert st.history[-1].points == (0, 0)
    assert log[-1] == "Extra Tour: P1 column 1 scores 10 x 0 = 0"
    # buying a tram afterwards does not give the Extra Tour back
    st.apply(Buy(0, "horse", 0))
    assert st.columns[0][0].toured and st.scores == [0, 0]


# -- step 3: income --------------------------------------------------------------------------


def test_3_income_puts_hand_cards_on_the_money_pile():
    st = _after_passenger("9r 3r 4g 9b 9y")
    card = next(c for c in st.hands[0] if CARD_FACE[c] == "4g")
    st.apply(Income(0, "4g"))
    assert st.money[0][-1] == card and len(st.money[0]) == 11
    # steps go in order: no stations after income
    refused("Course of Play", st.apply, Station(0, "9r", None))
    assert not any(isinstance(a, Station) for a in st.legal_actions())


# -- step 4: trams ---------------------------------------------------------------------------


def test_4_buy_pays_from_money_to_discard_and_assigns_at_once():
    st = _after_passenger("9r 3r 4g 9b 9y", money=(12, 10), display=["horse", "steam", "horse"],
                          stack=["horse"] * 3 + ["steam"] * 3 + ["electric"] * 7)
    st.apply(Station(0, "3r", None))
    st.apply(Buy(0, "steam", 0))
    assert len(st.money[0]) == 2 and len(st.discard) == 10
    assert st.columns[0][0].tram == "steam"
    assert st.display == ["horse", "horse"]  # not refilled before the end of the turn (T-R-6)
    refused("4", st.apply, Buy(0, "horse", 0))  # already has a tram
    check_invariants(st)


def test_4_cannot_buy_without_money_or_column():
    st = _after_passenger("9r 3r 4g 9b 9y", money=(4, 10))
    assert not any(isinstance(a, Buy) for a in st.legal_actions())
    refused("4", st.apply, Buy(0, "horse", 0))
    st.money[0].extend(st.deck[:10])
    del st.deck[:10]
    refused("4", st.apply, Buy(0, "horse", 0))  # no column to assign it to
    st.apply(Station(0, "3r", None))
    assert Buy(0, "horse", 0) in st.legal_actions()


def test_4_hand_cards_cannot_pay():
    st = _after_passenger("9r 3r 4g 9b 9y", money=(3, 10))
    st.apply(Station(0, "3r", None))
    assert not any(isinstance(a, Buy) for a in st.legal_actions())


# -- step 5: end of turn ---------------------------------------------------------------------


def test_t_r_6_tramless_columns_go_to_money_with_conductors():
    st = _after_passenger("9r 3g 4g 9b C", money=(5, 10), columns=([("2r 5r", "horse")], []))
    st.apply(Station(0, "3g", None))
    st.apply(Station(0, "C", 1))
    st.apply(Station(0, "9r", 0))
    st.apply(EndTurn(0))
    assert len(st.columns[0]) == 1 and st.columns[0][0].top == 9
    assert len(st.money[0]) == 7
    assert sorted(CARD_FACE[c] for c in st.money[0][-2:]) == ["3g", "C"]
    check_invariants(st)


def test_5_draw_up_to_six_and_pass_the_turn():
    st = _after_passenger("9r 3g 4g 9b C")
    st.apply(Income(0, "9r"))
    deck = len(st.deck)
    st.apply(EndTurn(0))
    assert len(st.hands[0]) == 6 and len(st.deck) == deck - 2
    assert st.turn == 1 and st.step == 1 and st.passengers == 0 and st.turn_number == 2


def test_t_r_6_display_refilled_at_end_of_turn_and_shrinks_when_stack_empty():
    st = _after_passenger("9r 3r 3g 9b 9y", money=(20, 10), display=["horse", "steam", "horse"],
                          stack=["electric"])
    st.apply(Station(0, "3r", None))
    st.apply(Station(0, "3g", None))
    st.apply(Buy(0, "horse", 0))
    st.apply(Buy(0, "horse", 1))
    assert st.display == ["steam"]
    st.apply(EndTurn(0))
    assert st.display == ["steam", "electric"] and st.stack == []


def test_t_r_5_reshuffle_halves_money_at_random_and_reshuffles_discard():
    st = _after_passenger("9r 3r 3g 9b 9y", money=(9, 4), deck=2)
    st.apply(Income(0, "9r"))
    st.apply(Income(0, "3r"))
    # P1: 11 money, P2: 4; 3 cards to draw but only 2 in the pile
    discard_before = list(st.discard)
    money_before = [list(m) for m in st.money]
    deck_before = list(st.deck)
    log = st.apply(EndTurn(0))
    assert st.reshuffles == 1
    assert [len(m) for m in st.money] == [11 - 5, 4 - 2]
    # replay the random outcome from derive_rng(seed, "reshuffle", 1)
    rng = derive_rng(st.seed, "reshuffle", 1)
    expected_discard = list(discard_before)
    kept = []
    for m in money_before:
        chosen = set(rng.sample(range(len(m)), len(m) // 2))
        expected_discard += [c for i, c in enumerate(m) if i in chosen]
        kept.append([c for i, c in enumerate(m) if i not in chosen])
    rng.shuffle(expected_discard)
    assert st.money == kept
    drawn_after = st.hands[0][-1]
    assert expected_discard[-1] == drawn_after and st.deck == expected_discard[:-1]
    assert set(deck_before) <= set(st.hands[0])
    assert st.discard == []
    assert any("Reshuffle 1" in line for line in log)
    check_invariants(st)


def test_t_r_5_both_piles_empty_ends_the_game_as_it_stands():
    st = _after_passenger("9r 3r 3g 9b 9y", money=(0, 0), deck=1,
                          columns=([("2r 5r", "horse")], [("4g 6g", "steam")]))
    st.discard.clear()  # an artificial table: the other cards are out of play
    st.apply(Income(0, "9r"))
    st.apply(Income(0, "3r"))
    # draw 1: the pile is empty -> P1 discards 1 of 2 money cards -> a new pile of 1;
    # draw it: empty again -> P1 discards 0 of 1, P2 0 of 0 -> both piles empty: game over
    log = st.apply(EndTurn(0))
    assert st.over and st.end_reason == "cards exhausted"
    assert st.reshuffles == 2 and len(st.hands[0]) == 5 and len(st.money[0]) == 1
    assert st.result()["winner"] == 0  # 0:0, money 1:0
    assert log[-1].startswith("Game over (cards exhausted)")


def test_t_r_5_reshuffle_is_reproduced_by_replay():
    s = Session.new("trambahn", {}, seed=99)
    import random

    rng = random.Random(0)
    while s.state.reshuffles == 0 and not s.state.is_over():
        s.play(rng.choice(s.state.legal_actions()))
    again = Session.from_record(s.record)
    assert again.state == s.state


# -- game end --------------------------------------------------------------------------------


def test_t_r_4_game_ends_at_tenth_scoring_in_the_middle_of_a_turn():
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(10, 12), rows={"b": "1b 2b 3b"},
                  columns=([("4b 5b", "horse")], [("7b", "steam")]), regular=9)
    log = st.apply(Passenger(0, "9b", "b"))
    assert st.is_over() and st.current_players() == [] and st.legal_actions() == []
    assert st.scores == [4, 6]
    res = st.result()
    assert res["winner"] == 1 and res["regular_scorings"] == 10 and res["reason"] == "tenth scoring"
    assert log[-1].startswith("Game over")
    refused("Game End", st.apply, Passenger(0, "8b", "b"))


def test_t_r_4_tie_broken_by_the_larger_money_pile():
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(10, 12), rows={"b": "1b 2b 3b"},
                  columns=([("4b 5b", "horse")], [("4b 5b", "horse")]), regular=9)
    st.apply(Passenger(0, "9b", "b"))
    assert st.scores == [4, 4]
    assert st.result()["winner"] == 1
    st2 = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(13, 12), rows={"b": "1b 2b 3b"},
                   columns=([("4b 5b", "horse")], [("4b 5b", "horse")]), regular=9)
    st2.apply(Passenger(0, "9b", "b"))
    assert st2.result()["winner"] == 0


def test_t_r_4_still_tied_is_a_draw():
    st = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(12, 12), rows={"b": "1b 2b 3b"},
                  regular=9)
    st.apply(Passenger(0, "9b", "b"))
    assert st.result()["winner"] is None


def test_t_r_4_the_outcome_places_the_winner_first_and_a_draw_shares_the_first_place():
    """The core's Outcome: scores are the points; places and winners follow T-R-4's winner
    (the money pile breaks a tie of points)."""
    won = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(10, 12), rows={"b": "1b 2b 3b"},
                   columns=([("4b 5b", "horse")], [("4b 5b", "horse")]), regular=9)
    won.apply(Passenger(0, "9b", "b"))
    outcome = won.outcome()
    assert outcome.scores == (4, 4) and outcome.money == (10, 12)
    assert outcome.places == (2, 1) and outcome.winners == (1,)
    assert outcome.to_json() == won.result()
    drawn = position(hands=("9b 8b 3r 4r 5r 6r", ""), money=(12, 12), rows={"b": "1b 2b 3b"},
                     regular=9)
    drawn.apply(Passenger(0, "9b", "b"))
    assert drawn.outcome().places == (1, 1) and drawn.outcome().winners == (0, 1)


# -- refusals --------------------------------------------------------------------------------


def test_illegal_actions_leave_the_state_exactly_as_it_was():
    st = _after_passenger("9r 3r 3g 9b 9y", money=(3, 10), columns=([("2r 5r", "horse")], []))
    before = copy.deepcopy(st)
    bad = [
        (Passenger(1, "9r", "r"), "Course of Play"),
        (Station(0, "9r", 5), "2"),
        (Station(0, "3r", 0), "T-R-1"),
        (Station(0, "10g", None), "Course of Play"),
        (Income(0, "1b"), "Course of Play"),
        (Buy(0, "horse", 0), "4"),
        (Buy(0, "electric", 0), "4"),
    ]
    for action, rule in bad:
        refused(rule, st.apply, action)
        assert st == before
