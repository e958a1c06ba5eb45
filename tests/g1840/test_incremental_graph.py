"""Incremental and cached computations equal a from-scratch computation (IX.2, VIII.5.2).

``routes.graph.track_graph`` derives each board's graph from the last one built (re-walking only
the stops whose walks looked at a changed hex), ``line_graph`` visits only markers and landmark
hexes, ``Board.reach`` keeps the reach of lines whose walk never touched a changed hex and
Stadtbahn runs are cached by the dotted hexes' tiles and markers; all must give exactly what a
fresh computation gives, after every change of the oracle game and of random selfplay games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tramways.core.selfplay import play_game
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.interop.trace_positions import iter_positions
from tramways.g1840.legality.connection import Connection
from tramways.g1840.model import opposite
from tramways.g1840.routes.graph import (
    TrackGraph,
    _Pieces,
    build_line_graph,
    build_track_graph,
    line_graph,
    track_graph,
    track_pieces,
)
from tramways.g1840.routes.model import RouteContext
from tramways.g1840.stadtbahn_runs import _run, stadtbahn_run


def canonical(graph: TrackGraph, keys: Any) -> tuple[Any, ...]:
    """The graph with every track mask as the set of pieces it stands for."""

    def pieces(mask: int) -> frozenset[Any]:
        out = set()
        while mask:
            low = mask & -mask
            out.add(keys[low])
            mask ^= low
        return frozenset(out)

    links = [(k.a, k.b, pieces(k.track), k.steps, k.exit_edge, k.entry_edge)
             for k in graph.links]
    return (graph.stops, graph.index, graph.kinds, graph.terminal, graph.locations,
            graph.incident, links)


def assert_graph_matches_scratch(board: Board) -> None:
    incremental = canonical(track_graph(board), track_pieces(board))
    fresh = _Pieces()
    scratch = canonical(build_track_graph(board, fresh), fresh.keys)
    assert incremental == scratch


def connection_from_scratch(board: Board, line: Any) -> tuple[Any, ...]:
    """What a Connection answers, derived from a fresh walk the long way (IX.4)."""
    reach = board.walk(board.line_markers(line), line)
    entered = set(reach.edges)
    candidates = set(reach.hexes) | {c for c, _ in reach.locations}
    for coord, edge in reach.edges:
        candidates.add(coord)
        nb = board.neighbour(coord, edge)
        if nb is not None:
            entered.add((nb, opposite(edge)))
            candidates.add(nb)
    by_hex: dict[str, set[int]] = {}
    for coord, edge in entered:
        by_hex.setdefault(coord, set()).add(edge)
    locs: dict[str, set[int]] = {}
    for coord, loc in reach.locations:
        locs.setdefault(coord, set()).add(loc)
    return entered, candidates, by_hex, locs


def assert_reach_matches_scratch(board: Board, lines: Any) -> None:
    for line in lines:
        assert board.reach(line) == board.walk(board.line_markers(line), line)
        conn = Connection(board, line)
        entered, candidates, by_hex, locs = connection_from_scratch(board, line)
        assert conn.candidates == candidates
        entered_by_hex, locations_by_hex = conn.reach.by_hex()
        assert {c: set(es) for c, es in entered_by_hex.items()} == by_hex
        assert {c: set(ls) for c, ls in locations_by_hex.items()} == locs
        assert all(conn.enters(c, e) for c, e in entered)
        assert len(conn.edges) == len(entered)
        fresh = Connection(board, line)  # per-hex answers before any index is built
        for coord in board.layout.hexes:
            assert fresh.entered_edges(coord) == by_hex.get(coord, set())
            assert fresh.reached_locations(coord) == locs.get(coord, set())
            assert fresh.touches_hex(coord) == (coord in by_hex or coord in locs)


def assert_line_graphs_match_reference(board: Board, lines: Any) -> None:
    """IX.7/R-LR-7: the fast line view equals the stop-by-stop reference for every line,
    phase, ruleset and with or without landmarks."""
    landmarks = frozenset(board.layout.landmarks)
    for line in lines:
        if not isinstance(line, int):
            continue
        for phase, ruleset, marks in (("yellow", "rules", frozenset()),
                                      ("brown", "18xx.games", landmarks),
                                      ("grey", "rules", landmarks)):
            ctx = RouteContext(board, line, phase, marks, ruleset=ruleset)
            assert line_graph(ctx) == build_line_graph(ctx)


def assert_stadtbahn_runs_match_uncached(board: Board) -> None:
    """VIII.5.2: a cached Stadtbahn run equals the run computed afresh."""
    for company, line in board.layout.stadtbahn_lines.items():
        for phase, multiplier in (("yellow", 1), ("grey", 3)):
            cached = stadtbahn_run(board, company, phase, multiplier)
            assert cached == _run(board, company, line, phase, multiplier)


def owners(board: Board) -> set[Any]:
    return {o for by_loc in board.all_markers().values() for os in by_loc.values() for o in os}


def test_ix2_graph_and_reach_follow_the_oracle_game(oracle_dir: Path) -> None:
    previous: Board | None = None
    checked = 0
    for _, _, board in iter_positions(oracle_dir / "2player.trace.jsonl"):
        if previous is not None and board.to_json() == previous.to_json():
            continue
        assert_graph_matches_scratch(board)
        assert_reach_matches_scratch(board, owners(board) | {1, 2, 3, 4})
        assert_line_graphs_match_reference(board, owners(board) | {1})
        assert_stadtbahn_runs_match_uncached(board)
        previous = board
        checked += 1
    assert checked > 50


def test_ix2_graph_and_reach_follow_a_board_through_copies() -> None:
    """Lays and markers on one board and on diverging copies (trial lays of the engine)."""
    board = Board(load_layout("two_player"))
    base_graph = canonical(track_graph(board), track_pieces(board))
    trial = board.copy()
    home = board.layout.home_bases
    line, coord = next(iter(home.items()))
    loc = next(x.id for x in board.locations(coord) if x.is_interchange)
    trial.place_marker(coord, loc, line)
    assert_graph_matches_scratch(trial)
    assert_reach_matches_scratch(trial, [line])
    assert trial.reach(line).locations
    assert board.reach(line).locations == frozenset()
    # the original is unchanged and its graph is still the same
    assert canonical(track_graph(board), track_pieces(board)) == base_graph
    assert_graph_matches_scratch(board)


def test_ix2_graph_derived_from_the_nearest_cached_board() -> None:
    """A search's play-outs jump between boards: each new one is derived from the cached graph
    nearest to it (a play-out's last board, or the position a new play-out starts from), not
    only from the last one built; every graph must still equal the scratch build (IX.2)."""
    games: list[list[Board]] = []
    for seed in (11, 12):
        boards: list[Board] = []

        def keep(state: Any, boards: list[Board] = boards) -> None:
            if not boards or state.board.version != boards[-1].version:
                boards.append(state.board.copy())

        play_game("1840", {"players": 4}, seed, check=keep)
        games.append(boards[::3])
    a, b = games
    assert len(a) > 10 and len(b) > 10
    order = []
    for i in range(min(len(a), len(b))):  # two games interleaved, then back to the start
        order += [a[i], b[i], a[i // 2], b[max(0, i - 5)]]
    for board in order:
        assert_graph_matches_scratch(Board.from_json(board.to_json()))  # a new version


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (2, 7), (3, 5)])
def test_ix2_graph_and_reach_follow_selfplay_games(players: int, seed: int) -> None:
    boards: list[Board] = []

    def check(state: Any) -> None:
        board = state.board
        if not boards or board.version != boards[-1].version:
            boards.append(board.copy())
            assert_graph_matches_scratch(board)
            assert_reach_matches_scratch(board, owners(board))
            assert_line_graphs_match_reference(board, owners(board))
            assert_stadtbahn_runs_match_uncached(board)

    outcome = play_game("1840", {"players": players}, seed, check=check)
    assert outcome.actions > 100
    assert len(boards) > 20
