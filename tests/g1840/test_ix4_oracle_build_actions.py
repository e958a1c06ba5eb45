"""Every build action of the recorded 18xx.games game is legal for our checks (IX.4-IX.6).

Replays the oracle trace (``reference/1840/oracle/2player.trace.jsonl``): before each
``lay_tile``, ``place_token`` and ``remove_token`` the board of the previous state is rebuilt and
the action must pass the matching check - a normal lay or upgrade (the first-turn home-base rule
is not enforced there, X-5), a Stadtbahn tile, a bonus tile (yellow, green upgrade, red,
purple), a station marker or a Stadtbahn marker removal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import tiles
from tramways.g1840.interop.trace_positions import board_from_trace, layout_for_header
from tramways.g1840.legality import (
    SimpleBuildState,
    check_marker_removal,
    check_purple_lay,
    check_red_lay,
    check_stadtbahn_lay,
    check_station,
    check_tile_lay,
)

PHASES = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}


def _state(board: Board, trace_state: dict[str, Any]) -> SimpleBuildState:
    lines = trace_state["lines"]
    operated = {
        int(name.split()[-1]) for name, entity in lines.items()
        if any(token.get("used", True) for token in entity.get("tokens", ()))
    }
    owned = [company.get("lines", []) for company in trace_state["tram_companies"].values()]
    retired: set[int] = set()
    if owned and all(len(company) >= 3 for company in owned):
        # 18xx.games removes the unsold lines once every company holds three (game.rb 885-890)
        retired = set(board.layout.home_bases) - {int(n.split()[-1]) for n in lines}
    return SimpleBuildState(board, PHASES[str(trace_state["game"]["phase"])], operated, retired)


def _lay_checks(state: SimpleBuildState, line: int, action: dict[str, Any]
                ) -> list[tuple[str, Callable[[], object]]]:
    tile_id = action["tile"].rsplit("-", 1)[0]
    tile = tiles()[tile_id]
    coord, rot = action["hex"], int(action["rotation"])
    if tile.orange_edged and tile.colour == "yellow":
        return [("stadtbahn", lambda: check_stadtbahn_lay(state, line, coord, tile_id, rot))]
    if tile.colour == "red":
        return [("red", lambda: check_red_lay(state, line, coord, tile_id, rot))]
    if tile.colour == "purple":
        return [("purple", lambda: check_purple_lay(state, line, coord, tile_id, rot))]
    return [
        (mode, lambda mode=mode: check_tile_lay(state, line, coord, tile_id, rot, mode=mode))
        for mode in ("normal", "bonus_yellow", "bonus_upgrade")
    ]


def test_ix4_ix5_ix6_every_recorded_build_action_passes_our_checks(oracle_dir: Path) -> None:
    actions = json.loads((oracle_dir / "2player.json").read_text())["actions"]
    checked: dict[str, int] = {}
    failures: list[str] = []
    prev_board: Board | None = None
    prev_state: dict[str, Any] = {}
    layout = None
    with (oracle_dir / "2player.trace.jsonl").open(encoding="utf-8") as fh:
        for text in fh:
            item = json.loads(text)
            if item.get("kind") == "header":
                layout = layout_for_header(item)
                prev_state = item["initial_state"]
                prev_board = board_from_trace(layout, prev_state)
                continue
            if not item.get("processed"):
                continue
            assert layout is not None and prev_board is not None
            action = actions[item["index"]]
            board = board_from_trace(layout, item["state"])
            kind = action["type"]
            if kind in ("lay_tile", "place_token", "remove_token"):
                line = int(action["entity"])
                state = _state(prev_board, prev_state)
                if kind == "lay_tile":
                    errors = []
                    for mode, check in _lay_checks(state, line, action):
                        try:
                            check()
                            checked[mode] = checked.get(mode, 0) + 1
                            break
                        except IllegalAction as exc:
                            errors.append(f"{mode}: {exc}")
                    else:
                        failures.append(f"{item['index']} {action}: {errors}")
                elif kind == "place_token":
                    before = set(prev_board.line_markers(line))
                    for coord, loc in board.line_markers(line):
                        if (coord, loc) in before:
                            continue
                        try:
                            check_station(state, line, coord, loc)
                            checked["station"] = checked.get("station", 0) + 1
                        except IllegalAction as exc:
                            failures.append(f"{item['index']} {action}: {exc}")
                else:
                    for coord, by_loc in prev_board.all_markers().items():
                        for loc, owners in by_loc.items():
                            for owner in owners:
                                if isinstance(owner, str) and owner not in board.markers(
                                    coord
                                ).get(loc, ()):
                                    try:
                                        check_marker_removal(state, line, coord, loc, owner)
                                        checked["removal"] = checked.get("removal", 0) + 1
                                    except IllegalAction as exc:
                                        failures.append(f"{item['index']} {action}: {exc}")
            prev_board, prev_state = board, item["state"]
    assert failures == []
    assert checked == {
        "normal": 57, "stadtbahn": 19, "purple": 3, "red": 1, "station": 20, "removal": 2,
    }
