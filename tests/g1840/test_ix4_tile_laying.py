"""IX.4 laying tiles (with R-LR-2, R-LR-10, R-LR-11): positive and negative cases."""

from __future__ import annotations

from tests.support import refused
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout
from tramways.g1840.legality import SimpleBuildState, check_tile_lay, legal_tile_lays
from tramways.g1840.legality.tiles import first_tiles


def fresh(phase: str = "yellow", layout: str = "full") -> SimpleBuildState:
    return SimpleBuildState(Board(load_layout(layout)), phase)


def operate(state: SimpleBuildState, line: int, coord: str, location: int = 0) -> None:
    state.board.place_marker(coord, location, line)
    state.operated.add(line)


def line7_network(state: SimpleBuildState) -> None:
    """Line 7 on F18 with track F18 - F16 - E15 (interchange) pointing on to D14."""
    operate(state, 7, "F18")
    state.board.lay("F18", "57", 1)  # edges 1, 4
    state.board.lay("F16", "58", 2)  # edges 2, 4
    state.board.lay("E15", "57", 2)  # edges 2, 5


def test_ix4_first_turn_tile_goes_on_home_base_r_lr_2() -> None:
    state = fresh()
    operate(state, 12, "E11")
    lays = legal_tile_lays(state, 12, first_turn=True)
    assert {lay.coord for lay in lays} == {"E11"}
    assert {lay.tile_id for lay in lays} == {"5", "6", "57"}
    err = refused("R-LR-2", check_tile_lay, state, 12, "E9", "3", 3, first_turn=True)
    assert "home base E11" in err.message
    assert check_tile_lay(state, 12, "E11", "5", 0, first_turn=True).coord == "E11"


def test_ix4_first_turn_rule_lapses_when_home_already_tiled_r_lr_2() -> None:
    state = fresh()
    operate(state, 12, "E11")
    state.board.lay("E11", "5", 0)
    lays = legal_tile_lays(state, 12, first_turn=True)
    assert "E9" in {lay.coord for lay in lays}
    assert check_tile_lay(state, 12, "E9", "3", 3, first_turn=True).coord == "E9"


def test_ix4_first_turn_rule_lapses_on_grey_or_red_home_r_lr_2() -> None:
    state = fresh()
    operate(state, 9, "C7")  # line 9: the grey hex C7
    assert check_tile_lay(state, 9, "B6", "58", 3, first_turn=True).coord == "B6"
    state = fresh()
    operate(state, 6, "K27")  # line 6: the red area Simmering
    coords = {lay.coord for lay in legal_tile_lays(state, 6, first_turn=True)}
    assert coords == {"J26", "J28"}


def test_ix4_first_tiles_per_white_hex_kind_match_the_map_data() -> None:
    for name in ("full", "small3", "two_player"):
        for coord, h in load_layout(name).hexes.items():
            if h.area in ("plain", "danube", "interchange", "interchange_OO"):
                assert sorted(first_tiles(h.area)) == sorted(h.first_tiles), (name, coord)
    assert first_tiles("plain") == ("3", "58", "4")
    assert first_tiles("interchange") == ("5", "6", "57")
    assert first_tiles("interchange_OO") == ("235",)
    assert first_tiles("stadtbahn") == first_tiles("fixed") == ()


def test_ix4_halt_tiles_on_open_hexes() -> None:
    state = fresh()
    operate(state, 12, "E11")
    state.board.lay("E11", "5", 0)
    # tile 3 (sharp curve) at rotation 3 has edges 3 and 4: edge 4 meets E11.
    lay = check_tile_lay(state, 12, "E9", "3", 3)
    assert (lay.tile_id, lay.cost, lay.upgrade) == ("3", 0, False)
    err = refused("IX.4", check_tile_lay, state, 12, "E9", "5", 3)
    assert "halt" in err.message
    refused("IX.4", check_tile_lay, state, 12, "E9", "235", 4)


def test_ix4_interchange_tiles_on_interchange_hexes() -> None:
    state = fresh()
    operate(state, 12, "E11")
    assert check_tile_lay(state, 12, "E11", "57", 0).tile_id == "57"
    err = refused("IX.4", check_tile_lay, state, 12, "E11", "4", 0)
    assert "interchange" in err.message


