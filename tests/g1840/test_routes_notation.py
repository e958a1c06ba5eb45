"""The text form of routes (for the engine's notation of claimed runs, IX.8)."""

from __future__ import annotations

import pytest

from tests.g1840.test_routes_support import context, lay_exits, new_board
from tests.support import refused
from tramways.core.errors import NotationError
from tramways.g1840.routes import best_route, check_route, format_route, parse_route


def test_routes_parse_and_format() -> None:
    steps = parse_route("D18.0>3-C19.0-E19.0")
    assert steps == [(("D18", 0), 3), (("C19", 0), None), (("E19", 0), None)]
    assert format_route(steps) == "D18.0>3-C19.0-E19.0"
    for bad in ("", "D18", "D18.0-", "Z1.0-A1.0", "D18.0>7-C19.0"):
        with pytest.raises(NotationError):
            parse_route(bad)


def test_routes_two_tracks_between_two_stops_are_told_apart() -> None:
    """J28 (green interchange 15 with exits 5, 0, 1, 2) reaches Simmering K27 twice: straight
    across its edge 0, and through the connector K29 from its edge 5.  Both earn the same
    (line 6: J28 30 + K27 20 = 50); the text names the edge where it matters."""
    board = new_board()
    lay_exits(board, "J28", {5, 0, 1, 2}, "interchange")  # tile 15; edge 2: empty I27
    board.place_marker("J28", 0, 6)
    board.place_marker("K27", 0, 6)
    ctx = context(board, 6)
    run = best_route(ctx)
    assert run is not None and run.revenue == 30 + 20
    assert run.text in ("J28.0>0-K27.0", "J28.0>5-K27.0")
    via_k29 = check_route(ctx, "J28.0>5-K27.0")
    assert via_k29.hexes == ("J28", "K29", "K27") and via_k29.revenue == 50
    assert check_route(ctx, "J28.0>0-K27.0").hexes == ("J28", "K27")
    assert check_route(ctx, via_k29.text) == via_k29
    refused("IX.2", check_route, ctx, "J28.0>1-K27.0")
