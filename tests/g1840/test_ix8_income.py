"""IX.8 (with R-LR-7, R-LR-8, R-CR-6): what a route earns, and the best route, on hand-built
boards of the real map."""

from __future__ import annotations

from tests.g1840.test_ix7_routes import _row_j_board
from tests.g1840.test_routes_support import context, lay_exits, new_board
from tramways.g1840.routes import best_route, check_route, format_route, parse_route


def _lr3a_board():
    """The LR3a example of IX.7, rebuilt around Line 18's home I21 (its geometry is not in the
    text; this board has the same five stops and values).

    A = Südbahnhof J22 with L26 at rotation 0: its location 2 (edge 2, towards I21) is worth 30
    in yellow and green ("yellow value still valid"); B = I21, an interchange with line 18's
    marker, 20; C = I23, a halt, 10; D = Schloss Belvedere H22, a halt of 20, +20 because the
    line's tram company owns the private; E = H24, a halt, 10.
    """
    board = new_board()
    board.lay("J22", "L26", 0)
    lay_exits(board, "I21", {4, 5}, "interchange")
    lay_exits(board, "I23", {1, 2})
    lay_exits(board, "H24", {1, 4})
    board.place_marker("I21", 0, 18)
    return board


def test_ix8_lr3a_example_110_minus_50_is_60() -> None:
    """A 30 + B 20 + C 10 + D 40 (20 + 20 landmark bonus) + E 10 = 110; a yellow tram after
    red trams were bought has maintenance -50: 110 - 50 = 60."""
    board = _lr3a_board()
    ctx = context(board, 18, phase="green", landmarks={"H22"}, maintenance=-50)
    run = best_route(ctx)
    assert run is not None
    assert run.stops == (("H24", 0), ("H22", 0), ("I23", 0), ("I21", 0), ("J22", 2))
    assert run.parts == (10, 20, 10, 20, 30)
    assert run.landmark_bonus == 20
    assert (run.revenue, run.maintenance, run.total) == (110, -50, 60)
    assert check_route(ctx, "J22.2-I21.0-I23.0-H22.0-H24.0") == run


def test_ix8_landmark_bonus_only_for_the_company_s_private() -> None:
    """Without the private the same route earns 90."""
    run = best_route(context(_lr3a_board(), 18, phase="green"))
    assert run is not None and run.revenue == 90 and run.landmark_bonus == 0


def test_ix8_interchange_counts_only_with_own_marker() -> None:
    """J24 10 + J26 20 (line 6's marker) + J28 0 (no marker; 20 printed) + K27 20 = 50."""
    run = best_route(context(_row_j_board(), 6))
    assert run is not None and run.parts == (10, 20, 0, 20) and run.revenue == 50


def test_r_lr7_red_area_value_follows_the_phase() -> None:
    """K27 (Simmering) is worth 20/30/40/50 in the yellow/green/brown/grey phases."""
    revenues = [best_route(context(_row_j_board(), 6, phase=p)).revenue  # type: ignore[union-attr]
                for p in ("yellow", "green", "brown", "grey")]
    assert revenues == [50, 60, 70, 80]


def test_r_lr7_purple_halts_fall_in_brown() -> None:
    """L26's halts are 30 until brown, then 10: the LR3a route earns 110 - 20 = 90 in brown."""
    run = best_route(context(_lr3a_board(), 18, phase="brown", landmarks={"H22"}))
    assert run is not None and run.revenue == 90


def test_ix8_maintenance_and_purple_bonus_are_added() -> None:
    board = _row_j_board()
    assert best_route(context(board, 6, maintenance=-200)).total == -150  # type: ignore[union-attr]
    assert best_route(context(board, 6, maintenance=200)).total == 250  # type: ignore[union-attr]
    no_tram = best_route(context(board, 6, maintenance=None))
    assert no_tram is not None and no_tram.maintenance == 0 and no_tram.total == 50


def test_r_lr8_no_route_no_maintenance() -> None:
    """A line whose markers reach no second stop has no run (None): it earns 0 and pays no
    maintenance (R-LR-8, R-CR-6)."""
    board = new_board()
    board.place_marker("K27", 0, 6)
    assert best_route(context(board, 6, maintenance=-400)) is None


def test_routes_text_round_trip() -> None:
    board = _lr3a_board()
    ctx = context(board, 18, phase="green", landmarks={"H22"})
    run = best_route(ctx)
    assert run is not None
    assert format_route(run) == "H24.0-H22.0-I23.0-I21.0-J22.2"
    assert format_route(parse_route(run.text)) == run.text
    assert check_route(ctx, parse_route(run.text)) == run
    assert check_route(ctx, list(run.stops)) == run
    assert run.to_json()["stops"] == ["H24.0", "H22.0", "I23.0", "I21.0", "J22.2"]
