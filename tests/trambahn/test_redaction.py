"""Redacted notation: an income card goes face down (Step 3), so its face is never shown."""

from __future__ import annotations

from tramways.core import Session
from tramways.core.visibility import public_notation
from tramways.trambahn.actions import parse_action


def test_income_face_is_hidden_from_everybody_other_actions_are_public():
    game = Session.new("trambahn", {}, seed=1).game
    for viewer in (0, 1, None):
        assert public_notation(game, parse_action("P1 income 7r"), viewer) == "P1 income ?"
        assert public_notation(game, parse_action("P2 income C"), viewer) == "P2 income ?"
        for text in ("P1 passenger 7r", "P1 passenger C b", "P2 station 10g 2",
                     "P1 station 3y new", "P2 buy steam 1", "P1 end"):
            assert public_notation(game, parse_action(text), viewer) == text


def test_engine_log_lines_of_income_name_no_card():
    s = Session.new("trambahn", {}, seed=4)
    while True:
        incomes = [a for a in s.state.legal_actions() if "income" in s.game.format_action(a)]
        if incomes:
            lines = s.play(incomes[0])
            assert lines == ["P1 adds a card to the money pile (13)"]
            return
        s.play(s.state.legal_actions()[0])
