"""The undo policy (tramways.core.undo): own moves, until another seat acts or a reveal."""

from __future__ import annotations

import pytest

from tests.support import refused
from tramways.core import IllegalAction, Session
from tramways.core.undo import Played, check_undo, reveals, undoable
from tramways.core.visibility import public_notation, record_is_public
from tramways.games import get_game


def test_own_moves_back_to_another_seats_action():
    history = [Played(1, False), Played(0, False), Played(0, False)]
    assert undoable(history, 0) == 2
    assert undoable(history, 1) == 0
    check_undo(history, 0, 2)
    refused("undo", check_undo, history, 0, 3)
    with pytest.raises(IllegalAction, match="another player"):
        check_undo(history, 1)


def test_a_reveal_cannot_be_taken_back_nor_anything_before_it():
    history = [Played(0, False), Played(0, True)]
    assert undoable(history, 0) == 0
    with pytest.raises(IllegalAction, match="hidden information"):
        check_undo(history, 0)
    assert undoable([*history, Played(0, False)], 0) == 1
    with pytest.raises(IllegalAction, match="nothing"):
        check_undo([], 0)


def test_trambahn_end_of_turn_reveals_draws_and_other_steps_do_not():
    game = get_game("trambahn")
    s = Session.new("trambahn", {}, seed=11)
    history = []
    while True:
        action = s.state.legal_actions(0)[0]
        if s.game.format_action(action).endswith("end"):
            break
        history.append(Played(0, reveals(game, s.state, action)))
        s.play(action, seat=0)
    assert history and not any(p.reveals for p in history)
    end = next(a for a in s.state.legal_actions(0) if game.format_action(a) == "P1 end")
    assert reveals(game, s.state, end)


def test_1840_reveals_nothing_and_its_record_is_public_at_once():
    game = get_game("1840")
    s = Session.new("1840", {"players": 2}, seed=3)
    action = s.state.legal_actions()[0]
    assert not reveals(game, s.state, action)
    assert record_is_public(game, s.state)
    assert public_notation(game, action, None) == game.format_action(action)


def test_trambahn_record_is_public_only_after_the_end():
    s = Session.new("trambahn", {}, seed=2)
    assert not record_is_public(s.game, s.state)
