"""IX.6 establishing stations (with R-LR-4 and R-LR-5): positive and negative cases."""

from __future__ import annotations

from tests.support import refused
from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.legality import (
    PERMANENT_STADTBAHN_MARKERS,
    SimpleBuildState,
    StationPlacement,
    check_marker_removal,
    check_station,
    legal_marker_removals,
    legal_station_placements,
    next_marker_cost,
)
from tramways.g1840.legality.stations import area_of


def fresh(phase: str = "yellow") -> SimpleBuildState:
    return SimpleBuildState(Board(load_layout("full")), phase)


def operate(state: SimpleBuildState, line: int, coord: str, location: int = 0) -> None:
    state.board.place_marker(coord, location, line)
    state.operated.add(line)


def line7_to_e17(state: SimpleBuildState) -> None:
    """Line 7 on F18, track F18 - F16 - E15 (interchange) - E17 (OO, home of line 3)."""
    operate(state, 7, "F18")
    state.board.lay("F18", "57", 1)  # edges 1, 4
    state.board.lay("F16", "58", 2)  # edges 2, 4
    state.board.lay("E15", "5", 4)  # edges 4, 5
    state.board.lay("E17", "235", 1)  # circle 0 with track to edge 1 (E15)


def test_ix6_home_base_marker_first_and_free() -> None:
    state = fresh()
    assert legal_station_placements(state, 5) == [StationPlacement("G15", 0, 0, home=True)]
    err = refused("IX.6", check_station, state, 5, "E11", 0)
    assert "home base" in err.message
    placements = legal_station_placements(state, 1)
    assert [(p.coord, p.location, p.cost, p.home) for p in placements] == [
        ("D18", 0, 0, True), ("D18", 1, 0, True)]


def test_ix6_lines_1_and_2_take_any_free_circle_on_d18() -> None:
    state = fresh()
    operate(state, 1, "D18", 1)
    assert legal_station_placements(state, 2) == [StationPlacement("D18", 0, 0, home=True)]


def test_ix6_marker_costs_follow_the_charter() -> None:
    state = fresh()
    line7_to_e17(state)
    assert next_marker_cost(state.board, 7) == 20
    assert check_station(state, 7, "E15", 0).cost == 20
    costs = []
    for coord in ("B12", "D4", "E3", "J10", "J16"):
        costs.append(next_marker_cost(state.board, 7))
        state.board.place_marker(coord, 0, 7)
    assert costs == [20, 40, 60, 80, 100]
    assert next_marker_cost(state.board, 7) is None
    err = refused("IX.6", check_station, state, 7, "E15", 0)
    assert "six" in err.message


def test_ix6_bonus_marker_is_free_r_lr_4() -> None:
    state = fresh()
    line7_to_e17(state)
    placements = legal_station_placements(state, 7, free=True)
    assert placements and {p.cost for p in placements} == {0}
    assert {p.cost for p in legal_station_placements(state, 7)} == {20}


def test_ix6_only_on_unoccupied_interchange_circles() -> None:
    state = fresh()
    line7_to_e17(state)
    err = refused("IX.6", check_station, state, 7, "F16", 0)  # a halt
    assert "interchange" in err.message
    operate(state, 9, "E15")
    err = refused("IX.6", check_station, state, 7, "E15", 0)
    assert "occupied" in err.message


def test_ix6_one_marker_per_hex_per_line() -> None:
    state = fresh("green")
    line7_to_e17(state)
    state.board.lay("F18", "14", 1)  # two circles on line 7's home hex
    assert state.board.free_slots("F18", 0) == 1
    err = refused("IX.6", check_station, state, 7, "F18", 0)
    assert "already" in err.message
    assert "F18" not in {p.coord for p in legal_station_placements(state, 7)}


def test_ix6_multi_hex_red_area_counts_as_one() -> None:
    layout = load_layout("full")
    board = Board(layout)
    assert area_of(board, "K11") == ("K9", "K11")
    assert area_of(board, "E11") == ("E11",)
    for area in layout.areas:
        circles = [(c, loc.id) for c in area.hexes for loc in layout.hexes[c].locations
                   if loc.kind == "interchange"]
        assert len(circles) <= 1, area.name


def test_ix6_new_marker_needs_an_unblocked_connection() -> None:
    state = fresh()
    line7_to_e17(state)
    assert check_station(state, 7, "E17", 0).cost == 20  # leaves circle 1 for line 3
    err = refused("IX.6", check_station, state, 7, "F14", 0)
    assert "connection" in err.message
    operate(state, 9, "E15")  # E15 full of another line's marker: the way is blocked
    err = refused("IX.6", check_station, state, 7, "E17", 0)
    assert "connection" in err.message


