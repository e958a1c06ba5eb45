"""Helpers for the route tests: hand-built boards on the real map.

``lay_exits`` puts on a hex the lowest-colour ordinary tile whose tram track leaves by exactly
the given edges (a halt tile or an interchange tile), so a test can draw a network edge by edge.
"""

from __future__ import annotations

from collections.abc import Iterable

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.routes import RouteContext

COLOURS = ("yellow", "green", "brown", "grey")


def new_board(layout: str = "full", ruleset: str = "rules") -> Board:
    return Board(load_layout(layout), ruleset=ruleset)


def lay_exits(board: Board, coord: str, exits: Iterable[int], kind: str = "halt") -> str:
    """Lay the lowest-colour single-``kind`` tile with tram exits exactly ``exits``."""
    want = frozenset(exits)
    for colour in COLOURS:
        for tile in sorted(tiles().values(), key=lambda t: t.id):
            if tile.colour != colour or tile.orange_edged or tile.label:
                continue
            kinds = [loc.kind for loc in tile.locations]
            if kinds != [kind]:
                continue
            for rotation in range(6):
                if tile.exits_at(rotation) == want:
                    board.lay(coord, tile.id, rotation)
                    return tile.id
    raise AssertionError(f"no {kind} tile with exits {sorted(want)}")


def context(
    board: Board,
    line: int,
    phase: str = "yellow",
    landmarks: Iterable[str] = (),
    maintenance: int | None = 0,
    ruleset: str = "rules",
) -> RouteContext:
    return RouteContext(board, line, phase, frozenset(landmarks), maintenance, ruleset)


def test_lay_exits_picks_a_fitting_tile() -> None:
    board = new_board()
    assert lay_exits(board, "H26", {1, 4}) == "4"
    assert {e for p in board.paths("H26") for e in p.edges} == {1, 4}
