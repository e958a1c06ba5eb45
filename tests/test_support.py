"""The tests' own helper :func:`tests.support.refused` catches what it promises to catch: a
call that is not refused, a refusal naming another rule, and a refusal that changed the
position (in a Trambahn hand, or in an 1840 round's progress)."""

from __future__ import annotations

import pytest

from tests.g1840.test_game_support import play, two_player_after_sr1
from tests.support import refused, snapshot
from tests.trambahn.helpers import position
from tramways.core.errors import IllegalAction
from tramways.trambahn.actions import Passenger


def test_a_refusal_naming_its_rule_passes_and_is_returned():
    st = position(hands=("3r 4r", ""))
    err = refused("1", st.apply, Passenger(0, "3r", "x"))
    assert err.rule == "1" and "no row" in err.message


def test_a_call_that_is_not_refused_fails():
    st = position(hands=("3r 4r", ""))
    with pytest.raises(pytest.fail.Exception):
        refused("1", st.apply, Passenger(0, "3r", "r"))


def test_a_refusal_naming_another_rule_fails():
    st = position(hands=("3r 4r", ""))
    with pytest.raises(AssertionError, match="no row"):
        refused("2", st.apply, Passenger(0, "3r", "x"))


def test_a_refusal_that_changed_a_trambahn_hand_fails():
    st = position(hands=("3r 4r", ""))

    def half_done(state):
        state.hands[0].pop()
        raise IllegalAction("1", "refused after a change")

    with pytest.raises(AssertionError, match="changed the position"):
        refused("1", half_done, st)


def test_a_refusal_that_changed_an_1840_round_fails_even_where_the_view_shows_nothing():
    s = two_player_after_sr1()
    view = s.view(None)

    def half_done(state):
        state.current_round.lines_drawn = True  # the round's progress, not in the view
        raise IllegalAction("VIII.4", "refused after a change")

    with pytest.raises(AssertionError, match="changed the position"):
        refused("VIII.4", half_done, s)
    assert s.view(None) == view


def test_an_1840_refusal_through_play_leaves_the_position_equal():
    s = two_player_after_sr1()
    refused("VIII.4", play, s, "SJE done")
    assert snapshot(s) == snapshot(two_player_after_sr1())