def test_ix6_home_circle_kept_free_for_a_line_not_yet_operating() -> None:
    state = fresh()
    operate(state, 7, "F18")
    state.board.lay("F18", "57", 1)  # edges 1, 4
    state.board.lay("F16", "58", 4)  # edges 4, 0
    state.board.lay("G15", "5", 2)  # edges 2, 3: line 5's home, one circle
    err = refused("IX.6", check_station, state, 7, "G15", 0)
    assert "home base" in err.message
    state.phase = "green"
    state.board.lay("G15", "14", 2)  # two circles now: one may be taken
    assert check_station(state, 7, "G15", 0).cost == 20


def test_ix6_d18_keeps_a_circle_for_each_of_lines_1_and_2() -> None:
    state = fresh()
    operate(state, 3, "E17")
    state.board.lay("E17", "235", 3)  # circle 0 with track towards D18
    state.board.lay("D18", "235", 0)  # circle 0 with track towards E17
    refused("IX.6", check_station, state, 3, "D18", 0)
    operate(state, 1, "D18", 1)
    refused("IX.6", check_station, state, 3, "D18", 0)  # the last circle is line 2's


def test_ix6_stadtbahn_markers_removable_for_40_except_termini_r_lr_5() -> None:
    state = fresh()
    operate(state, 1, "D18")
    removals = legal_marker_removals(state, 1)
    assert {r.coord for r in removals} == {
        "A13", "B10", "C7", "D12", "D22", "E23", "F6", "G3", "I15", "I9"}
    assert {r.cost for r in removals} == {40}
    assert PERMANENT_STADTBAHN_MARKERS == {"I1", "A17", "I11", "F24"}
    refused("R-LR-5", check_marker_removal, state, 1, "I11", 0)
    refused("IX.6", check_marker_removal, state, 1, "E11", 0)
    removal = check_marker_removal(state, 1, "G3", 0)  # no connection needed
    assert (removal.company, removal.cost) == ("V", 40)


def test_ix6_after_removing_a_stadtbahn_marker_the_line_may_station_there() -> None:
    state = fresh()
    operate(state, 10, "D4")
    operate(state, 9, "C7")  # C7 (two circles) now holds V and line 9: full
    state.board.lay("D4", "57", 0)  # edges 0, 3 (towards C5)
    state.board.lay("C5", "58", 4)  # edges 4 (C7), 0 (D4)
    refused("IX.6", check_station, state, 10, "C7", 0)
    removal = check_marker_removal(state, 10, "C7", 0, "V")
    state.board.remove_marker(removal.coord, removal.location, removal.company)
    assert check_station(state, 10, "C7", 0).cost == 20


def test_ix6_first_marker_leaves_a_circle_for_another_lines_home_base() -> None:
    """D18 is the home of lines 1 and 2: with one of its two circles held (here by line 3's
    marker, put there by hand), line 1's home marker may not take the last one: it is line 2's."""
    state = fresh()
    state.board.place_marker("D18", 0, 3)
    state.operated.add(3)
    err = refused("IX.6", check_station, state, 1, "D18", 1)
    assert "another home base" in err.message
    assert legal_station_placements(state, 1) == []
    assert legal_station_placements(state, 2) == []


def _every_accepted_placement(state: SimpleBuildState, line: int) -> list[StationPlacement]:
    found = []
    for coord in sorted(state.board.layout.hexes):
        for loc in state.board.locations(coord):
            try:
                found.append(check_station(state, line, coord, loc.id))
            except IllegalAction:
                continue
    return found


def test_ix6_legal_station_placements_lists_every_accepted_placement() -> None:
    """Brute force over every location of the map: the list is exactly what check_station
    accepts, home markers (both D18 circles) and later ones alike."""
    state = fresh()
    for line in (1, 5, 7, 12):
        assert legal_station_placements(state, line) == _every_accepted_placement(state, line)
    line7_to_e17(state)
    listed = legal_station_placements(state, 7)
    assert listed == _every_accepted_placement(state, 7)
    assert [(p.coord, p.location) for p in listed] == [("E15", 0), ("E17", 0)]
    state.phase = "green"
    state.board.lay("F20", "14", 1)  # a green interchange on F20, joined to F18
    state.board.lay("F18", "14", 1)
    listed = legal_station_placements(state, 7)
    assert listed == _every_accepted_placement(state, 7)
    assert ("F20", 0) in {(p.coord, p.location) for p in listed}


def test_ix6_line_1_takes_the_circle_line_2_left_free_on_d18() -> None:
    """Line 2 holds D18's first circle: line 1's home marker is listed on the second (the
    first circle refused does not end the listing of the hex)."""
    state = fresh()
    operate(state, 2, "D18", 0)
    assert legal_station_placements(state, 1) == [StationPlacement("D18", 1, 0, home=True)]


def test_ix6_a_hex_off_the_map_is_refused_for_markers_and_removals() -> None:
    state = fresh()
    operate(state, 7, "F18")
    refused("IX.6", check_station, state, 7, "A1", 0)
    refused("IX.6", check_marker_removal, state, 7, "A1", 0)
