"""IX.2 / IX.7 (with R-LR-6, X-6): what a valid route is, on hand-built boards of the real map.

Each test builds a small network with :func:`lay_exits`; the expected figures are worked out in
the docstrings (yellow phase unless said otherwise: yellow halt tiles 10, yellow interchange
tiles 20).
"""

from __future__ import annotations

from tests.g1840.test_routes_support import context, lay_exits, new_board
from tests.support import refused
from tramways.g1840.routes import best_route, check_route


def _row_j_board(blocked: bool = False):
    """J24 halt (exits 2, 4) - J26 interchange (1, 4) - J28 interchange (1, 0) - K27 red area.

    Line 6 has markers on K27 (Simmering, 2 circles) and J26.  With ``blocked`` line 15 fills
    the single circle of J28.
    """
    board = new_board()
    lay_exits(board, "J24", {2, 4})
    lay_exits(board, "J26", {1, 4}, "interchange")
    lay_exits(board, "J28", {1, 0}, "interchange")
    board.place_marker("K27", 0, 6)
    board.place_marker("J26", 0, 6)
    if blocked:
        board.place_marker("J28", 0, 15)
    return board


def test_ix7_route_needs_two_revenue_locations() -> None:
    """A single stop is no route (IX.7): H28 with its marker and no track onwards earns 0."""
    board = new_board()
    lay_exits(board, "H28", {1, 2}, "interchange")  # towards H26 and G27: both empty hexes
    board.place_marker("H28", 0, 4)
    ctx = context(board, 4, maintenance=-50)
    assert best_route(ctx) is None  # R-LR-8: no route, no maintenance
    refused("IX.7", check_route, ctx, "H28.0")


def test_ix7_route_needs_own_station_marker() -> None:
    """J24-J26-J28-K27 without any marker of line 5 on it is no route of line 5 (IX.7)."""
    board = _row_j_board()
    ctx = context(board, 5)
    assert best_route(ctx) is None
    refused("IX.7", check_route, ctx, "J24.0-J26.0")


def test_ix7_no_revenue_location_twice() -> None:
    board = _row_j_board()
    refused("IX.7", check_route, context(board, 6), "J24.0-J26.0-J24.0")


def test_ix7_blocked_interchange_only_at_an_end() -> None:
    """Line 15 fills J28's only circle: line 6 may end at J28 but not run through it to K27.

    Open: J24 10 + J26 20 + J28 0 (no marker of 6) + K27 20 = 50.
    Blocked: the best is 30 (J24-J26, or J24-J26-J28 ending at the blocked J28 for 0 more);
    K27 is out of reach beyond J28 (K27-J28 alone would be 20).
    """
    open_run = best_route(context(_row_j_board(), 6))
    assert open_run is not None
    assert open_run.revenue == 50
    assert open_run.stops == (("J24", 0), ("J26", 0), ("J28", 0), ("K27", 0))
    assert open_run.parts == (10, 20, 0, 20)
    board = _row_j_board(blocked=True)
    ctx = context(board, 6)
    run = best_route(ctx)
    assert run is not None
    assert run.revenue == 30
    assert run.stops[:2] == (("J24", 0), ("J26", 0)) and ("K27", 0) not in run.stops
    assert check_route(ctx, "J24.0-J26.0-J28.0").revenue == 30
    assert check_route(ctx, "K27.0-J28.0").revenue == 20  # a blocked end is fine
    refused("IX.7", check_route, ctx, "J24.0-J26.0-J28.0-K27.0")


