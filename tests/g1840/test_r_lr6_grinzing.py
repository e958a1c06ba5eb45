"""R-LR-6 / III.4.1: Grinzing (A13) is red but no route end; routes pass through it.

The board, on the full and on the small 3-player map: line 11's home Döbling (B12) carries
tile 57 with its interchange joined to A13 (edge 3) and to C11 (edge 0); the Stadtbahn hex B14
carries the green Stadtbahn tile L8 (rotation 5: the dotted G track keeps its printed edges 0
and 4, the tram track runs from A13 over a halt to C15).  Line 11 has its marker on B12.

Grinzing's interchange has two circles; on the full map the V Stadtbahn marker fills one, so
it is open to line 11, and earns it nothing without line 11's own marker (IX.8).  Yellow phase:
B12 (own marker) 20, A13 0, B14 halt 10.  Best: B12-A13-B14 = 30; stopping at Grinzing gives
only 20.  With line 11's marker on A13 too: 20 + 30 + 10 = 60.
"""

from __future__ import annotations

import pytest

from tests.g1840.test_routes_support import context, new_board
from tests.support import refused
from tramways.g1840.board import Board
from tramways.g1840.routes import best_route, check_route

LAYOUTS = ("full", "small3")


def _board(layout: str) -> Board:
    board = new_board(layout)
    board.lay("B12", "57", 3)  # 57: exits 0 and 3, turned to 3 and 0 (A13 and C11)
    board.lay("B14", "L8", 5)
    board.place_marker("B12", 0, 11)
    return board


def test_r_lr6_the_board_is_as_described() -> None:
    board = _board("full")
    assert {e for p in board.paths("B12") for e in p.edges} == {0, 3}
    tram = [p for p in board.paths("B14") if p.track == "tram"]
    assert {e for p in tram for e in p.edges} == {2, 5}
    assert board.neighbour("B12", 3) == "A13" and board.neighbour("B14", 2) == "A13"
    assert {"B12", "A13", "B14"} <= {loc[0] for loc in board.reach(11).locations}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_r_lr6_best_route_passes_through_grinzing(layout: str) -> None:
    ctx = context(_board(layout), 11)
    run = best_route(ctx)
    assert run is not None
    assert run.stops in ((("B12", 0), ("A13", 0), ("B14", 0)),
                         (("B14", 0), ("A13", 0), ("B12", 0)))
    assert run.revenue == 30
    assert check_route(ctx, "B12.0-A13.0-B14.0").revenue == 30
    assert check_route(ctx, "B14.0-A13.0-B12.0").revenue == 30
    assert check_route(ctx, "B12.0-A13.0").revenue == 20  # Grinzing may still end a route


@pytest.mark.parametrize("layout", LAYOUTS)
def test_r_lr6_grinzing_earns_its_30_with_the_lines_marker(layout: str) -> None:
    board = _board(layout)
    board.place_marker("A13", 0, 11)  # beside the V marker (full map) in the second circle
    ctx = context(board, 11)
    run = best_route(ctx)
    assert run is not None and run.revenue == 60
    assert check_route(ctx, "B12.0-A13.0-B14.0").revenue == 60


def test_r_lr6_other_red_areas_still_end_routes() -> None:
    """The exception is Grinzing alone: every other red off-board area ends a route."""
    for layout in ("full", "small3", "two_player"):
        board = new_board(layout)
        for coord, hexdef in board.layout.hexes.items():
            if not str(hexdef.area).startswith("offboard_red") or coord == "A13":
                continue
            for path in board.paths(coord):
                ends = [e for e in (path.a, path.b) if e.location is not None]
                if path.track == "tram" and ends:
                    assert path.terminal, (layout, coord, path)


def test_r_lr6_a_blocked_grinzing_is_still_an_end_only() -> None:
    """IX.2: with both circles filled by others (V and line 12), Grinzing is blocked for
    line 11: it may end the route, not be passed through."""
    board = _board("full")
    if board.markers("A13").get(0) is None or len(board.markers("A13")[0]) != 1:
        pytest.skip("the V marker is not on Grinzing in this map data")
    board.place_marker("A13", 0, 12)
    ctx = context(board, 11)
    run = best_route(ctx)
    assert run is not None and run.revenue == 20
    refused("IX.7", check_route, ctx, "B12.0-A13.0-B14.0")
