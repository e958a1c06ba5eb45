"""IX.4 Stadtbahn tiles and their bonus actions (R-LR-1, R-LR-3, R-LR-10, R-LR-11)."""

from __future__ import annotations

from tests.support import refused
from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.legality import (
    BONUS_PURPLE,
    BONUS_RED,
    BONUS_STATION,
    BONUS_UPGRADE,
    BONUS_YELLOW,
    SimpleBuildState,
    bonus_action,
    check_bonus_lay,
    check_stadtbahn_lay,
    legal_bonus_lays,
    legal_stadtbahn_lays,
    stadtbahn_frontier,
)


def fresh(phase: str = "yellow", layout: str = "full") -> SimpleBuildState:
    return SimpleBuildState(Board(load_layout(layout)), phase)


def operate(state: SimpleBuildState, line: int, coord: str, location: int = 0) -> None:
    state.board.place_marker(coord, location, line)
    state.operated.add(line)


# ---------------------------------------------------------------- the Stadtbahn tile


def test_ix4_stadtbahn_tile_only_at_either_end_of_the_built_sequence_r_lr_3() -> None:
    state = fresh()
    assert stadtbahn_frontier(state.board, "W") == ("G23", "I3")
    assert stadtbahn_frontier(state.board, "G") == ("B16", "H12")
    assert stadtbahn_frontier(state.board, "D") == ("B20", "E23")
    assert stadtbahn_frontier(state.board, "V") == ("B10", "G5")
    operate(state, 1, "D18")
    coords = {lay.coord for lay in legal_stadtbahn_lays(state, 1)}
    assert coords == {"G23", "I3", "B16", "H12", "B20", "E23", "B10", "G5"}
    refused("R-LR-3", check_stadtbahn_lay, state, 1, "G21", "L2", 1)
    check_stadtbahn_lay(state, 1, "G23", "L1", 1).apply(state.board)
    assert stadtbahn_frontier(state.board, "W") == ("G21", "I3")
    assert check_stadtbahn_lay(state, 1, "G21", "L2", 1).coord == "G21"


def test_ix4_stadtbahn_tile_needs_no_tram_connection_r_lr_3() -> None:
    state = fresh()
    operate(state, 1, "D18")  # nowhere near I3
    lay = check_stadtbahn_lay(state, 1, "I3", "L2", 1)
    assert (lay.cost, lay.kind) == (20, "stadtbahn")


def test_ix4_stadtbahn_tile_costs_20_and_covers_the_dotted_route() -> None:
    state = fresh()
    operate(state, 1, "D18")
    lays = [lay for lay in legal_stadtbahn_lays(state, 1) if lay.coord == "G23"]
    assert [(lay.tile_id, lay.rotation, lay.cost) for lay in lays] == [("L1", 1, 20)]
    info = refused("IX.4", check_stadtbahn_lay, state, 1, "G23", "L1", 0)
    assert "dotted route" in info.message
    info = refused("IX.4", check_stadtbahn_lay, state, 1, "G23", "L3", 1)  # an interchange tile on a halt hex
    info = refused("IX.4", check_stadtbahn_lay, state, 1, "E11", "L1", 1)  # not a light-orange hex
    refused("IX.4", check_stadtbahn_lay, state, 1, "G23", "3", 1)  # not a Stadtbahn tile


def test_ix4_stadtbahn_tile_keeps_the_company_marker() -> None:
    state = fresh()
    operate(state, 1, "D18")
    lay = check_stadtbahn_lay(state, 1, "E23", "L4", 2)
    assert lay.mapping == {0: 0}
    lay.apply(state.board)
    assert state.board.markers("E23") == {0: ("D",)}


def test_ix4_stadtbahn_tile_options_keep_the_printed_route_everywhere() -> None:
    for name in ("full", "small3", "two_player"):
        layout = load_layout(name)
        for coord, h in layout.hexes.items():
            if h.stadtbahn is None:
                continue
            for tile_id, rotations in h.stadtbahn.yellow_tile_options.items():
                tile = tiles()[tile_id]
                for rotation in rotations:
                    assert tile.exits_at(rotation, "stadtbahn") == frozenset(
                        h.stadtbahn.required_exits), (name, coord)


def test_ix4_two_player_map_westbahnhof_is_a_stadtbahn_hex() -> None:
    state = fresh(layout="two_player")
    assert bonus_action(state, "G11") == BONUS_YELLOW
    assert stadtbahn_frontier(state.board, "W") == ("G23", "I13")
    assert "V" not in state.board.layout.stadtbahn_lines


# ---------------------------------------------------------------- bonus actions


