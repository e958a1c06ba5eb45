"""Declared capabilities (``GameInfo`` and the hooks of ``GameBase``): hosts read them
instead of probing a game with ``getattr``."""

from __future__ import annotations

import random

import pytest

from tramways.core import Session
from tramways.core.game import Game, GameBase, GameInfo
from tramways.core.visibility import public_notation, record_is_public
from tramways.games import get_game


@pytest.mark.parametrize("name, players, hidden, chance", [
    ("1840", (2, 3, 4, 5, 6), False, False),
    ("trambahn", (2,), True, True),
])
def test_every_game_declares_its_capabilities(name, players, hidden, chance):
    game = get_game(name)
    assert isinstance(game, Game) and isinstance(game, GameBase)
    assert game.info == GameInfo(name=name, title=game.info.title, players=players,
                                 hidden_information=hidden, chance=chance)
    assert game.info.name == game.name and game.info.title


def test_the_record_of_a_game_with_hidden_cards_is_public_only_at_its_end():
    s = Session.new("trambahn", {}, seed=3)
    assert not record_is_public(s.game, s.state)
    assert record_is_public(get_game("1840"), Session.new("1840", {"players": 2}, seed=3).state)


def test_the_default_hooks_answer_for_a_game_that_needs_none():
    from tests.core.toygame import GAME

    state = GAME.new_state({"players": 2}, GAME.setup({"players": 2}, 1), 1)
    action = state.legal_actions(0)[0]
    assert GAME.new_game_settings() == {}
    assert GAME.public_notation(action, None) == GAME.format_action(action)
    assert public_notation(GAME, action, 1) == GAME.format_action(action)
    assert GAME.reveals(state, action) is False
    assert GAME.opening_log(state) == []
    GAME.check_invariants(state)
    assert GAME.selfplay_policy(state, 0, random.Random(1)) in state.legal_actions(0)
    assert '"counters"' in GAME.text_view(state.view(None))


def test_trambahn_step3_hides_a_money_card_from_everybody_through_its_hook():
    s = Session.new("trambahn", {}, seed=7)
    game = s.game
    for _ in range(200):
        player = s.state.current_players()[0]
        income = [a for a in s.state.legal_actions(player) if type(a).__name__ == "Income"]
        if income:
            a = income[0]
            # face down onto the money pile: even its owner's notation keeps no face
            assert game.format_action(a) != f"P{player + 1} income ?"
            for viewer in (player, 1 - player, None):
                assert public_notation(game, a, viewer) == f"P{player + 1} income ?"
            return
        s.play(s.state.legal_actions(player)[0], seat=player)
    pytest.fail("no income card in 200 actions")