def test_ix4_oo_hexes_take_only_the_oo_tile() -> None:
    state = fresh()
    operate(state, 1, "D18")
    lays = legal_tile_lays(state, 1, first_turn=True)
    assert {lay.tile_id for lay in lays} == {"235"}
    assert len(lays) == 6
    refused("IX.4", check_tile_lay, state, 1, "D18", "5", 0)


def test_ix4_tile_must_be_reachable_from_a_marker() -> None:
    state = fresh()
    operate(state, 12, "E11")
    state.board.lay("E11", "5", 0)
    lays = legal_tile_lays(state, 12)
    # E9 is entered at its edge 4 (from E11) and edge 5 (through the grey F10's halt).
    e9 = [x for x in lays if x.coord == "E9"]
    assert e9
    for lay in e9:
        assert state_tile_exits(lay.tile_id, lay.rotation) & {4, 5}
    err = refused("IX.4", check_tile_lay, state, 12, "D10", "4", 0)
    assert "reachable" in err.message
    # E9 with track that does not meet E11 is not connected either.
    refused("IX.4", check_tile_lay, state, 12, "E9", "3", 0)


def state_tile_exits(tile_id: str, rotation: int) -> frozenset[int]:
    from tramways.g1840.data import tiles

    return tiles()[tile_id].exits_at(rotation)


def test_ix4_interchange_full_of_other_markers_blocks_the_way() -> None:
    state = fresh()
    line7_network(state)
    # D14 meets E15's edge 2 at its edge 5; tile 4 at rotation 2 has edges 2 and 5.
    assert check_tile_lay(state, 7, "D14", "4", 2).coord == "D14"
    operate(state, 9, "E15")  # another line fills E15's only circle
    err = refused("IX.4", check_tile_lay, state, 7, "D14", "4", 2)
    assert "reachable" in err.message
    assert "D14" not in {lay.coord for lay in legal_tile_lays(state, 7)}


def test_ix4_own_marker_lets_the_line_through_its_interchange() -> None:
    state = fresh()
    line7_network(state)
    state.board.place_marker("E15", 0, 7)
    assert check_tile_lay(state, 7, "D14", "4", 2).coord == "D14"


def test_ix4_danube_hex_costs_40_r_lr_10() -> None:
    state = fresh()
    operate(state, 17, "A29")  # Floridsdorf: its arrow points at the Danube hex B28
    lays = [lay for lay in legal_tile_lays(state, 17, first_turn=True) if lay.coord == "B28"]
    assert lays and {lay.cost for lay in lays} == {40}
    state_plain = fresh()
    operate(state_plain, 12, "E11")
    state_plain.board.lay("E11", "5", 0)
    assert check_tile_lay(state_plain, 12, "E9", "3", 3).cost == 0


def test_ix4_no_track_off_the_map_edge() -> None:
    state = fresh()
    operate(state, 10, "D4")
    state.board.lay("D4", "5", 0)  # exits 0 (E3) and 1 (D2)
    # D2's edges 0, 1, 2 lead off the map; edge 4 meets D4.
    assert check_tile_lay(state, 10, "D2", "3", 3).coord == "D2"  # edges 3, 4
    err = refused("IX.4", check_tile_lay, state, 10, "D2", "3", 0)  # would need edges 0, 1
    assert "off the map" in err.message or "reachable" in err.message
    err = refused("IX.4", check_tile_lay, state, 10, "D2", "4", 1)  # edges 1, 4: edge 1 is off the map
    assert "off the map" in err.message
    rotations = {lay.rotation for lay in legal_tile_lays(state, 10)
                 if lay.coord == "D2" and lay.tile_id == "3"}
    assert rotations == {3, 4}


def test_ix4_no_track_into_a_grey_hex_without_an_arrow() -> None:
    state = fresh()
    operate(state, 18, "I21")
    state.board.lay("I21", "6", 0)  # exits 0 (J20) and 2 (H20)
    # H20 meets I21 at its edge 5; its edge 4 faces Belvedere H22, which has no arrow there.
    err = refused("IX.4", check_tile_lay, state, 18, "H20", "5", 4)  # edges 4, 5
    assert "H22" in err.message
    assert check_tile_lay(state, 18, "H20", "5", 5).coord == "H20"  # edges 5, 0


