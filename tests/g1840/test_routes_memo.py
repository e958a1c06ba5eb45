"""The best-route memo (``TrackGraph.routes``, :func:`routes.search.best_route`) answers what a fresh search answers (IX.8).

Routes are remembered by track graph, markers and context: a board rebuilt from its JSON (as a
bot rebuilds it from a view: equal tiles, markers placed in another order) shares the graph of
the original and gets the same route; every board of a game (each lay and marker since the
last) gets the route a fresh search finds, never one remembered for an earlier board.
"""

from __future__ import annotations

from typing import Any

from tramways.core.selfplay import play_game
from tramways.g1840.board import Board
from tramways.g1840.routes import RouteContext, best_route
from tramways.g1840.routes.graph import line_graph
from tramways.g1840.routes.search import _solve
from tramways.g1840.routes.validate import make_run


def fresh(ctx: RouteContext) -> Any:
    """The route of a search that never looks at the memo."""
    lg = line_graph(ctx)
    found = _solve(lg)
    return None if found is None else make_run(lg, found.stops, found.links)


def lines_on(board: Board) -> list[int]:
    return sorted({o for by_loc in board.all_markers().values() for owners in by_loc.values()
                   for o in owners if isinstance(o, int)})


def test_ix8_memo_gives_the_fresh_search_route_on_rebuilt_and_changed_boards() -> None:
    boards: list[Board] = []

    def keep(state: Any) -> None:
        if not boards or state.board.version != boards[-1].version:
            boards.append(state.board.copy())

    play_game("1840", {"players": 4}, 3, check=keep)
    checked = 0
    for board in boards[::4]:
        rebuilt = Board.from_json(board.to_json())
        for line in lines_on(board):
            for phase, maintenance in (("yellow", 0), ("brown", -40)):
                ctx = RouteContext(board=board, line=line, phase=phase, maintenance=maintenance)
                want = fresh(ctx)
                assert best_route(ctx) == want
                again = RouteContext(board=rebuilt, line=line, phase=phase,
                                     maintenance=maintenance)
                assert best_route(again) == want
                checked += 1
    assert checked > 100