def test_r_lr6_red_area_ends_a_route() -> None:
    """J26 and J28 both run into K27 (Simmering): a route may end there, never pass through.

    Line 6 has markers on K27, J26 and J28: K27-J26-J28 = 20 + 20 + 20 = 60 is valid,
    J26-K27-J28 is refused (R-LR-6).
    """
    board = new_board()
    lay_exits(board, "J26", {5, 4}, "interchange")
    lay_exits(board, "J28", {1, 0}, "interchange")
    for coord in ("K27", "J26", "J28"):
        board.place_marker(coord, 0, 6)
    ctx = context(board, 6)
    run = best_route(ctx)
    assert run is not None and run.revenue == 60
    assert run.stops[0] == ("K27", 0) or run.stops[-1] == ("K27", 0)
    refused("R-LR-6", check_route, ctx, "J26.0-K27.0-J28.0")


def test_r_lr6_inner_city_without_red_tile_cannot_be_entered() -> None:
    """F18 points at the empty inner-city hex E19 (Hofburg): no stop there, no route."""
    board = new_board()
    lay_exits(board, "F18", {3, 1}, "interchange")
    board.place_marker("F18", 0, 7)
    ctx = context(board, 7)
    assert best_route(ctx) is None
    refused("R-LR-6", check_route, ctx, "F18.0-E19.0")


def test_r_lr6_empty_station_is_no_revenue_location_but_x6_end() -> None:
    """H28 (line 4) points at the empty railway station I27.

    Rules: I27 is no revenue location, so line 4 has no route.  18xx.games ruleset (X-6): the
    empty station is a valid end worth 0, H28-I27 = 20.
    """
    board = new_board()
    lay_exits(board, "H28", {0, 1}, "interchange")
    board.place_marker("H28", 0, 4)
    assert best_route(context(board, 4)) is None
    refused("R-LR-6", check_route, context(board, 4), "H28.0-I27.0")
    ctx = context(board, 4, ruleset="18xx.games")
    run = best_route(ctx)
    assert run is not None
    assert run.stops == (("H28", 0), ("I27", 0)) and run.revenue == 20
    assert check_route(ctx, "I27.0-H28.0").revenue == 20


def test_ix7_dotted_stadtbahn_track_is_never_used() -> None:
    """G23 carries the W line's yellow Stadtbahn tile (dotted track only): G25 pointing at it
    finds no stop there."""
    board = new_board()
    board.lay("G23", "L1", 1)
    lay_exits(board, "G25", {1, 4}, "interchange")
    board.place_marker("G25", 0, 9)
    ctx = context(board, 9)
    assert best_route(ctx) is None
    refused("IX.7", check_route, ctx, "G25.0-G23.0")


def test_ix7_separate_locations_of_one_purple_tile() -> None:
    """Südbahnhof J22 with L24 at rotation 0 has separate halts (location 1 at edge 1, location
    2 at edge 2).  J20 (halt, exits 3, 4) and I21 (line 18's interchange, exits 0, 5) close a
    loop: J22.1 - J20 - I21 - J22.2 = 10 + 10 + 20 + 10 = 50 visits two halts of one tile."""
    board = new_board()
    board.lay("J22", "L24", 0)
    lay_exits(board, "J20", {3, 4})
    lay_exits(board, "I21", {0, 5}, "interchange")
    board.place_marker("I21", 0, 18)
    run = best_route(context(board, 18))
    assert run is not None
    assert run.revenue == 50
    assert set(run.stops) == {("J22", 1), ("J20", 0), ("I21", 0), ("J22", 2)}


def test_ix2_no_reversing_at_a_junction() -> None:
    """J10 (line 8) and J12 both run into the Liesing connector K11, whose two tracks meet at
    its edge towards K9: J10 -> K11 -> J12 would reverse there (IX.2) and J10-K9-J12 would
    pass through the red area (R-LR-6).  Line 8 also has a marker on K9 (Liesing, an
    interchange: it counts only with the line's marker, IX.8).  The best is J10-K9 = 20 + 30."""
    board = new_board()
    lay_exits(board, "J10", {5, 1}, "interchange")
    lay_exits(board, "J12", {0, 4})
    board.place_marker("J10", 0, 8)
    board.place_marker("K9", 0, 8)
    ctx = context(board, 8)
    run = best_route(ctx)
    assert run is not None
    assert run.revenue == 50 and run.stops == (("J10", 0), ("K9", 0))
    assert [c for c, _ in run.paths] == ["J10", "K11", "K9"]
    refused("IX.2", check_route, ctx, "J10.0-J12.0")
    refused("R-LR-6", check_route, ctx, "J10.0-K9.0-J12.0")


