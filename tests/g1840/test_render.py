"""The 1840 board drawing: SVG structure, what is drawn where, PNG bytes."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.model import End, PathDef
from tramways.g1840.render import LINE_COLOURS, render_png, render_svg
from tramways.g1840.render.geometry import (
    SQRT3,
    apothem,
    edge_angle,
    edge_curve,
    edge_midpoint,
    hex_centre,
)
from tramways.g1840.render.layout import place_locations
from tramways.g1840.render.palette import PHASE_COLOURS, TILE_COLOURS, text_colour_on

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def hex_polygons(root: ET.Element) -> dict[str, ET.Element]:
    return {
        el.get("data-coord"): el for el in root.iter(f"{SVG}polygon") if el.get("class") == "hex"
    }


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}g") if el.get("class") == cls]


def texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{SVG}text")]


@pytest.fixture(scope="module")
def full_board() -> Board:
    return Board(load_layout("full"))


# ------------------------------------------------------------------------------- geometry


def test_grid_neighbours_lie_across_their_edge() -> None:
    """README grid: the neighbour on edge e is in direction e (0 SW, 1 W ... 4 E, 5 SE)."""
    size = 10.0
    layout = load_layout("full")
    checked = 0
    for coord, hexdef in layout.hexes.items():
        x, y = hex_centre(coord, size)
        for edge, other in hexdef.neighbours.items():
            ox, oy = hex_centre(other, size)
            assert math.isclose(math.dist((x, y), (ox, oy)), 2 * apothem(size))
            angle = math.atan2(oy - y, ox - x) % (2 * math.pi)
            assert math.isclose(angle, edge_angle(edge) % (2 * math.pi), abs_tol=1e-9)
            checked += 1
    assert checked > 700


def test_edge_midpoints_of_a_pointy_top_hex() -> None:
    a = apothem(10.0)
    assert edge_midpoint(4, 10.0) == pytest.approx((a, 0.0))
    assert edge_midpoint(1, 10.0) == pytest.approx((-a, 0.0))
    assert edge_midpoint(0, 10.0) == pytest.approx((-a / 2, a * SQRT3 / 2))  # lower left
    assert edge_midpoint(3, 10.0) == pytest.approx((a / 2, -a * SQRT3 / 2))  # upper right


def test_track_curves_meet_edges_and_bend_the_right_amount() -> None:
    size = 10.0
    assert edge_curve(1, 4, size).kind == "straight"
    assert edge_curve(1, 4, size).mid == pytest.approx((0.0, 0.0))
    sharp = edge_curve(0, 1, size)
    assert sharp.kind == "sharp"
    assert math.hypot(*sharp.mid) == pytest.approx(size / 2)
    gentle = edge_curve(0, 2, size)
    assert gentle.kind == "gentle"
    assert math.hypot(*gentle.mid) == pytest.approx(2 * apothem(size) - 1.5 * size)
    # the arc starts and ends on the edge midpoints
    assert gentle.samples[0] == pytest.approx(edge_midpoint(0, size))
    assert gentle.samples[-1] == pytest.approx(edge_midpoint(2, size))
    assert edge_curve(2, 0, size).mid == pytest.approx(gentle.mid)


def test_halt_with_two_exits_sits_on_its_curve() -> None:
    from tramways.g1840.data import tiles

    tile = tiles()["58"]  # halt on a gentle curve, edges 0 and 2
    spots = place_locations(tile.locations, tile.paths_at(0), 10.0)
    assert spots[0].curve == (0, 2)
    assert spots[0].point == pytest.approx(edge_curve(0, 2, 10.0).mid)


def test_two_interchanges_of_an_oo_hex_do_not_overlap() -> None:
    layout = load_layout("full")
    for coord in ("D18", "E17", "H10"):
        hexdef = layout.hexes[coord]
        spots = place_locations(hexdef.locations, hexdef.paths, 10.0)
        assert math.dist(spots[0].point, spots[1].point) >= 2 * 0.2 * 10.0


# ------------------------------------------------------------------------------- the SVG


@pytest.mark.parametrize(("layout", "count"), [("full", 148), ("small3", 113), ("two_player", 89)])
def test_svg_is_xml_with_one_hex_per_map_hex(layout: str, count: int) -> None:
    root = parse(render_svg(Board(load_layout(layout))))
    assert root.tag == f"{SVG}svg"
    polygons = hex_polygons(root)
    assert len(polygons) == count
    assert set(polygons) == set(load_layout(layout).hexes)


def test_printed_terrain_colours(full_board: Board) -> None:
    polygons = hex_polygons(parse(render_svg(full_board)))
    assert polygons["F22"].get("fill") == "#ffffff"  # plain interchange hex
    assert polygons["G17"].get("fill") == "#fcdcb0"  # light-orange Stadtbahn hex
    assert polygons["D20"].get("fill") == "#f6c3bd"  # light-red inner city
    assert polygons["F24"].get("fill") == "#b98fd6"  # purple railway station
    assert polygons["K9"].get("fill") == "#e0312b"  # red off-board area
    assert polygons["D28"].get("fill") == "#a9d69a"  # Prater: green park
    assert polygons["C7"].get("fill") == "#c3c4c7"  # Hernals: grey


def test_laid_tile_is_drawn_in_its_colour_with_its_id() -> None:
    board = Board(load_layout("full"))
    board.lay("F26", "57", 1)
    root = parse(render_svg(board))
    assert hex_polygons(root)["F26"].get("fill") == TILE_COLOURS["yellow"]
    tile_ids = [el.text for el in root.iter(f"{SVG}text") if el.get("class") == "tile-id"]
    assert tile_ids == ["57"]


def test_ix6_placed_marker_shows_the_line_number() -> None:
    board = Board(load_layout("full"))
    board.lay("G15", "57", 0)
    before = [g.get("data-owner") for g in groups(parse(render_svg(board)), "marker")]
    board.place_marker("G15", 0, 5)
    markers = groups(parse(render_svg(board)), "marker")
    added = [g for g in markers if g.get("data-owner") == "5"]
    assert "5" not in before
    assert len(added) == 1
    assert texts(added[0]) == ["5"]
    disc = next(added[0].iter(f"{SVG}circle"))
    assert disc.get("fill") == LINE_COLOURS[5]


def test_stadtbahn_markers_at_start_are_drawn(full_board: Board) -> None:
    owners = sorted(g.get("data-owner") for g in groups(parse(render_svg(full_board)), "marker"))
    expected = sorted(
        company
        for hexdef in full_board.layout.hexes.values()
        for company, _ in hexdef.stadtbahn_markers
    )
    assert owners == expected
    assert set(owners) == {"W", "V", "G", "D"}


def test_r_lr_7_revenue_boxes_on_red_areas_highlight_the_phase(full_board: Board) -> None:
    root = parse(render_svg(full_board, phase="brown"))
    rows = groups(root, "revenue-boxes")
    phased_red = [
        h
        for h in full_board.layout.hexes.values()
        if h.area == "offboard_red" and any(not isinstance(loc.revenue, int) for loc in h.locations)
    ]
    assert len(phased_red) == 9
    assert len(rows) == len(phased_red)
    current = [
        (rect, text)
        for row in rows
        for rect, text in zip(row.iter(f"{SVG}rect"), row.iter(f"{SVG}text"), strict=True)
        if rect.get("class") == "phase-current"
    ]
    assert len(current) == len(rows)
    assert all(rect.get("fill") == PHASE_COLOURS["brown"] for rect, _ in current)
    # Liesing (K9) is 30/40/50/60: 50 in the brown phase
    assert "50" in {text.text for _, text in current}


def test_phase_must_be_a_tile_colour(full_board: Board) -> None:
    with pytest.raises(ValueError, match="phase"):
        render_svg(full_board, phase="purple")


def test_impassable_inner_city_borders_are_drawn(full_board: Board) -> None:
    root = parse(render_svg(full_board))
    lines = [el for el in root.iter(f"{SVG}line") if el.get("class") == "impassable"]
    expected = sum(len(h.impassable_edges) for h in full_board.layout.hexes.values())
    assert expected == 6
    assert len(lines) == expected


def test_home_bases_show_the_reserved_line_number(full_board: Board) -> None:
    root = parse(render_svg(full_board))
    homes = sorted(int(el.text or 0) for el in root.iter(f"{SVG}text") if el.get("class") == "home")
    assert homes == sorted(full_board.layout.lines_in_game)


def test_routes_overlay_in_the_line_colour(full_board: Board) -> None:
    run = SimpleNamespace(
        paths=(
            ("F22", PathDef(End(edge=1), End(location=0))),
            ("F22", PathDef(End(location=0), End(edge=4))),
        ),
        stops=(("F22", 0),),
        hexes=("F22",),
        revenue=20,
        total=20,
    )
    root = parse(render_svg(full_board, routes=[(7, run)], title="routes"))
    drawn = groups(root, "route")
    assert [g.get("data-line") for g in drawn] == ["7"]
    assert drawn[0].get("stroke") == LINE_COLOURS[7]
    assert len(list(drawn[0].iter(f"{SVG}path"))) == 2
    assert "line 7: 20" in texts(root)
    assert "routes" in texts(root)


def test_eighteen_distinct_line_colours() -> None:
    assert sorted(LINE_COLOURS) == list(range(1, 19))
    assert len(set(LINE_COLOURS.values())) == 18
    assert text_colour_on("#ffffff") == "#000000"
    assert text_colour_on("#000000") == "#ffffff"


def test_png_starts_with_the_png_signature() -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        pytest.skip("cairosvg / libcairo not installed")
    data = render_png(Board(load_layout("two_player")), scale=0.5)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("layout", "count"), [("full", 6), ("small3", 5), ("two_player", 4)])
def test_iv2_landmarks_are_marked_with_a_star(layout: str, count: int) -> None:
    board = Board(load_layout(layout))
    root = parse(render_svg(board))
    stars = [el for el in root.iter(f"{SVG}polygon") if el.get("class") == "landmark"]
    assert len(stars) == len(board.layout.landmarks) == count
    tips = {(el.findtext(f"{SVG}title") or "").split(":")[0] for el in stars}
    assert tips == {f"landmark {name}" for name in board.layout.landmarks.values()}


def test_ix6_home_of_line_2_still_shown_after_line_1_starts() -> None:
    board = Board(load_layout("full"))
    board.place_marker("D18", 0, 1)
    root = parse(render_svg(board))
    homes = sorted(int(el.text or 0) for el in root.iter(f"{SVG}text") if el.get("class") == "home")
    assert 1 not in homes
    assert 2 in homes
    assert len(homes) == len(board.layout.lines_in_game) - 1


@pytest.mark.parametrize("rotation", range(6))
def test_every_tile_draws_at_every_rotation(rotation: int) -> None:
    """All 58 tiles laid at once (no legality check): the SVG stays well-formed and shows each id."""
    from tramways.g1840.data import tiles

    layout = load_layout("full")
    board = Board(layout, ruleset="18xx.games")
    for coord, by_location in list(board.all_markers().items()):
        for location, owners in list(by_location.items()):
            for owner in owners:
                board.remove_marker(coord, location, owner)
    ids = sorted(tiles())
    for coord, tile_id in zip(sorted(layout.hexes), ids, strict=False):
        board.lay(coord, tile_id, rotation)
    root = parse(render_svg(board))
    shown = sorted(el.text or "" for el in root.iter(f"{SVG}text") if el.get("class") == "tile-id")
    assert shown == ids


def test_crossing_halts_of_a_stadtbahn_tile_are_apart() -> None:
    """L10: a tram halt and a Stadtbahn halt on crossing straight tracks get separate places."""
    from tramways.g1840.data import tiles

    tile = tiles()["L10"]
    spots = place_locations(tile.locations, tile.paths_at(0), 10.0)
    assert math.dist(spots[0].point, spots[1].point) >= 0.3 * 10.0
