"""A line's own route graph, walked from its markers, gives the route of the board's whole graph
(IX.2, IX.7, IX.8, R-LR-6, R-LR-7, IV.2 landmarks, X-6 stations).

``best_route`` searches the line's own graph (``routes.graph.local``) when the line reaches at
most ``LOCAL_LIMIT`` stops; the stops and links are numbered so that the search meets them in
the order it meets them on the whole graph, so among routes of equal revenue it keeps the same
one: the whole :class:`Run` (stops, paths, text) must be equal, not only the revenue.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from tramways.core.selfplay import play_game
from tramways.g1840.board import Board
from tramways.g1840.routes import RouteContext, best_route
from tramways.g1840.routes.graph import line_graph
from tramways.g1840.routes.graph.local import local_line_graph
from tramways.g1840.routes.search import _UNKNOWN, _local_route, _solve, graph_route
from tramways.g1840.routes.validate import make_run

CONTEXTS = (
    ("yellow", 0, frozenset(), "rules"),
    ("brown", -40, frozenset({"E21", "D20", "H22"}), "18xx.games"),
    ("grey", -100, frozenset({"D28", "K7", "F24"}), "rules"),
)
"""Phases (R-LR-7), maintenance, owned landmarks (IV.2) and rulesets (X-6: empty stations)."""


def grown_board() -> Board:
    """The fully grown 6-player map of ``benchmarks/routes.py`` (every hex at its highest
    colour, up to six markers per line)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "routes.py"
    spec = importlib.util.spec_from_file_location("benchmarks_routes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    board: Board = module.synthetic_board()
    return board


def boards_of(players: int, seed: int) -> list[Board]:
    boards: list[Board] = []

    def keep(state: Any) -> None:
        if not boards or state.board.version != boards[-1].version:
            boards.append(state.board.copy())

    play_game("1840", {"players": players}, seed, check=keep, max_actions=20000)
    return boards


def lines_on(board: Board) -> list[int]:
    return sorted({o for by_loc in board.all_markers().values() for owners in by_loc.values()
                   for o in owners if isinstance(o, int)})


def test_ix8_line_graph_from_markers_gives_the_whole_graph_route() -> None:
    checked = 0
    for players, seed in ((4, 3), (2, 5), (5, 7)):
        for board in boards_of(players, seed)[::5]:
            for line in lines_on(board):
                for phase, maintenance, landmarks, ruleset in CONTEXTS:
                    ctx = RouteContext(board, line, phase, landmarks, maintenance, ruleset)
                    want = graph_route(ctx)
                    got = _local_route(ctx)
                    assert got is not _UNKNOWN
                    assert got == want
                    assert best_route(ctx) == want
                    checked += 1
    assert checked > 500


def test_ix7_line_graph_from_markers_has_the_reached_stops_of_the_whole_graph() -> None:
    """The same stops in the same order, values, end-only flags (IX.7 blocked interchanges,
    R-LR-6 ends) and landmark bits, and the same links between them in the same order."""
    for board in boards_of(4, 3)[::7]:
        for line in lines_on(board):
            for phase, maintenance, landmarks, ruleset in CONTEXTS:
                ctx = RouteContext(board, line, phase, landmarks, maintenance, ruleset)
                whole = line_graph(ctx)
                local = local_line_graph(ctx, 10_000)
                assert local is not None
                g, w = local.track, whole.track
                assert g.stops == [w.stops[i] for i in whole.reach]
                assert local.value == [whole.value[i] for i in whole.reach]
                assert local.end_only == [whole.end_only[i] for i in whole.reach]
                assert local.landmark == [whole.landmark[i] for i in whole.reach]
                assert [g.stops[i] for i in local.own] == [w.stops[i] for i in whole.own]
                inside = set(whole.reach)
                want = [(w.stops[k.a], w.stops[k.b], k.steps) for k in w.links
                        if k.a in inside and k.b in inside]
                assert [(g.stops[k.a], g.stops[k.b], k.steps) for k in g.links] == want


def test_ix8_line_graph_from_markers_on_a_grown_board_gives_the_whole_graph_route() -> None:
    """Lines reaching 50-120 stops of a fully grown map (the search's ties and the landmark
    bonus), with no limit on the stops walked."""
    board = grown_board()
    for line in board.layout.lines_in_game[:6]:
        ctx = RouteContext(board, line, "grey", frozenset({"E21", "H22"}), -100)
        lg = local_line_graph(ctx, 10_000)
        assert lg is not None and len(lg.reach) > 40
        found = _solve(lg)
        got = None if found is None else make_run(lg, found.stops, found.links)
        assert got == graph_route(ctx)


def test_ix8_a_line_reaching_more_than_the_limit_is_searched_on_the_whole_graph() -> None:
    board = grown_board()
    line = board.layout.lines_in_game[0]
    ctx = RouteContext(board, line, "grey", frozenset(), -100)
    assert local_line_graph(ctx, 40) is None
    assert _local_route(ctx) is _UNKNOWN
    assert best_route(ctx) == graph_route(ctx)