def test_ix2_stops_must_be_joined_by_track() -> None:
    board = _row_j_board()
    refused("IX.2", check_route, context(board, 6), "J26.0-K27.0")


def test_r_lr6_red_inner_city_tile_ends_a_route_and_earns_the_landmark() -> None:
    """Hofburg E19 with the red tile L20 (rotation 2: track to D18, F20, F18, E17).  Line 7 runs
    F16 (halt 10) - F18 (its marker, 20) - E19: the red tile has no marker of line 7 so it
    earns 0, but with the Hofburg private the landmark adds 20: 50 (interpretations: the
    bonus also counts at an unmarked red tile).  It cannot run on through E19 to E17."""
    board = new_board()
    board.lay("E19", "L20", 2)
    lay_exits(board, "F18", {3, 1}, "interchange")
    lay_exits(board, "F16", {4, 1})
    lay_exits(board, "E17", {4, 1}, "interchange")
    board.place_marker("F18", 0, 7)
    ctx = context(board, 7, landmarks={"E19"})
    run = best_route(ctx)
    assert run is not None
    assert run.stops == (("E19", 0), ("F18", 0), ("F16", 0))
    assert (run.parts, run.landmark_bonus, run.revenue) == ((0, 20, 10), 20, 50)
    assert best_route(context(board, 7)).revenue == 30  # type: ignore[union-attr]
    refused("R-LR-6", check_route, ctx, "F18.0-E19.0-E17.0")


def test_ix2_track_twice_is_only_possible_through_a_red_area() -> None:
    """IX.2 forbids a piece of track twice; on this map only R-LR-6 ever meets such a route.

    A link of a route is the track between two stops; it crosses a border by the one tram path
    that touches that border on each side (a tile path always runs to a location), so every
    link over a border joins the same two stops, and two links of one route over it would
    visit a stop twice (IX.7) -- except at a junction of plain track.  The only junctions are
    connectors K11 and K17 of the two-hex red areas Liesing (K9) and Favoriten (K15), whose
    two tracks meet at the border to K9 and K15, and red areas end every route (R-LR-6):
    :func:`test_ix2_no_reversing_at_a_junction` shows J10-K9-J12 refused there.  So the
    "track used twice" check of ``check_route`` (validate.py) is a guard no route of this map
    reaches first, and its mutants are equivalent; this test fails when new map data or tiles
    add another junction, and the check then needs a test of its own."""
    from tramways.g1840.data import LAYOUTS, load_layout, tiles

    def shared_edges(paths) -> set[int]:  # type: ignore[no-untyped-def]
        seen: list[int] = [e.edge for p in paths if p.track == "tram"
                           for e in (p.a, p.b) if e.edge is not None]
        return {e for e in seen if seen.count(e) > 1}

    assert all(not shared_edges(t.paths) for t in tiles().values())
    for name in LAYOUTS:
        layout = load_layout(name)
        junctions = {(c, e) for c, h in layout.hexes.items() for e in shared_edges(h.paths)}
        assert junctions == {("K11", 1), ("K17", 1)}, name
        for coord, edge in junctions:
            red = layout.hexes[layout.hexes[coord].neighbours[edge]]
            assert red.area == "offboard_red"
            assert red.paths and all(p.terminal for p in red.paths if p.track == "tram")


