"""Boards rebuilt from the 18xx.games oracle trace (interop, X-7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tramways.core.errors import RecordError
from tramways.g1840.board import Board, Placed
from tramways.g1840.data import initial_supply, load_layout, supply_key, tiles
from tramways.g1840.interop.trace_positions import (
    board_from_trace,
    city_location,
    iter_positions,
    layout_for_header,
)


@pytest.fixture
def trace(oracle_dir: Path) -> Path:
    return oracle_dir / "2player.trace.jsonl"


def header_of(trace: Path) -> dict:
    with trace.open(encoding="utf-8") as fh:
        return json.loads(fh.readline())


def test_header_selects_the_two_player_layout(trace: Path) -> None:
    assert layout_for_header(header_of(trace)).name == "two_player"


def test_initial_state_is_the_printed_board(trace: Path) -> None:
    header = header_of(trace)
    layout = load_layout("two_player")
    board = board_from_trace(layout, header["initial_state"])
    printed = Board(layout)
    assert board.placed() == {}
    assert dict(board.all_markers()) == dict(printed.all_markers())
    assert set(header["initial_map"]) == set(layout.hexes)


def test_last_position_of_the_two_player_game(trace: Path) -> None:
    positions = list(iter_positions(trace))
    index, state, board = positions[-1]
    assert index == 390
    assert len(board.placed()) == 56
    assert board.tile("F24") == Placed("L31b", 0)
    assert board.tile("D18") == Placed("L17", 1)
    assert board.tile("D20") == Placed("L22", 4)
    # city indexes count interchanges only: W on L31b city 0, D on city 1
    assert board.markers("F24") == {0: ("W",), 1: ("D",)}
    assert board.markers("I11") == {0: ("G",), 1: ("W",)}
    assert set(board.markers("D18")[0]) == {2, 5}
    assert set(board.markers("E23")[0]) == {4, 18}
    assert sorted(board.line_markers(7)) == [("F18", 0), ("G15", 0), ("J16", 0), ("K9", 0)]
    tokens = sum(
        len([t for t in entity["tokens"] if t["used"]])
        for kind in ("lines", "stadtbahn")
        for entity in state[kind].values()
    )
    assert sum(len(o) for m in board.all_markers().values() for o in m.values()) == tokens


def test_every_position_matches_its_trace_state(trace: Path) -> None:
    count = 0
    full = initial_supply("18xx.games")
    for _, state, board in iter_positions(trace):
        count += 1
        laid = {c: v for c, v in state["tiles"].items() if v[0] != c}
        assert {c: Placed(n, r) for c, (n, r) in laid.items()} == dict(board.placed())
        on_map = {}
        for placed in board.placed().values():
            key = supply_key(placed.tile_id, "18xx.games")
            on_map[key] = on_map.get(key, 0) + 1
        assert all(board.supply[k] + on_map.get(k, 0) == n for k, n in full.items())
    assert count == 356


def test_home_lines_reach_their_routes_in_the_last_position(trace: Path) -> None:
    *_, (_, _, board) = iter_positions(trace)
    reach = board.reach(7)
    assert ("K9", 0) in reach.locations  # Liesing, where line 7 has a marker
    assert ("J16", 0) in reach.locations


def test_city_index_out_of_range_is_a_record_error() -> None:
    board = Board(load_layout("two_player"))
    assert city_location(board, "I11", 1) == 1
    with pytest.raises(RecordError, match="no city 2"):
        city_location(board, "I11", 2)


def test_unknown_tile_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="unknown tile"):
        board_from_trace(load_layout("two_player"), {"tiles": {"E25": ["9999", 0]}})


def test_ix4_ix6_every_oracle_lay_and_station_is_within_reach(oracle_dir: Path, trace: Path) -> None:
    """Each tile a line laid (Stadtbahn tiles excepted, R-LR-3) and each station it placed in
    the recorded game is reached by ``Board.reach`` on the position before the action."""
    actions = json.loads((oracle_dir / "2player.json").read_text(encoding="utf-8"))["actions"]
    header = header_of(trace)
    previous = board_from_trace(layout_for_header(header), header["initial_state"])
    all_tiles = tiles()
    lays = stations = 0
    for index, _, board in iter_positions(trace):
        action = actions[index]
        if str(action.get("entity", "")).isdigit():
            line = int(action["entity"])
            if action["type"] == "lay_tile":
                coord = action["hex"]
                tile = all_tiles[action["tile"].rsplit("-", 1)[0]]
                if not (tile.orange_edged and tile.colour == "yellow"):
                    reach = previous.reach(line)
                    assert any((coord, e) in reach.edges for e in tile.exits_at(
                        action["rotation"])) or any(c == coord for c, _ in reach.locations), index
                    lays += 1
            elif action["type"] == "place_token" and previous.line_markers(line):
                new = set(board.line_markers(line)) - set(previous.line_markers(line))
                assert new and new <= previous.reach(line).locations, index
                stations += 1
        previous = board
    assert (lays, stations) == (61, 19)
