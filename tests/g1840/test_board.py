"""The 1840 board: tiles, markers, supply and the connectivity walk (IX.2, IX.4-IX.6, R-LR-6,
R-LR-11, X-7)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tramways.g1840.board import Board, Placed, default_location_map
from tramways.g1840.data import load_layout, supply_key, tile_chart, tiles


def full_board() -> Board:
    return Board(load_layout("full"))


def on_map_plus_supply(board: Board) -> dict[str, int]:
    total: Counter[str] = Counter(dict(board.supply))
    for placed in board.placed().values():
        total[supply_key(placed.tile_id, board.ruleset)] += 1
    return dict(total)


# ---------------------------------------------------------------- the printed board


def test_iv13_new_board_has_stadtbahn_markers_at_start() -> None:
    board = full_board()
    assert board.placed() == {}
    assert board.markers("F24") == {1: ("W",), 2: ("D",)}
    assert board.markers("A17") == {0: ("G",), 1: ("V",), 2: ("D",)}
    assert sorted(board.line_markers("V")) == [
        ("A13", 0), ("A17", 1), ("B10", 0), ("C7", 0), ("F6", 0), ("G3", 0)
    ]
    assert len(board.line_markers("G")) == 3


def test_xii_small_map_board_has_no_v_markers() -> None:
    board = Board(load_layout("small3"))
    assert board.line_markers("V") == []
    assert board.markers("A17") == {0: ("G",), 2: ("D",)}


def test_neighbour_none_off_map_and_across_impassable_edges() -> None:
    board = full_board()
    assert board.neighbour("F24", 0) == "G23"
    assert board.neighbour("D20", 1) == "D18"
    assert board.neighbour("D20", 0) is None  # E19, across the inner-city border
    assert board.neighbour("E19", 3) is None
    assert board.neighbour("K9", 0) is None  # off the map


def test_paths_and_locations_follow_the_laid_tile() -> None:
    board = full_board()
    assert board.paths("E25") == ()
    assert board.locations("F22")[0].kind == "interchange"
    board.lay("E25", "3", 2)
    assert board.tile("E25") == Placed("3", 2)
    assert {e for p in board.paths("E25") for e in p.edges} == {2, 3}
    assert board.locations("E25") == tiles()["3"].locations
    assert board.tile_def("E25") is tiles()["3"]


# ---------------------------------------------------------------- supply


def test_tile_supply_equals_rules_chart() -> None:
    board = full_board()
    chart = dict(tile_chart())
    assert on_map_plus_supply(board) == chart
    board.lay("E25", "58", 0)
    board.lay("F22", "57", 1)
    board.lay("F24", "L30b", 0)
    board.lay("G11", "L31a", 0)
    assert on_map_plus_supply(board) == chart
    assert board.supply["L30"] == 0
    assert board.supply["58"] == 11
    board.lay("F22", "14", 0)  # upgrade: 57 goes back
    board.lay("E25", "142", 0)
    assert on_map_plus_supply(board) == chart
    assert board.supply["57"] == 5
    assert board.supply["58"] == 12
    assert board.supply["14"] == 4


def test_ix5_lay_returns_the_replaced_tile_to_the_supply() -> None:
    board = full_board()
    assert board.lay("F22", "5", 0) is None
    assert board.supply["5"] == 4
    assert board.lay("F22", "619", 0) == "5"
    assert board.supply["5"] == 5
    assert board.supply["619"] == 4


def test_r_lr_11_one_l30_serves_both_versions() -> None:
    board = full_board()
    assert board.available("L30a") == board.available("L30b") == 1
    board.lay("G11", "L30a", 0)
    assert board.available("L30b") == 0
    with pytest.raises(ValueError, match="no tile L30b left"):
        board.lay("F24", "L30b", 0)
    assert board.tile("F24") is None
    assert board.available("L16") == 2


def test_x7_18xx_ruleset_has_separate_l30_versions() -> None:
    board = Board(load_layout("full"), ruleset="18xx.games")
    board.lay("G11", "L30a", 0)
    assert board.available("L30b") == 1
    assert board.available("L16") == 1
    assert on_map_plus_supply(board)["L30a"] == 1


# ---------------------------------------------------------------- markers


def test_ix5_lay_carries_markers_over_identity_by_default() -> None:
    board = full_board()
    board.lay("F22", "57", 1)
    board.place_marker("F22", 0, 3)
    board.lay("F22", "14", 0)
    assert board.markers("F22") == {0: (3,)}
    assert board.free_slots("F22", 0) == 1


def test_ix5_lay_carries_markers_with_a_location_map() -> None:
    board = full_board()
    board.place_marker("D18", 0, 1)
    board.place_marker("D18", 1, 2)
    board.lay("D18", "235", 0)
    assert board.markers("D18") == {0: (1,), 1: (2,)}
    board.lay("D18", "8858", 0, location_map={0: 1, 1: 0})
    assert board.markers("D18") == {1: (1,), 0: (2,)}
    board.lay("D18", "L17", 0, location_map={0: 0, 1: 0})
    assert set(board.markers("D18")[0]) == {1, 2}
    assert board.free_slots("D18", 0) == 0


def test_ix4_purple_f24_tile_takes_the_w_and_d_markers() -> None:
    board = full_board()
    mapping = default_location_map(board, "F24", "L31b", 0)
    assert mapping == {1: 0, 2: 1}
    board.lay("F24", "L31b", 0, location_map=mapping)
    assert board.markers("F24") == {0: ("W",), 1: ("D",)}
    assert default_location_map(full_board(), "F24", "L30b", 0) == {1: 1, 2: 2}


def test_lay_refuses_a_marker_without_a_place_and_leaves_the_board_as_it_was() -> None:
    board = full_board()
    board.lay("D18", "235", 0)
    board.place_marker("D18", 1, 2)
    version, supply = board.version, dict(board.supply)
    with pytest.raises(ValueError, match="no place"):
        board.lay("D18", "5", 0)
    assert board.version == version
    assert dict(board.supply) == supply
    assert board.tile("D18") == Placed("235", 0)


def test_place_and_remove_markers() -> None:
    board = full_board()
    with pytest.raises(ValueError, match="not an interchange"):
        board.place_marker("A7", 0, 9)  # a printed halt
    board.place_marker("K9", 0, 8)
    board.place_marker("K9", 0, 7)
    assert board.markers("K9") == {0: (8, 7)}
    with pytest.raises(ValueError, match="no free slot"):
        board.place_marker("K9", 0, 6)
    board.remove_marker("K9", 0, 8)
    assert board.markers("K9") == {0: (7,)}
    board.remove_marker("K9", 0, 7)
    assert board.markers("K9") == {}
    with pytest.raises(ValueError, match="no marker"):
        board.remove_marker("K9", 0, 7)


def test_r_lr_5_removing_a_stadtbahn_marker_frees_the_circle() -> None:
    board = full_board()
    assert board.is_blocked("B10", 0, 13)
    board.remove_marker("B10", 0, "V")
    assert not board.is_blocked("B10", 0, 13)
    assert board.free_slots("B10", 0) == 1


def test_ix2_is_blocked_only_when_full_without_own_marker() -> None:
    board = full_board()
    board.lay("F20", "57", 1)
    assert not board.is_blocked("F20", 0, 7)
    board.place_marker("F20", 0, 3)
    assert board.is_blocked("F20", 0, 7)
    assert not board.is_blocked("F20", 0, 3)
    board.lay("F20", "14", 0)  # two circles: one still free
    assert not board.is_blocked("F20", 0, 7)
    board.lay("E25", "3", 0)
    assert not board.is_blocked("E25", 0, 7)  # halts never block


# ---------------------------------------------------------------- copying and versions


def test_copy_is_independent() -> None:
    board = full_board()
    board.lay("F22", "57", 1)
    other = board.copy()
    assert other.version == board.version
    other.lay("F22", "14", 0)
    other.place_marker("F22", 0, 3)
    assert board.tile("F22") == Placed("57", 1)
    assert board.markers("F22") == {}
    assert board.supply["14"] == 5
    assert other.version != board.version


def test_json_round_trip() -> None:
    board = straight_row()
    board.place_marker("F20", 0, 3)
    board.lay("F24", "L31b", 0, location_map={1: 0, 2: 1})
    data = board.to_json()
    assert data["tiles"]["F24"] == ["L31b", 0]
    assert ["F24", 0, "W"] in data["markers"]
    again = Board.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert dict(again.supply) == dict(board.supply)
    assert again.reach(7) == board.reach(7)


def test_version_increments_on_every_change() -> None:
    board = full_board()
    seen = [board.version]
    board.lay("F22", "57", 1)
    seen.append(board.version)
    board.place_marker("F22", 0, 3)
    seen.append(board.version)
    board.remove_marker("F22", 0, 3)
    seen.append(board.version)
    assert seen == sorted(set(seen))


def test_ix6_markers_version_changes_with_the_markers_only() -> None:
    """A lay on a hex without markers keeps ``markers_version`` (each owner's marker list and
    the removals are kept by it); placing, removing and a lay that moves markers (IX.5) change
    it, and the lists follow every change, on the board and on a diverging copy."""
    board = full_board()
    start = board.markers_version
    board.lay("F22", "57", 1)
    assert board.markers_version == start and board.version != start
    board.place_marker("F22", 0, 3)
    placed = board.markers_version
    assert placed != start and board.line_markers(3) == [("F22", 0)]
    board.place_marker("D18", 0, 1)
    board.place_marker("D18", 1, 2)
    board.lay("D18", "235", 0)
    board.lay("D18", "8858", 0, location_map={0: 1, 1: 0})
    assert board.line_markers(1) == [("D18", 1)] and board.line_markers(2) == [("D18", 0)]
    other = board.copy()
    assert other.markers_version == board.markers_version
    other.remove_marker("F22", 0, 3)
    assert other.line_markers(3) == [] and board.line_markers(3) == [("F22", 0)]
    assert other.markers_version not in (board.markers_version, placed)


def test_reach_is_cached_per_version() -> None:
    board = full_board()
    board.lay("F18", "57", 1)
    board.place_marker("F18", 0, 7)
    first = board.reach(7)
    assert board.reach(7) is first
    board.lay("F20", "57", 1)
    second = board.reach(7)
    assert second is not first
    assert ("F20", 0) in second.locations


# ---------------------------------------------------------------- reach


def straight_row() -> Board:
    """F18 - F20 - F22: three straight interchange tiles (57 at rotation 1: edges 1 and 4)."""
    board = full_board()
    for coord in ("F18", "F20", "F22"):
        board.lay(coord, "57", 1)
    board.place_marker("F18", 0, 7)
    return board


def test_ix2_walk_follows_track_through_free_interchanges() -> None:
    board = straight_row()
    reach = board.reach(7)
    assert {("F18", 0), ("F20", 0), ("F22", 0)} <= reach.locations
    assert ("F24", 1) in reach.edges  # points at the empty purple station
    assert ("F16", 4) in reach.edges  # and at the empty hex on the other side
    assert {"F16", "F18", "F20", "F22", "F24"} <= reach.hexes


def test_ix2_blocked_interchange_stops_the_walk() -> None:
    board = straight_row()
    board.place_marker("F20", 0, 3)
    reach = board.reach(7)
    assert ("F20", 0) in reach.locations  # reached ...
    assert ("F20", 4) not in reach.edges  # ... but not passed
    assert ("F22", 0) not in reach.locations


def test_ix2_own_marker_lets_the_line_through() -> None:
    board = straight_row()
    board.place_marker("F20", 0, 3)
    reach = board.reach(3)
    assert {("F18", 0), ("F20", 0), ("F22", 0)} <= reach.locations
    assert ("F16", 4) not in reach.edges  # F18 is full with line 7's marker


def test_ix5_new_free_circle_reopens_the_walk() -> None:
    board = straight_row()
    board.place_marker("F20", 0, 3)
    board.lay("F20", "14", 0)
    assert ("F22", 0) in board.reach(7).locations


def test_ix2_no_reversing_at_a_junction_and_red_area_is_terminal() -> None:
    # J10 (57 at rotation 2: edges 2 and 5) leads into the Liesing connector K11.
    board = full_board()
    board.lay("J10", "57", 2)
    board.place_marker("J10", 0, 8)
    reach = board.reach(8)
    assert ("K9", 0) in reach.locations  # K11 lane 0 -> K9
    assert ("K11", 3) not in reach.edges  # no turning back at K11's edge-1 junction
    assert ("J12", 0) not in reach.edges
    assert ("J8", 5) not in reach.edges  # K9 ends the walk (R-LR-6)
    assert ("I9", 5) in reach.edges


def test_r_lr_6_a_marker_in_a_red_area_can_start_a_walk() -> None:
    board = full_board()
    board.place_marker("K9", 0, 8)
    reach = board.reach(8)
    assert {("J8", 5), ("J10", 0), ("K11", 1), ("J10", 5), ("J12", 0)} <= reach.edges


def test_ix7_dotted_stadtbahn_track_never_counts() -> None:
    # J10 (57 at rotation 0: edges 0 and 3) -> I11 Wien: only the tram halt is usable.
    board = full_board()
    board.lay("J10", "57", 0)
    board.place_marker("J10", 0, 8)
    reach = board.reach(8)
    assert ("I11", 1) in reach.locations
    assert ("I11", 0) not in reach.locations
    assert ("I11", 2) not in reach.locations
    assert ("J12", 2) in reach.edges  # on through the tram halt
    assert ("H12", 0) not in reach.edges
    assert ("I13", 1) not in reach.edges


def test_ix7_orange_tile_tram_track_counts_its_dotted_track_does_not() -> None:
    board = full_board()
    board.lay("F20", "5", 0)  # edges 0 (towards G19) and 1
    board.place_marker("F20", 0, 9)
    board.lay("G19", "L5", 2)  # tram e2-l0-e4, dotted e3-l1-e1
    reach = board.reach(9)
    assert ("G19", 3) in reach.edges
    assert not any(coord == "G19" for coord, _ in reach.locations)
    board.lay("G19", "L5", 3)  # tram e3-l0-e5, dotted e4-l1-e2
    reach = board.reach(9)
    assert ("G19", 0) in reach.locations
    assert ("G19", 1) not in reach.locations
    assert ("H20", 2) in reach.edges
    assert ("G21", 1) not in reach.edges


def test_r_lr_6_untiled_inner_city_cannot_be_entered_red_tile_ends_walk() -> None:
    board = full_board()
    board.lay("D18", "235", 4)  # its track leaves by edge 4 towards D20
    board.place_marker("D18", 0, 1)
    reach = board.reach(1)
    assert ("D20", 1) in reach.edges
    assert not any(coord == "D20" for coord, _ in reach.locations)
    board.lay("D20", "L20", 4)
    reach = board.reach(1)
    assert ("D20", 0) in reach.locations
    assert ("C19", 5) not in reach.edges
    assert ("D22", 1) not in reach.edges


def test_r_lr_6_a_marker_on_a_red_tile_walks_out() -> None:
    board = full_board()
    board.lay("D20", "L20", 4)
    board.place_marker("D20", 0, 2)
    reach = board.reach(2)
    assert {("D18", 4), ("C19", 5), ("C21", 0), ("D22", 1)} <= reach.edges
    assert ("E19", 3) not in reach.edges  # impassable inner-city border


def test_r_lr_6_empty_purple_station_is_not_entered() -> None:
    board = full_board()
    board.lay("F22", "57", 1)
    board.place_marker("F22", 0, 3)
    reach = board.reach(3)
    assert ("F24", 1) in reach.edges
    assert not any(coord == "F24" for coord, _ in reach.locations)
    assert ("F26", 1) not in reach.edges
    board.lay("F24", "L30b", 0)
    reach = board.reach(3)
    assert ("F24", 0) in reach.locations  # the tram halt of the purple tile
    assert ("F24", 1) not in reach.locations  # W's Stadtbahn circle: dotted only
    assert ("F26", 1) in reach.edges


def test_walk_from_arbitrary_starts() -> None:
    board = straight_row()
    reach = board.walk([("F22", 0)], 3)
    assert ("F18", 0) in reach.locations  # F18 reached, but blocked for line 3
    assert ("F16", 4) not in reach.edges


# ---------------------------------------------------------------- property


LAYABLE = sorted(
    coord for coord, h in load_layout("full").hexes.items() if h.laying_allowed
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(LAYABLE), st.sampled_from(sorted(tiles())), st.integers(0, 5)),
        max_size=25,
    )
)
def test_supply_is_conserved_and_copies_are_independent(lays) -> None:
    board = full_board()
    chart = dict(tile_chart())
    snapshot = board.copy()
    for coord, tile_id, rotation in lays:
        if board.available(tile_id) == 0:
            continue
        before = (board.version, board.tile(coord), dict(board.supply), board.markers(coord))
        try:
            board.lay(coord, tile_id, rotation)
        except ValueError:  # a marker with no circle on the new tile: nothing changed
            assert (board.version, board.tile(coord), dict(board.supply),
                    board.markers(coord)) == before
        assert on_map_plus_supply(board) == chart
        for owners_by_loc in [board.markers(coord)]:
            for loc, owners in owners_by_loc.items():
                assert len(owners) <= board.location(coord, loc).slots
        board.reach("W")
    assert snapshot.placed() == {}
    assert on_map_plus_supply(snapshot) == chart


def test_ix5_default_location_map_follows_the_track_on_oo_upgrades() -> None:
    board = full_board()
    board.lay("D18", "235", 0)  # circle 0 on edge 0, circle 1 without track
    assert default_location_map(board, "D18", "8858", 0) == {0: 0, 1: 1}
    assert default_location_map(board, "D18", "8858", 5) == {0: 1, 1: 0}
    board.lay("D18", "8858", 5, location_map={0: 1, 1: 0})
    board.place_marker("D18", 0, 1)
    board.place_marker("D18", 1, 2)
    assert default_location_map(board, "D18", "L17", 0) == {1: 0}  # edge 1 would be lost
    mapping = default_location_map(board, "D18", "L17", 2)
    assert mapping == {0: 0, 1: 0}  # both circles merge into L17's two-slot circle
    board.lay("D18", "L17", 2, location_map=mapping)
    assert set(board.markers("D18")[0]) == {1, 2}