def _liesing_passable():
    """A made-up board for IX.2 alone: the full map with Liesing (K9) an ordinary interchange
    on single track (on the real map it ends every route, R-LR-6, and its track to the
    connector K11 is double).  K11's two tracks (to J10 and to J12) meet at its edge to K9,
    so a route J10 - K9 - J12 would run the K9-K11 stretch twice."""
    from dataclasses import replace

    from tramways.g1840.board import Board
    from tramways.g1840.data import load_layout
    from tramways.g1840.model import FrozenDict

    layout = load_layout("full")
    k9 = layout.hexes["K9"]
    paths = tuple(replace(p, terminal=False, lanes=1) for p in k9.paths)
    hexes = FrozenDict({**layout.hexes, "K9": replace(k9, paths=paths)})
    return Board(replace(layout, name="liesing-passable", hexes=hexes))


def test_ix2_a_route_may_not_run_a_piece_of_track_twice() -> None:
    """J10 (exits 5 to K11 and 1) - K9 - J12 (exits 0 to K11 and 4), line 8 on J10 and K9:
    J10 -> K11 -> K9 and K9 -> K11 -> J12 both cross the K9-K11 border: refused (IX.2), with
    or without the exit edges named.  Each half alone is a route; the best is J10 20 + K9 30
    = 50 (J10-K9-J12 would be 60)."""
    board = _liesing_passable()
    lay_exits(board, "J10", {5, 1}, "interchange")
    lay_exits(board, "J12", {0, 4})
    board.place_marker("J10", 0, 8)
    board.place_marker("K9", 0, 8)
    ctx = context(board, 8)
    for route in ("J10.0-K9.0-J12.0", "J12.0-K9.0-J10.0", "J10.0>5-K9.0>4-J12.0"):
        refused("IX.2", check_route, ctx, route)
    assert check_route(ctx, "J10.0-K9.0").hexes == ("J10", "K11", "K9")
    run = best_route(ctx)
    assert run is not None and run.revenue == 50
    assert run.stops == (("J10", 0), ("K9", 0))


def test_ix2_of_two_tracks_between_stops_the_route_takes_the_one_not_yet_used() -> None:
    """J10 now points at K11 (exit 5) and straight at K9 (exit 0): J12 - K9 - J10 is a route
    over K11 to K9 and then the direct track to J10 (the track back over K11 is used
    already); asked for the track over K11 (leaving K9 by edge 4) it is refused (IX.2)."""
    board = _liesing_passable()
    lay_exits(board, "J10", {5, 0}, "interchange")
    lay_exits(board, "J12", {0, 4})
    board.place_marker("J10", 0, 8)
    ctx = context(board, 8)
    run = check_route(ctx, "J12.0-K9.0-J10.0")
    assert run.hexes == ("J10", "K9", "K11", "J12")
    assert run.text == "J10.0>0-K9.0-J12.0"
    refused("IX.2", check_route, ctx, "J12.0-K9.0>4-J10.0")


def test_ix2_a_stop_off_the_map_or_a_location_the_hex_lacks_is_refused() -> None:
    board = _row_j_board()
    ctx = context(board, 6)
    for route in ("A1.0-J26.0", "J26.0-J24.5"):
        refused("IX.2", check_route, ctx, route)


def test_routes_text_names_the_edge_between_two_tracks_in_the_middle_of_a_route() -> None:
    """J26 - J28 - K27 where J28 reaches K27 twice (straight and over K29): the text names
    the edge at J28, the second stop."""
    board = new_board()
    lay_exits(board, "J26", {4, 1}, "interchange")
    lay_exits(board, "J28", {5, 0, 1, 2}, "interchange")
    board.place_marker("J28", 0, 6)
    ctx = context(board, 6)
    run = check_route(ctx, "J26.0-J28.0>5-K27.0")
    assert run.text == "J26.0-J28.0>5-K27.0"
    assert run.hexes == ("J26", "J28", "K29", "K27")
    assert check_route(ctx, "K27.0-J28.0-J26.0").text in ("J26.0-J28.0>0-K27.0",
                                                           "J26.0-J28.0>5-K27.0")
