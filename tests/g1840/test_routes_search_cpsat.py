"""The exact constraint model of the best route (IX.2, IX.7, IX.8) against brute force.

The search hands over to :mod:`tramways.g1840.routes.solver_cpsat` past its node budget.  These
tests force the hand-over (a budget of a few nodes, so the model also gets the search's best
route so far as a lower bound) and compare the revenue with the plain enumeration of
``test_routes_bruteforce``, on the boards that make the search slow: densely tiled, with few
blocking markers (every hex of the window tiled, one or two markers of the line and at most
one of another line).  Every returned route is also checked by :func:`check_route`.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.g1840.test_routes_bruteforce import (
    LINES,
    WINDOW,
    _random_board,
    brute_force_best,
    tile_options,
)
from tests.g1840.test_routes_support import context, lay_exits, new_board
from tramways.g1840.board import Board
from tramways.g1840.routes import best_route, check_route, line_graph, search, solver_cpsat

pytestmark = pytest.mark.skipif(not solver_cpsat.AVAILABLE, reason="OR-Tools not installed")


def _dense_board(data: st.DataObject, line: int) -> Board:
    """Every hex of the window tiled; one or two markers of ``line``, at most one other."""
    ruleset = data.draw(st.sampled_from(["rules", "18xx.games"]))
    board = new_board(ruleset=ruleset)
    board._supply = {key: 99 for key in board._supply}  # test boards ignore the supply
    for coord in WINDOW:
        hexdef = board.layout.hexes[coord]
        if not hexdef.laying_allowed or hexdef.area == "inner_city":
            continue
        options = tile_options(hexdef, lambda: data.draw(
            st.sampled_from(["green", "brown", "grey"])))
        board.lay(coord, data.draw(st.sampled_from(options)), data.draw(st.integers(0, 5)))
    interchanges = [(c, loc.id) for c in WINDOW + ("K27",) for loc in board.locations(c)
                    if loc.kind == "interchange"]
    owners = [line] * data.draw(st.integers(1, 2)) + [data.draw(st.sampled_from(LINES))] * (
        data.draw(st.integers(0, 1)))
    for owner in owners:
        coord, loc = data.draw(st.sampled_from(interchanges))
        if board.free_slots(coord, loc) > 0 and owner not in board.markers(coord).get(loc, ()):
            board.place_marker(coord, loc, owner)
    return board


def _check(board: Board, line: int, data: st.DataObject) -> None:
    phase = data.draw(st.sampled_from(["yellow", "green", "brown", "grey"]))
    landmarks = frozenset(data.draw(st.sets(st.sampled_from(WINDOW), max_size=3)))
    ctx = context(board, line, phase, landmarks, 0, board.ruleset)
    expected = brute_force_best(board, line, phase, landmarks, board.ruleset)
    # the model alone
    got = solver_cpsat.solve(line_graph(ctx))
    assert (got[0] if got else None) == expected
    # the search handing over after a few nodes (its best so far as a lower bound)
    saved = search.NODE_BUDGET
    search.NODE_BUDGET = data.draw(st.integers(1, 40))
    try:
        run = best_route(ctx)
    finally:
        search.NODE_BUDGET = saved
    assert (run.revenue if run else None) == expected
    if run is not None:
        assert check_route(ctx, run.text).revenue == run.revenue


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_ix8_model_equals_brute_force_on_dense_open_boards(data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(LINES))
    _check(_dense_board(data, line), line, data)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_ix8_model_equals_brute_force_on_random_boards(data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(LINES))
    _check(_random_board(data, line), line, data)


def test_ix7_model_needs_an_own_marker() -> None:
    """IX.7: no marker of the line, no route (R-LR-8: the line does not run)."""
    board = new_board()
    lay_exits(board, "H26", {1, 4})
    assert solver_cpsat.solve(line_graph(context(board, 4))) is None


def test_ix7_block_bound_from_a_terminal_marker_keeps_the_optimum() -> None:
    """A board Hypothesis found: line 4's marker on the red K27 can only end a route; the block
    bound from it (before any link) once cut off the best route, 110 (the search gave 80)."""
    board = new_board()
    board._supply = {key: 99 for key in board._supply}
    laid = {"G27": ("3", 0), "H26": ("4", 2), "I25": ("767", 0), "G25": ("14", 1),
            "J26": ("611", 1), "J28": ("611", 0), "G21": ("L11", 0), "I27": ("L24", 1)}
    for coord, (tile_id, rotation) in laid.items():
        board.lay(coord, tile_id, rotation)
    for coord in ("G21", "G25", "K27"):
        board.place_marker(coord, 0, 4)
    ctx = context(board, 4, "brown")
    saved = search.BLOCK_BOUND_FROM
    search.BLOCK_BOUND_FROM = 0
    try:
        run = best_route(ctx)
    finally:
        search.BLOCK_BOUND_FROM = saved
    assert run is not None
    assert run.revenue == 110
    assert run.text == "I27.4-J26.0-I25.0-I27.0-J28.0-K27.0"
    assert solver_cpsat.solve(line_graph(ctx))[0] == 110  # type: ignore[index]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_ix8_search_alone_equals_brute_force_on_dense_open_boards(data: st.DataObject) -> None:
    """The depth-first search without hand-over, its block bound on at every node."""
    line = data.draw(st.sampled_from(LINES))
    board = _dense_board(data, line)
    phase = data.draw(st.sampled_from(["yellow", "green", "brown", "grey"]))
    landmarks = frozenset(data.draw(st.sets(st.sampled_from(WINDOW), max_size=3)))
    saved = search.NODE_BUDGET, search.BLOCK_BOUND_FROM
    search.NODE_BUDGET, search.BLOCK_BOUND_FROM = 10**9, 0
    try:
        run = best_route(context(board, line, phase, landmarks, 0, board.ruleset))
    finally:
        search.NODE_BUDGET, search.BLOCK_BOUND_FROM = saved
    expected = brute_force_best(board, line, phase, landmarks, board.ruleset)
    assert (run.revenue if run else None) == expected
