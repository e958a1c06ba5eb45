"""1840 bots: legal choices from the view only, whole games that end sensibly."""

from __future__ import annotations

import random

from tramways.bots import Bot, make_bot
from tramways.bots.g1840_model import ViewModel, board_of
from tramways.bots.match import play_match
from tramways.g1840.game import GAME

from .g1840_games import rule_game_positions


def _game(seed: int) -> list:
    """Every position of one 3-player game of rule bots."""
    return rule_game_positions(3, seed, seed)


def _positions(seed: int, every: int = 7):
    """Positions of one game of rule bots (every ``every``-th action)."""
    return _game(seed % 3)[::every]


def test_rule_bot_is_registered_for_1840():
    bot = make_bot("rule", GAME)
    assert isinstance(bot, Bot) and bot.name == "rule"


def test_board_rebuilt_from_the_view_is_the_engine_board():
    """The bot's board (tiles and markers from the view) routes like the engine's (IX.8)."""
    checked = 0
    for state in _positions(5, every=23):
        view = state.view(0)
        board = board_of(view)
        assert board.placed() == state.board.placed()
        def markers(b):
            return {(c, loc, str(o)) for c, by in b.all_markers().items()
                    for loc, owners in by.items() for o in owners}

        assert markers(board) == markers(state.board)
        model = ViewModel(view)
        for line in state.lines_with_trams():
            run = state.route_context(line)
            from tramways.g1840.routes import best_route

            best = best_route(run)
            expected = 0 if best is None else best.revenue + run.maintenance
            assert model.run_value(line) == expected
            checked += 1
    assert checked > 5


def test_rule_bot_chooses_legal_actions_and_explains_them():
    bot = make_bot("rule", GAME)
    for state in _positions(3, every=11):
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        assert bot.choose(state.view(p), legal, random.Random(1)) in legal
        assert bot.explanation  # type: ignore[attr-defined]


def test_rule_bot_ignores_the_hidden_line_deck_order():
    """The deck order is hidden (the view shows its size): shuffling it changes no choice."""
    bot = make_bot("rule", GAME)
    for state in _positions(4, every=17):
        other = state.clone()
        random.Random(9).shuffle(other.line_deck)
        p = state.current_players()[0]
        assert other.view(p) == state.view(p)
        a = bot.choose(state.view(p), state.legal_actions(p), random.Random(2))
        b = bot.choose(other.view(p), other.legal_actions(p), random.Random(2))
        assert a == b


def test_four_rule_bots_finish_a_game_with_no_player_in_debt():
    """XI: the game ends after CR6; R-END-1 wealth stays positive for sensible play."""
    bots = [make_bot("rule", GAME) for _ in range(4)]
    session = play_match("1840", bots, seed=2)
    result = session.state.result()
    assert session.state.is_over()
    assert min(result["wealth"]) > 0
    assert max(result["wealth"]) > 2000


def test_selfplay_with_bots_explains_every_decision(capsys):
    from tramways.cli import main

    assert main(["selfplay", "1840", "--bots", "rule,random,random", "--seed", "4", "--json",
                 "--explain"]) == 0
    out, err = capsys.readouterr()
    import json

    summary = json.loads(out)
    assert summary["finished"] and summary["settings"]["players"] == 3
    lines = err.splitlines()
    assert len(lines) == summary["actions"]
    assert any(line.startswith("P1 rule: ") and " -- " in line for line in lines)
    assert main(["selfplay", "1840", "--bots", "rule,rule", "--players", "3"]) == 2


def test_search_bot_reshuffles_the_hidden_deck_and_chooses_legally():
    """III.5 / VIII.7: the deck's order is hidden; the bot's copy has it reshuffled."""
    from tramways.bots.match import give_position

    bot = make_bot("search", GAME, budget=0.05, horizon=3, max_samples=2)
    searched = 0
    for state in _positions(7, every=13):
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        give_position(bot, state, random.Random(3))
        position = bot.position  # type: ignore[attr-defined]
        assert sorted(position.line_deck) == sorted(state.line_deck)
        assert position.view(p) == state.view(p)
        action = bot.choose(state.view(p), legal, random.Random(3))
        assert action in legal and bot.explanation  # type: ignore[attr-defined]
        searched += " sample" in bot.explanation  # type: ignore[attr-defined]
    assert searched > 3
