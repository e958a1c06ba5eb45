"""Boards from an 18xx.games oracle trace (``reference/1840/oracle/TRACE_FORMAT.md``).

* :func:`board_from_trace` ``(layout, trace_state) -> Board``: the tiles and station markers of
  one trace ``state`` as our :class:`~tramways.g1840.board.Board` (ruleset ``"18xx.games"``,
  X-7, so its tile supply is 18xx.games' list).
* :func:`iter_positions` ``(trace_path)`` yields ``(action index, trace state, Board)`` after
  every processed action of a ``NAME.trace.jsonl`` file.
* :func:`layout_for_header` picks the layout from the trace header's player count.

Mapping: 18xx.games tile names are our tile ids (``"58"``, ``"L31b"``), a hex whose tile name is
the hex's own coordinate is the printed hex, and rotations are the same 0-5. A token's ``city``
is the index among the tile's interchanges (18xx "cities"; halts are "towns" and not counted),
in our location-id order - e.g. on ``L31b`` city 0 is location 0 (the W terminus, edge 0) and
city 1 is location 1 (the D terminus, edge 2); on the two-player I11 city 1 is the W terminus.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tramways.core.errors import RecordError
from tramways.g1840.board import Board
from tramways.g1840.data import layout_for, tiles
from tramways.g1840.model import Layout, Owner


def layout_for_header(header: Mapping[str, Any]) -> Layout:
    """The layout of a traced game: two players -> two_player; otherwise the full map unless
    the header's optional rules ask for the small 3-player map."""
    players = len(header.get("players", ()))
    optional = header.get("settings", {}).get("optional_rules") or []
    small = any("small" in str(rule).lower() for rule in optional)
    return layout_for(players, small)


def city_location(board: Board, coord: str, city: int) -> int:
    """Our location id of 18xx.games' ``city`` index on the hex's current tile."""
    interchanges = [loc.id for loc in board.locations(coord) if loc.is_interchange]
    if not 0 <= city < len(interchanges):
        raise RecordError(f"trace: {coord} has no city {city} (interchanges {interchanges})")
    return interchanges[city]


def _owner(kind: str, ident: str) -> Owner:
    if kind == "lines":
        return int(str(ident).split()[-1])
    return str(ident)


def board_from_trace(layout: Layout, trace_state: Mapping[str, Any]) -> Board:
    """Our board for one trace ``state`` (tiles from ``state.tiles``, markers from the lines'
    and Stadtbahn companies' placed tokens)."""
    board = Board(layout, ruleset="18xx.games")
    for coord, by_loc in list(board.all_markers().items()):
        for loc, owners in list(by_loc.items()):
            for owner in owners:
                board.remove_marker(coord, loc, owner)
    known = tiles()
    for coord, (name, rotation) in sorted(trace_state.get("tiles", {}).items()):
        if name == coord:
            continue
        if name not in known:
            raise RecordError(f"trace: unknown tile {name!r} on {coord}")
        if coord not in layout.hexes:
            raise RecordError(f"trace: tile on {coord}, which is not on the {layout.name} map")
        board.lay(coord, name, int(rotation))
    for kind in ("lines", "stadtbahn"):
        for ident, entity in trace_state.get(kind, {}).items():
            owner = _owner(kind, ident)
            for token in entity.get("tokens", ()):
                if not token.get("used", True):
                    continue
                coord = token["hex"]
                board.place_marker(coord, city_location(board, coord, int(token["city"])), owner)
    return board


def iter_positions(trace_path: str | Path) -> Iterator[tuple[int, Mapping[str, Any], Board]]:
    """``(action index, trace state, Board)`` after each processed action of a trace file."""
    path = Path(trace_path)
    with path.open(encoding="utf-8") as fh:
        header: dict[str, Any] | None = None
        for number, text in enumerate(fh, 1):
            if not text.strip():
                continue
            try:
                item = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path}:{number}: not JSON ({exc.msg})") from None
            if item.get("kind") == "header":
                header = item
                continue
            if header is None:
                raise RecordError(f"{path}: the first line is not the trace header")
            if not item.get("processed") or "state" not in item:
                continue
            layout = layout_for_header(header)
            yield int(item["index"]), item["state"], board_from_trace(layout, item["state"])