def test_r_lr_1_bonus_action_is_printed_on_the_stadtbahn_hex() -> None:
    state = fresh()
    assert bonus_action(state, "G23") == BONUS_YELLOW
    assert bonus_action(state.board, "D12") == BONUS_UPGRADE
    assert bonus_action(state, "B14") == BONUS_RED
    assert bonus_action(state, "B20") == BONUS_PURPLE
    assert bonus_action(state, "E13") == BONUS_STATION
    assert bonus_action(state, "E11") is None


def test_ix4_one_purple_bonus_fewer_than_purple_hexes() -> None:
    for name in ("full", "small3", "two_player"):
        layout = load_layout(name)
        purple_hexes = [h for h in layout.hexes.values() if h.area == "railway_station"]
        bonuses = [h for h in layout.hexes.values()
                   if h.stadtbahn is not None and h.stadtbahn.bonus_action == BONUS_PURPLE]
        assert len(bonuses) == len(purple_hexes) - 1, name


def test_r_lr_3_bonus_yellow_tile_follows_the_normal_rules() -> None:
    state = fresh()
    operate(state, 12, "E11")
    state.board.lay("E11", "5", 0)
    lays = legal_bonus_lays(state, 12, BONUS_YELLOW)
    assert lays and {lay.kind for lay in lays} == {"bonus_yellow"}
    assert {lay.coord for lay in lays} == {"E9"}
    assert not any(lay.upgrade for lay in lays)
    assert check_bonus_lay(state, 12, BONUS_YELLOW, "E9", "3", 3).cost == 0
    refused("IX.4", check_bonus_lay, state, 12, BONUS_YELLOW, "D10", "4", 0)  # not reachable
    refused("R-LR-3", check_bonus_lay, state, 12, BONUS_YELLOW, "B16", "L1", 1)  # no Stadtbahn tile
    state.phase = "green"
    refused("R-LR-1", check_bonus_lay, state, 12, BONUS_YELLOW, "E11", "14", 0)  # no upgrade


def test_r_lr_3_bonus_yellow_tile_on_the_danube_costs_40() -> None:
    state = fresh()
    operate(state, 17, "A29")
    lays = legal_bonus_lays(state, 17, BONUS_YELLOW)
    assert lays and {lay.coord for lay in lays} == {"B28"}
    assert {lay.cost for lay in lays} == {40}


def test_r_lr_1_bonus_green_upgrade_from_lr2a_including_stadtbahn_tiles() -> None:
    state = fresh()
    operate(state, 4, "G25")
    state.board.lay("G25", "5", 0)  # edges 0 (H24), 1 (G23)
    state.board.lay("G23", "L1", 1)
    assert legal_bonus_lays(state, 4, BONUS_UPGRADE) == []
    refused("IX.5", check_bonus_lay, state, 4, BONUS_UPGRADE, "G25", "14", 0)
    state.phase = "green"
    lays = legal_bonus_lays(state, 4, BONUS_UPGRADE)
    assert {lay.coord for lay in lays} == {"G23", "G25"}
    assert {lay.kind for lay in lays} == {"bonus_upgrade"}
    assert all(tiles()[lay.tile_id].colour == "green" for lay in lays)
    assert any(tiles()[lay.tile_id].orange_edged for lay in lays if lay.coord == "G23")
    refused("R-LR-1", check_bonus_lay, state, 4, BONUS_UPGRADE, "H24", "3", 0)  # empty hex
    state.board.lay("G25", "14", 0)
    state.phase = "brown"
    refused("R-LR-1", check_bonus_lay, state, 4, BONUS_UPGRADE, "G25", "611", 0)  # green -> brown


def test_r_lr_3_bonus_upgrade_not_of_a_tile_laid_this_turn() -> None:
    state = fresh("green")
    operate(state, 4, "G25")
    state.board.lay("G25", "5", 0)
    lays = legal_bonus_lays(state, 4, BONUS_UPGRADE, laid_this_turn={"G25"})
    assert "G25" not in {lay.coord for lay in lays}


def red_state() -> SimpleBuildState:
    state = fresh()
    operate(state, 1, "D18")
    state.board.lay("D18", "235", 4)  # the track points at Stephansdom D20
    return state


