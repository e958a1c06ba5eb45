"""The 1840 data files: layouts, tiles, supply (III.4.1, XII, XIII, R-SETUP-3, R-LR-7, R-LR-11)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from types import MappingProxyType

import pytest

from tramways.g1840.data import (
    LAYOUTS,
    DataError,
    _check_paths,
    _path,
    _validate_layout,
    initial_supply,
    layout_for,
    load_layout,
    supply_key,
    tile_chart,
    tiles,
)
from tramways.g1840.model import End, LocationDef, opposite


@pytest.mark.parametrize(("name", "count"), [("full", 148), ("small3", 113), ("two_player", 89)])
def test_every_layout_loads_with_its_hex_count(name: str, count: int) -> None:
    layout = load_layout(name)
    assert layout.name == name
    assert len(layout.hexes) == count


def test_unknown_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown layout"):
        load_layout("tiny")


@pytest.mark.parametrize("name", LAYOUTS)
def test_neighbours_are_symmetric(name: str) -> None:
    layout = load_layout(name)
    for coord, h in layout.hexes.items():
        for edge, nb in h.neighbours.items():
            assert layout.hexes[nb].neighbours[opposite(edge)] == coord


def test_readme_worked_example_neighbours_of_f24() -> None:
    f24 = load_layout("full").hex("F24")
    assert dict(f24.neighbours) == {
        0: "G23", 1: "F22", 2: "E23", 3: "E25", 4: "F26", 5: "G25"
    }


def test_setup3_layout_for_player_counts() -> None:
    assert layout_for(2, small_map=False).name == "two_player"
    assert layout_for(2, small_map=True).name == "two_player"
    assert layout_for(3, small_map=True).name == "small3"
    assert layout_for(3, small_map=False).name == "full"
    assert layout_for(6).name == "full"


def test_full_map_has_all_18_lines_and_their_home_bases() -> None:
    layout = load_layout("full")
    assert layout.lines_in_game == tuple(range(1, 19))
    assert set(layout.home_bases) == set(range(1, 19))
    assert layout.home_bases[1] == layout.home_bases[2] == "D18"
    assert layout.home_bases[6] == "K27"  # Simmering, a red area
    assert layout.hex("D18").home_of == (1, 2)
    assert layout.stadtbahn_companies == ("W", "V", "G", "D")
    assert len(layout.privates_in_game) == 6


def test_xii_small_map_removes_lines_v_and_prater() -> None:
    layout = load_layout("small3")
    assert layout.lines_removed == (9, 10, 13, 14, 16, 17)
    assert set(layout.lines_in_game) == set(range(1, 19)) - {9, 10, 13, 14, 16, 17}
    assert set(layout.home_bases) == set(layout.lines_in_game)
    assert layout.stadtbahn_companies == ("W", "G", "D")
    assert "V" not in layout.stadtbahn_lines
    assert layout.privates_removed == ("Prater",)
    assert "Prater" not in layout.privates_in_game
    assert "D28" not in layout.landmarks


def test_xiii_two_player_map_removes_lines_v_prater_and_schoenbrunn() -> None:
    layout = load_layout("two_player")
    assert layout.lines_in_game == (1, 2, 3, 4, 5, 6, 7, 15, 18)
    assert set(layout.home_bases) == set(layout.lines_in_game)
    assert layout.stadtbahn_companies == ("W", "G", "D")
    assert set(layout.privates_removed) == {"Prater", "Schloss Schönbrunn"}
    assert set(layout.landmarks.values()) == {
        "Karlskirche", "Schloss Belvedere", "Hofburg", "Stephansdom"
    }


@pytest.mark.parametrize("name", LAYOUTS)
def test_one_home_base_hex_per_line_in_game(name: str) -> None:
    layout = load_layout(name)
    for line in layout.lines_in_game:
        coord = layout.home_bases[line]
        assert line in layout.hex(coord).home_of
    homes = {line for h in layout.hexes.values() for line in h.home_of}
    assert homes == set(layout.lines_in_game)


def test_iv2_landmarks_on_the_full_map() -> None:
    layout = load_layout("full")
    assert dict(layout.landmarks) == {
        "D28": "Prater", "E21": "Karlskirche", "H22": "Schloss Belvedere",
        "E19": "Hofburg", "D20": "Stephansdom", "K7": "Schloss Schönbrunn",
    }
    assert layout.hex("D20").landmark == "Stephansdom"


@pytest.mark.parametrize("name", LAYOUTS)
def test_stadtbahn_start_markers_match_the_hexes(name: str) -> None:
    layout = load_layout(name)
    from_lines = {
        (coord, loc, company)
        for company, line in layout.stadtbahn_lines.items()
        for coord, loc in line.markers_at_start
    }
    from_hexes = {
        (coord, loc, company)
        for coord, h in layout.hexes.items()
        for company, loc in h.stadtbahn_markers
        if company in layout.stadtbahn_companies
    }
    assert from_lines == from_hexes


def test_iv13_stadtbahn_lines_on_the_full_map() -> None:
    lines = load_layout("full").stadtbahn_lines
    assert {c: len(line.route) for c, line in lines.items()} == {"W": 14, "V": 12, "G": 10, "D": 7}
    assert {c: len(line.markers_at_start) for c, line in lines.items()} == {
        "W": 4, "V": 6, "G": 3, "D": 4
    }
    assert lines["G"].termini == (("A17", 0), ("I11", 0))
    assert lines["W"].buildable[0] == "G23"
    assert lines["W"].buildable[-1] == "I3"
    assert {c: line.revenue_before_any_tile for c, line in lines.items()} == {
        "W": 0, "V": 70, "G": 0, "D": 70
    }


def test_two_player_w_line_is_shorter() -> None:
    w = load_layout("two_player").stadtbahn_lines["W"]
    assert len(w.route) == 9
    assert w.termini == (("F24", 1), ("I11", 1))


def test_stadtbahn_hex_facts() -> None:
    h = load_layout("full").hex("B10")
    assert h.stadtbahn is not None
    assert h.stadtbahn.company == "V"
    assert h.stadtbahn.sequence_index == 0
    assert h.stadtbahn.required_exits == (0, 3)
    assert h.stadtbahn.bonus_action == "lay_additional_yellow_tile"
    assert dict(h.stadtbahn.yellow_tile_options) == {"L4": (0, 3)}
    assert h.lay_cost == 20


def test_ix4_danube_costs_40() -> None:
    costs = {h.coord: h.lay_cost for h in load_layout("full").hexes.values() if h.lay_cost == 40}
    assert len(costs) == 1
    (coord,) = costs
    assert load_layout("full").hex(coord).area == "danube"


def test_ix4_first_tiles_by_area() -> None:
    layout = load_layout("full")
    assert layout.hex("E25").first_tiles == ("3", "58", "4")
    assert layout.hex("F22").first_tiles == ("5", "6", "57")
    assert layout.hex("D18").first_tiles == ("235",)
    assert layout.hex("D18").label == "OO"
    assert layout.hex("F24").first_tiles == ("L30b", "L31b")
    assert layout.hex("G11").first_tiles == ("L30a", "L31a")
    assert set(layout.hex("D20").first_tiles) == {"L20", "L21", "L22", "L23"}
    assert dict(layout.hex("D20").red_tile_rotations)["L20"] == (4,)
    assert not layout.hex("K9").laying_allowed


def test_inner_city_impassable_edges() -> None:
    layout = load_layout("full")
    assert layout.hex("D20").impassable_edges == (0, 5)
    assert layout.hex("E19").impassable_edges == (3, 4)
    assert layout.hex("E21").impassable_edges == (1, 2)


def test_red_areas_are_terminal_and_two_lane_connector() -> None:
    layout = load_layout("full")
    k9 = layout.hex("K9")
    assert all(p.terminal for p in k9.paths)
    assert any(p.lanes == 2 for p in k9.paths)
    k11 = layout.hex("K11")
    assert {p.a.lane for p in k11.paths} == {(2, 0), (2, 1)}
    assert layout.hex("A13").paths[0].terminal is False  # Grinzing: III.4.1 exception


def test_r_lr_7_value_uses_newest_printed_colour() -> None:
    liesing = load_layout("full").hex("K9").location(0)
    assert [liesing.value(p) for p in ("yellow", "green", "brown", "grey")] == [30, 40, 50, 60]
    partial = LocationDef(0, "interchange", MappingProxyType({"yellow": 20, "brown": 50}), 1)
    assert partial.value("green") == 20
    assert partial.value("grey") == 50
    assert LocationDef(0, "halt", 10).value("grey") == 10


def test_tiles_all_58_definitions() -> None:
    all_tiles = tiles()
    assert len(all_tiles) == 58
    assert all_tiles["L30a"].chart_id == "L30"
    assert all_tiles["L30b"].only_on_hex == "F24"
    assert all_tiles["L30b"].fixed_rotation == 0
    assert all_tiles["235"].label == "OO"
    assert all_tiles["L1"].orange_edged
    assert all_tiles["3"].upgrades == ("142", "141", "143")
    for tile in all_tiles.values():
        for up in tile.upgrades:
            assert up in all_tiles


def test_l31a_duplicate_source_path_is_dropped() -> None:
    assert len(tiles()["L31a"].paths) == 6


def test_tile_paths_at_rotation() -> None:
    tile = tiles()["3"]
    assert {e for p in tile.paths_at(0) for e in p.edges} == {0, 1}
    assert {e for p in tile.paths_at(2) for e in p.edges} == {2, 3}
    assert {e for p in tile.paths_at(5) for e in p.edges} == {5, 0}
    assert tile.paths_at(8) == tile.paths_at(2)
    assert tile.exits_at(1) == frozenset({1, 2})
    assert tiles()["L5"].exits_at(0, "stadtbahn") == frozenset({1, 5})


def test_r_lr_11_tile_chart() -> None:
    chart = tile_chart()
    assert sum(chart.values()) == 176  # I. Components: 176 track tiles
    assert chart["L16"] == 2
    assert chart["L30"] == chart["L31"] == 1
    assert "L30a" not in chart
    by_colour: Counter[str] = Counter()
    orange: Counter[str] = Counter()
    for tile_id, tile in tiles().items():
        if tile_id.endswith("b"):
            continue  # one physical L30/L31 serves both versions
        target = orange if tile.orange_edged else by_colour
        target[tile.colour] += chart[tile.chart_id]
    assert dict(by_colour) == {
        "yellow": 47, "green": 41, "brown": 23, "grey": 4, "purple": 8, "red": 4
    }
    assert dict(orange) == {"yellow": 28, "green": 18, "brown": 3}


def test_r_lr_11_rules_supply_shares_l30_between_versions() -> None:
    supply = initial_supply()
    assert supply == dict(tile_chart())
    assert supply_key("L30a") == supply_key("L30b") == "L30"
    assert supply_key("58") == "58"


def test_x7_18xx_supply_has_separate_versions_and_one_l16() -> None:
    supply = initial_supply("18xx.games")
    assert supply["L30a"] == supply["L30b"] == supply["L31a"] == supply["L31b"] == 1
    assert supply["L16"] == 1
    assert sum(supply.values()) == 177
    assert supply_key("L30a", "18xx.games") == "L30a"
    with pytest.raises(ValueError):
        initial_supply("house rules")


def test_bad_path_text_is_a_data_error() -> None:
    with pytest.raises(DataError, match="bad path end"):
        _path("e7 l0 tram", "here")
    with pytest.raises(DataError, match="bad path"):
        _path("e0 l0 monorail", "here")
    assert _path("e1:0/2 e2 tram", "here").a == End(edge=1, lane=(2, 0))


def test_path_to_missing_location_is_a_data_error() -> None:
    with pytest.raises(DataError, match="missing location 3"):
        _check_paths((_path("e0 l3 tram", "x"),), (LocationDef(0, "halt", 10),), "x")


def test_asymmetric_neighbours_are_a_data_error() -> None:
    layout = load_layout("full")
    f24 = layout.hex("F24")
    broken_hex = dataclasses.replace(f24, neighbours=MappingProxyType({**f24.neighbours, 1: "F26"}))
    broken = dataclasses.replace(
        layout, hexes=MappingProxyType({**layout.hexes, "F24": broken_hex})
    )
    with pytest.raises(DataError, match="F24"):
        _validate_layout(broken)


@pytest.mark.parametrize("name", LAYOUTS)
def test_ix4_stadtbahn_tile_options_cover_the_printed_dotted_route(name: str) -> None:
    layout = load_layout(name)
    all_tiles = tiles()
    for h in layout.hexes.values():
        if h.stadtbahn is None:
            continue
        required = frozenset(h.stadtbahn.required_exits)
        planned = {e for p in h.paths if p.track == "stadtbahn_planned" for e in p.edges}
        assert not planned or planned == required, h.coord
        assert h.stadtbahn.yellow_tile_options, h.coord
        for tile_id, rotations in h.stadtbahn.yellow_tile_options.items():
            tile = all_tiles[tile_id]
            assert tile.orange_edged and tile.colour == "yellow"
            assert any(loc.is_interchange for loc in tile.locations) == h.stadtbahn.has_interchange
            for rotation in rotations:
                assert tile.exits_at(rotation, "stadtbahn") == required, (h.coord, tile_id)


@pytest.mark.parametrize("name", LAYOUTS)
def test_stadtbahn_routes_are_chains_of_neighbours(name: str) -> None:
    layout = load_layout(name)
    for line in layout.stadtbahn_lines.values():
        for here, there in zip(line.route, line.route[1:], strict=False):
            assert there in layout.hex(here).neighbours.values(), (line.company, here, there)
        assert line.route[0] == line.termini[0][0]
        assert line.route[-1] == line.termini[1][0]


def test_ix4_red_tiles_point_no_track_across_the_inner_city_borders() -> None:
    layout = load_layout("full")
    all_tiles = tiles()
    for coord in ("D20", "E19", "E21"):
        h = layout.hex(coord)
        for tile_id, rotations in h.red_tile_rotations.items():
            for rotation in rotations:
                exits = all_tiles[tile_id].exits_at(rotation)
                assert exits == frozenset(h.tram_exits), (coord, tile_id)
                assert not exits & set(h.impassable_edges)


def test_ix4_special_purple_tiles_match_their_station_hexes() -> None:
    layout = load_layout("full")
    for tile_id in ("L30a", "L30b", "L31a", "L31b"):
        tile = tiles()[tile_id]
        h = layout.hex(tile.only_on_hex or "")
        assert tile.exits_at(0) == frozenset(h.tram_exits)
        assert tile.exits_at(0, "stadtbahn") == frozenset(h.stadtbahn_exits)


def test_ix8_landmarks_add_20() -> None:
    layout = load_layout("full")
    for coord in layout.landmarks:
        assert layout.hex(coord).landmark_bonus == 20
    assert layout.hex("E25").landmark_bonus == 0


def test_ix5_colour_availability() -> None:
    from tramways.g1840.data import colour_availability

    assert dict(colour_availability()) == {
        "yellow": "LR1a", "green": "LR2a", "brown": "LR4a", "grey": "LR5a",
        "red": "LR1a", "purple": "LR1a",
    }
