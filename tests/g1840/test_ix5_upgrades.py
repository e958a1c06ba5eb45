"""IX.5 upgrading tiles (with R-LR-3, R-LR-10): positive and negative cases."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support import refused
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.legality import SimpleBuildState, check_tile_lay, legal_tile_lays
from tramways.g1840.legality.tiles import upgrade_map, upgrade_turns


def fresh(phase: str = "yellow") -> SimpleBuildState:
    return SimpleBuildState(Board(load_layout("full")), phase)


def operate(state: SimpleBuildState, line: int, coord: str, location: int = 0) -> None:
    state.board.place_marker(coord, location, line)
    state.operated.add(line)


def line12(phase: str) -> SimpleBuildState:
    state = fresh(phase)
    operate(state, 12, "E11")
    state.board.lay("E11", "5", 0)  # edges 0, 1
    return state


def test_ix5_upgrade_relation_matches_the_reference_chart(shared_dir: Path) -> None:
    ref = json.loads((shared_dir / "reference/1840/tiles.json").read_text())
    chart = ref["upgrades"]["from_tile"]
    for old_id, old in tiles().items():
        mine = sorted(
            new_id for new_id, new in tiles().items()
            if new.colour != old.colour and new.orange_edged == old.orange_edged
            and new.label == old.label and old.colour not in ("red", "purple", "grey")
            and new.colour == {"yellow": "green", "green": "brown", "brown": "grey"}[old.colour]
            and upgrade_turns(old_id, new_id)
        )
        assert mine == sorted(chart.get(old_id, [])), old_id


def test_ix5_green_tiles_from_lr2a() -> None:
    err = refused("IX.5", check_tile_lay, line12("yellow"), 12, "E11", "14", 0)
    assert "not available" in err.message
    state = line12("green")
    lays = [lay for lay in legal_tile_lays(state, 12) if lay.coord == "E11"]
    assert {lay.tile_id for lay in lays} == {"14", "15", "619"}
    assert all(lay.upgrade and lay.replaced == "5" and lay.cost == 0 for lay in lays)
    assert check_tile_lay(state, 12, "E11", "14", 0).mapping == {0: 0}


def test_ix5_brown_from_lr4a_and_grey_from_lr5a() -> None:
    state = line12("green")
    state.board.lay("E11", "14", 0)
    refused("IX.5", check_tile_lay, state, 12, "E11", "611", 0)
    state.phase = "brown"
    assert check_tile_lay(state, 12, "E11", "611", 0).replaced == "14"
    state.board.lay("E11", "611", 0)
    refused("IX.5", check_tile_lay, state, 12, "E11", "455", 0)
    state.phase = "grey"
    assert check_tile_lay(state, 12, "E11", "455", 0).replaced == "611"


def test_ix5_colours_in_order_only() -> None:
    state = line12("brown")
    err = refused("IX.5", check_tile_lay, state, 12, "E11", "611", 0)  # yellow straight to brown
    assert "green" in err.message
    state.board.lay("E11", "14", 0)
    refused("IX.5", check_tile_lay, state, 12, "E11", "15", 0)  # green to green


def test_ix5_new_tile_keeps_all_old_track() -> None:
    state = line12("green")
    # 14 has edges 0, 1, 3, 4: at rotation 2 (2, 3, 5, 0) edge 1 of the old tile is lost.
    err = refused("IX.5", check_tile_lay, state, 12, "E11", "14", 2)
    assert "keep" in err.message
    assert check_tile_lay(state, 12, "E11", "14", 0).coord == "E11"


def test_ix5_halt_never_becomes_an_interchange() -> None:
    state = line12("green")
    state.board.lay("E9", "3", 3)  # edges 3, 4
    refused("IX.5", check_tile_lay, state, 12, "E9", "14", 3)
    assert check_tile_lay(state, 12, "E9", "141", 3).tile_id == "141"


def test_ix5_oo_chain_keeps_both_circles_and_merges_them_on_l17() -> None:
    state = fresh("green")
    operate(state, 1, "D18", 0)
    operate(state, 2, "D18", 1)
    state.board.lay("D18", "235", 0)  # circle 0 has track to edge 0; circle 1 no track
    lays = [lay for lay in legal_tile_lays(state, 1) if lay.coord == "D18"]
    assert lays and {lay.tile_id for lay in lays} <= {
        "8858", "8859", "8860", "8863", "8864", "8865"}
    for lay in lays:
        m = lay.mapping
        assert set(m) == {0, 1} and m[0] != m[1]
    refused("IX.5", check_tile_lay, state, 1, "D18", "14", 0)  # OO only by OO
    green = check_tile_lay(state, 1, "D18", "8858", 0)
    green.apply(state.board)
    assert sorted(o for owners in state.board.markers("D18").values() for o in owners) == [1, 2]
    state.phase = "brown"
    brown = [lay for lay in legal_tile_lays(state, 1) if lay.coord == "D18"]
    assert brown and {lay.tile_id for lay in brown} == {"L17"}
    assert brown[0].mapping == {0: 0, 1: 0}
    brown[0].apply(state.board)
    assert state.board.markers("D18") == {0: (1, 2)}
    state.phase = "grey"
    assert {lay.tile_id for lay in legal_tile_lays(state, 1) if lay.coord == "D18"} == {"L18"}


def test_ix5_oo_merge_needs_room_for_both_circles() -> None:
    # Two circles become one only on an OO tile with room for both (L17: 2 slots); the
    # unlabelled 2-slot 611 may not swallow them (IX.5 "OO-tiles only by OO-tiles").
    turns = upgrade_turns("8858", "L17")
    assert turns
    assert upgrade_map("8858", "L17", turns[0]) == ((0, 0), (1, 0))
    assert all(upgrade_map("8858", "611", t) is None for t in range(6))


def test_ix5_orange_edged_only_by_orange_edged() -> None:
    state = fresh("green")
    operate(state, 4, "G25")
    state.board.lay("G25", "5", 0)  # edges 0 (H24) and 1 (G23)
    state.board.lay("G23", "L1", 1)  # W Stadtbahn tile, dotted edges 1 and 3
    lays = [lay for lay in legal_tile_lays(state, 4) if lay.coord == "G23"]
    assert lays
    for lay in lays:
        tile = tiles()[lay.tile_id]
        assert tile.orange_edged and tile.colour == "green"
        # no tram track towards H22 (no arrow there) nor F24's dotted-only edge
        assert not tile.exits_at(lay.rotation) & {0, 3}
        assert 4 in tile.exits_at(lay.rotation)  # the new tram track meets G25
    err = refused("IX.5", check_tile_lay, state, 4, "G23", "142", 1)
    assert "orange" in err.message


def test_ix5_red_purple_grey_tiles_never_upgrade() -> None:
    state = fresh("grey")
    operate(state, 1, "D18")
    state.board.lay("D18", "235", 4)
    state.board.lay("D20", "L20", 4)
    refused("IX.5", check_tile_lay, state, 1, "D20", "14", 4)
    state.board.lay("C17", "L24", 0)
    refused("IX.5", check_tile_lay, state, 1, "C17", "611", 0)
    state.board.lay("C19", "L19", 0)
    refused("IX.5", check_tile_lay, state, 1, "C19", "455", 0)


def test_ix5_upgrades_are_free_even_on_the_danube_r_lr_10() -> None:
    state = fresh("green")
    operate(state, 17, "A29")
    state.board.lay("B28", "58", 1)  # edges 1, 3: edge 3 meets A29
    lays = [lay for lay in legal_tile_lays(state, 17) if lay.coord == "B28"]
    assert lays and all(lay.upgrade and lay.cost == 0 for lay in lays)


def test_ix5_tile_laid_this_turn_is_not_upgraded_r_lr_3() -> None:
    state = line12("green")
    err = refused("R-LR-3", check_tile_lay, state, 12, "E11", "14", 0, laid_this_turn={"E11"})
    assert "this turn" in err.message
    assert "E11" not in {
        lay.coord for lay in legal_tile_lays(state, 12, laid_this_turn={"E11"})}


def test_ix5_upgrade_needs_a_connection_to_the_line() -> None:
    state = line12("green")
    state.board.lay("H6", "58", 0)  # far away from line 12
    err = refused("IX.5", check_tile_lay, state, 12, "H6", "141", upgrade_turns("58", "141")[0])
    assert "reachable" in err.message
    operate(state, 8, "J10")
    refused("IX.5", check_tile_lay, state, 8, "E11", "14", 0)  # line 8 does not reach E11
