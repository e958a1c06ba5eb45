"""tramways.g1840.analysis: questions about a public position answered from the view alone
(issue 12's revenue preview, the pages' best route)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tramways.core import GameRecord, Session
from tramways.g1840.analysis import best_run, board_from_view, lay_previews
from tramways.g1840.routes import best_route
from tramways.g1840.view_types import View1840

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
            turn = view.round_info.line_turn
            if turn and not turn.tile_laid and any(
                    " lay " in game.format_action(a) for a in state.legal_actions(players[0])):
                found.append((state.clone(), players[0], turn.line))
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
        assert {c: (p.tile_id, p.rotation) for c, p in board.placed().items()} == {
            c: (t.tile, t.rotation) for c, t in view.tiles.items()}
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
                    assert shown[int(a.split()[2])] == after.view(seat).companies[company].price
                    checked += 1
                if checked >= 30:
                    break
        action = game.parse_action(text)
        seats = state.seats_for(action)
        state.apply(action, seats[0] if seats else None)
    assert checked >= 10


def _treasury_of_line(view: View1840, line: int) -> int:
    return next(c.treasury for c in view.companies.values() if line in c.lines)


@pytest.mark.parametrize("name", ["1840-4p.json", "1840-3p-small-map.json",
                                  "1840-2p-imported-18xx-games-133875.json"])
def test_line_option_costs_are_what_the_engine_takes_from_the_treasury(name: str) -> None:
    """R-LR-10 (the Danube 40, a Stadtbahn tile 20), IX.6 (the charter's marker prices, the
    free home marker), R-LR-4 (the free bonus marker), R-LR-5 (a removal 40): the cost the
    pages show beside each legal lay, station and removal is the treasury's drop when the
    engine applies it; a lay's kind is what the engine records (R-LR-1: the Stadtbahn tile
    sets ``stadtbahn_tile_laid``, the normal lay ``tile_laid``, a bonus tile neither)."""
    from tramways.g1840.analysis import line_option_costs

    record = GameRecord.load(str(GOLDEN / name))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    game, state = session.game, session.state
    kinds: dict[str, int] = {}
    costs: set[int] = set()
    for text in record.actions:
        players = state.current_players()
        view = state.view(players[0]) if players else None
        turn = view.round_info.line_turn if view else None
        if view and turn and not turn.offer:
            seat = players[0]
            line = turn.line
            legal = [game.format_action(a) for a in state.legal_actions(seat)]
            priced = [t for t in legal if t.split()[1] in ("lay", "station", "remove")]
            shown = line_option_costs(view, line, priced)
            assert set(shown) == set(priced)
            for t in priced[:: max(1, len(priced) // 8)]:
                after = state.clone()
                after.apply(game.parse_action(t), seat)
                now = after.view(seat)
                assert _treasury_of_line(view, line) - _treasury_of_line(now, line) == \
                    shown[t]["cost"], t
                kind = shown[t]["kind"]
                kinds[kind] = kinds.get(kind, 0) + 1
                costs.add(shown[t]["cost"])
                lt = now.round_info.line_turn
                if kind == "stadtbahn" and lt is not None and lt.line == line:
                    assert lt.stadtbahn_tile_laid and not turn.stadtbahn_tile_laid, t
                same_line = lt is not None and lt.line == line
                if kind == "normal" and t.split()[1] == "lay" and same_line:
                    assert lt.tile_laid and not turn.tile_laid, t
                if kind.startswith(("bonus_", "red", "purple")) and same_line:
                    assert lt.tile_laid == turn.tile_laid and not lt.bonus, t
        action = game.parse_action(text)
        seats = state.seats_for(action)
        state.apply(action, seats[0] if seats else None)
    assert {"normal", "stadtbahn"} <= set(kinds), kinds
    assert {0, 20, 40} <= costs, costs