def test_r_lr_1_bonus_red_tile_single_orientation_with_landmark() -> None:
    state = red_state()
    lays = legal_bonus_lays(state, 1, BONUS_RED)
    assert sorted((lay.coord, lay.tile_id, lay.rotation) for lay in lays) == [
        ("D20", "L20", 4), ("D20", "L21", 4), ("D20", "L22", 4), ("D20", "L23", 4)]
    assert {lay.landmark for lay in lays} == {"Stephansdom"}
    assert {lay.kind for lay in lays} == {"red"}
    err = refused("IX.4", check_bonus_lay, state, 1, BONUS_RED, "D20", "L20", 3)
    assert "arrow" in err.message
    e19 = state.board.layout.hexes["E19"].red_tile_rotations["L20"][0]
    refused("R-LR-3", check_bonus_lay, state, 1, BONUS_RED, "E19", "L20", e19)  # no arrow to line 1
    refused("IX.4", check_bonus_lay, state, 1, BONUS_RED, "C19", "L20", 0)  # not an inner-city hex
    refused("IX.4", check_bonus_lay, state, 1, BONUS_RED, "D20", "5", 4)  # not a red tile
    lays[0].apply(state.board)
    refused("IX.5", check_bonus_lay, state, 1, BONUS_RED, "D20", "L21", 4)  # already red


def test_r_lr_1_red_orientation_points_only_at_existing_non_inner_city_hexes() -> None:
    state = red_state()
    for coord in ("D20", "E19", "E21"):
        hexdef = state.board.layout.hexes[coord]
        for tile_id in ("L20", "L21", "L22", "L23"):
            good = []
            for rot in range(6):
                try:
                    check_bonus_lay(state, 1, BONUS_RED, coord, tile_id, rot)
                    good.append(rot)
                except IllegalAction as exc:
                    if exc.rule != "IX.4":
                        good.append(rot)
            assert tuple(good) == tuple(hexdef.red_tile_rotations[tile_id]), (coord, tile_id)


def test_r_lr_1_bonus_purple_tile_on_ordinary_station_any_orientation() -> None:
    state = fresh()
    operate(state, 1, "D18")
    state.board.lay("D18", "235", 2)  # the track points at Nordwestbahnhof C17
    lays = legal_bonus_lays(state, 1, BONUS_PURPLE)
    assert {lay.coord for lay in lays} == {"C17"}
    assert {lay.tile_id for lay in lays} == {"L24", "L25", "L26", "L27", "L28", "L29"}
    assert len(lays) == 36 and {lay.cost for lay in lays} == {0}
    refused("IX.4", check_bonus_lay, state, 1, BONUS_PURPLE, "C17", "L30a", 0)  # reserved for G11
    refused("R-LR-3", check_bonus_lay, state, 1, BONUS_PURPLE, "B26", "L24", 0)  # not reachable
    refused("IX.4", check_bonus_lay, state, 1, BONUS_PURPLE, "C19", "L24", 0)  # not a station hex


def test_r_lr_11_f24_takes_only_l30_or_l31_and_the_w_and_d_markers_move_on() -> None:
    state = fresh()
    operate(state, 4, "G25")
    state.board.lay("G25", "6", 0)  # edges 0 (H24), 2 (F24)
    lays = legal_bonus_lays(state, 4, BONUS_PURPLE)
    assert sorted((lay.coord, lay.tile_id, lay.rotation) for lay in lays) == [
        ("F24", "L30b", 0), ("F24", "L31b", 0)]
    refused("IX.4", check_bonus_lay, state, 4, BONUS_PURPLE, "F24", "L24", 0)
    refused("IX.4", check_bonus_lay, state, 4, BONUS_PURPLE, "F24", "L30b", 1)
    refused("IX.4", check_bonus_lay, state, 4, BONUS_PURPLE, "F24", "L30a", 0)  # the G11 version
    l31 = check_bonus_lay(state, 4, BONUS_PURPLE, "F24", "L31b", 0)
    assert l31.mapping == {1: 0, 2: 1}
    assert check_bonus_lay(state, 4, BONUS_PURPLE, "F24", "L30b", 0).mapping == {1: 1, 2: 2}
    l31.apply(state.board)
    assert state.board.markers("F24") == {0: ("W",), 1: ("D",)}


def test_r_lr_11_g11_special_tile_uses_up_the_single_l30() -> None:
    state = fresh()
    operate(state, 5, "G15")
    state.board.lay("G15", "57", 1)  # edges 1, 4
    state.board.lay("G13", "4", 1)  # edges 1, 4: points at Westbahnhof G11
    operate(state, 4, "G25")
    state.board.lay("G25", "6", 0)
    lays = legal_bonus_lays(state, 5, BONUS_PURPLE)
    assert sorted((lay.tile_id, lay.rotation) for lay in lays) == [("L30a", 0), ("L31a", 0)]
    check_bonus_lay(state, 5, BONUS_PURPLE, "G11", "L30a", 0).apply(state.board)
    refused("R-LR-11", check_bonus_lay, state, 4, BONUS_PURPLE, "F24", "L30b", 0)
    assert [lay.tile_id for lay in legal_bonus_lays(state, 4, BONUS_PURPLE)] == ["L31b"]