def test_ix4_track_may_meet_arrows_of_grey_red_and_station_hexes() -> None:
    state = fresh()
    operate(state, 9, "C7")
    # B6: edge 3 faces the grey hex A7 (arrow), edge 5 meets C7.
    assert check_tile_lay(state, 9, "B6", "58", 3).coord == "B6"  # edges 3, 5
    err = refused("IX.4", check_tile_lay, state, 9, "B6", "58", 0)  # edges 0, 2: edge 2 is off the map
    assert "off the map" in err.message or "reachable" in err.message
    state = fresh()
    operate(state, 1, "D18")
    state.board.lay("D18", "235", 3)  # exit 3 towards C19
    # C19: edge 0 meets D18; edge 5 faces inner-city D20 (arrow), edge 1 station C17 (arrow).
    assert check_tile_lay(state, 1, "C19", "3", 5).coord == "C19"  # edges 5, 0
    assert check_tile_lay(state, 1, "C19", "3", 0).coord == "C19"  # edges 0, 1


def test_ix4_markers_move_to_the_new_tile_in_place() -> None:
    state = fresh()
    operate(state, 12, "E11")
    lay = check_tile_lay(state, 12, "E11", "57", 2, first_turn=True)
    assert lay.mapping == {0: 0}
    lay.apply(state.board)
    assert state.board.markers("E11") == {0: (12,)}
    state = fresh()
    operate(state, 2, "D18", 1)  # alone on the OO hex: its circle gets 235's track
    lay = check_tile_lay(state, 2, "D18", "235", 0, first_turn=True)
    assert lay.mapping == {0: 1, 1: 0}
    lay.apply(state.board)
    assert state.board.markers("D18") == {0: (2,)}


def test_ix4_oo_tile_gives_the_laying_lines_marker_the_track() -> None:
    state = fresh()
    operate(state, 1, "D18", 0)
    operate(state, 2, "D18", 1)
    lay = check_tile_lay(state, 2, "D18", "235", 3, first_turn=True)
    assert lay.mapping == {0: 1, 1: 0}  # 235's circle 0 is the one with track
    lay.apply(state.board)
    assert state.board.markers("D18") == {0: (2,), 1: (1,)}
    assert ("D18", 0) in state.board.reach(2).locations
    assert check_tile_lay(fresh_oo(), 1, "D18", "235", 3, first_turn=True).mapping == {
        0: 0, 1: 1}


def fresh_oo() -> SimpleBuildState:
    state = fresh()
    operate(state, 1, "D18", 0)
    operate(state, 2, "D18", 1)
    return state


def test_ix4_tile_must_be_in_the_supply_r_lr_11() -> None:
    state = fresh()
    operate(state, 12, "E11")
    for coord in ("D24", "F14", "F20", "F22", "F28"):  # all five 57s elsewhere on the map
        state.board.lay(coord, "57", 0)
    assert state.board.available("57") == 0
    err = refused("R-LR-11", check_tile_lay, state, 12, "E11", "57", 0)
    assert "supply" in err.message
    assert "57" not in {lay.tile_id for lay in legal_tile_lays(state, 12)}


def test_ix4_special_tiles_are_not_normal_lays() -> None:
    state = fresh()
    operate(state, 1, "D18")
    state.board.lay("D18", "235", 4)  # exit 4 towards D20
    refused("IX.4", check_tile_lay, state, 1, "D20", "L20", 4)  # red only as a bonus
    refused("IX.4", check_tile_lay, state, 1, "C17", "L24", 0)  # purple only as a bonus
    refused("IX.4", check_tile_lay, state, 1, "B16", "L1", 1)  # Stadtbahn tile only as the Stadtbahn lay


def test_ix4_no_tile_on_fixed_or_red_hexes() -> None:
    state = fresh()
    operate(state, 9, "C7")
    refused("IX.4", check_tile_lay, state, 9, "C7", "5", 0)
    refused("IX.4", check_tile_lay, state, 9, "A7", "3", 0)
