"""tramways.g1840.analysis: questions about a public position answered from the view alone
(issue 12's revenue preview, the pages' best route)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tramways.core import GameRecord, Session
from tramways.g1840.analysis import best_run, board_from_view, lay_previews
from tramways.g1840.routes import best_route

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _line_turns(name: str, count: int):
    """The first ``count`` line turns with tile lays of a recorded game: (state, seat, line)."""
    record = GameRecord.load(str(GOLDEN / name))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    game, state = session.game, session.state
    found = []
    for text in record.actions:
        players = state.current_players()
        if players:
            view = state.view(players[0])
            turn = view["round_info"].get("line_turn")
            if turn and not turn["tile_laid"] and any(
                    " lay " in game.format_action(a) for a in state.legal_actions(players[0])):
                found.append((state.clone(), players[0], int(turn["line"])))
                if len(found) == count:
                    break
        action = game.parse_action(text)
        seats = state.seats_for(action)
        state.apply(action, seats[0] if seats else None)
    return game, found


@pytest.mark.parametrize("name", ["1840-4p.json", "1840-2p-two-player-map.json"])
def test_board_and_best_run_from_the_view_are_the_engines(name: str) -> None:
    """IX.8: the best run computed from the view equals the engine's own route context."""
    _game, turns = _line_turns(name, 6)
    assert turns
    for state, seat, line in turns:
        view = state.view(seat)
        board = board_from_view(view)
        assert {c: [p.tile_id, p.rotation] for c, p in board.placed().items()} == view["tiles"]
        ours = best_run(view, line, board)
        theirs = best_route(state.route_context(line))
        assert (ours.total if ours else 0) == (theirs.total if theirs else 0)


def test_lay_previews_equal_the_run_after_the_engine_lays_the_tile() -> None:
    """Each preview is the change of the line's best run after the engine itself lays that
    tile (IX.4/IX.5 through State.apply), for every legal lay of recorded line turns."""
    game, turns = _line_turns("1840-4p.json", 4)
    checked = 0
    for state, seat, line in turns:
        view = state.view(seat)
        lays = [w for w in (game.format_action(a).split() for a in state.legal_actions(seat))
                if len(w) == 5 and w[1] == "lay"][:12]
        previews = lay_previews(view, line, [(w[2], w[3], int(w[4][1:])) for w in lays])
        before = best_route(state.route_context(line))
        for w in lays:
            after = state.clone()
            after.apply(game.parse_action(" ".join(w)), seat)
            run = best_route(after.route_context(line))
            expected = (run.total if run else 0) - (before.total if before else 0)
            assert previews[(w[2], w[3], int(w[4][1:]))] == expected, w
            checked += 1
    assert checked >= 10


def test_dividend_prices_equal_the_engines_move() -> None:
    """X.2 / R-CR-2: the price shown before a dividend is the price after the engine pays it."""
    from tramways.g1840.analysis import dividend_prices

    record = GameRecord.load(str(GOLDEN / "1840-4p.json"))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    game, state = session.game, session.state
    checked = 0
    for text in record.actions:
        seat = state.current_players()[0] if state.current_players() else None
        if seat is not None:
            pays = [game.format_action(a) for a in state.legal_actions(seat)]
            pays = [a for a in pays if a.split()[1] == "pay"]
            if pays:
                company = pays[0].split()[0]
                view = state.view(seat)
                shown = dividend_prices(view, company, [int(a.split()[2]) for a in pays])
                for a in pays[:: max(1, len(pays) // 5)]:
                    after = state.clone()
                    after.apply(game.parse_action(a), seat)
                    assert shown[int(a.split()[2])] == after.view(seat)["companies"][company]["price"]
                    checked += 1
                if checked >= 30:
                    break
        action = game.parse_action(text)
        seats = state.seats_for(action)
        state.apply(action, seats[0] if seats else None)
    assert checked >= 10
