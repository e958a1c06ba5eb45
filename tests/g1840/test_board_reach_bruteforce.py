"""``Board.reach`` against a brute-force route search (IX.2: no track used twice, no reversing,
blocked interchanges and red areas reached but not passed through)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles

LAYOUT = load_layout("full")
CENTRE = sorted(
    coord
    for coord, h in LAYOUT.hexes.items()
    if h.laying_allowed and coord[0] in "DEFGHIJ" and 8 <= int(coord[1:]) <= 30
)
TILE_IDS = sorted(tiles())


def brute_force_locations(board: Board, line: int) -> set[tuple[str, int]]:
    """Every location some route from one of the line's markers touches (exhaustive DFS)."""
    found: set[tuple[str, int]] = set()

    def at_node(coord: str, loc: int, used: frozenset, start: bool, terminal: bool) -> None:
        if board.location(coord, loc).kind == "placeholder":
            return
        found.add((coord, loc))
        if not start and (terminal or board.is_blocked(coord, loc, line)):
            return
        for link in board.track(coord).by_location.get(loc, ()):
            key = (coord, link.path)
            if key in used or (link.terminal and not start):
                continue
            follow(coord, link, used | {key})

    def follow(coord: str, link, used: frozenset) -> None:
        if link.to_location is not None:
            at_node(coord, link.to_location, used, False, link.terminal)
            return
        nb = board.neighbour(coord, link.to_edge)
        if nb is None:
            return
        back = (link.to_edge + 3) % 6
        for nxt in board.track(nb).by_edge.get(back, ()):
            key = (nb, nxt.path)
            if key not in used:
                follow(nb, nxt, used | {key})

    for coord, loc in board.line_markers(line):
        at_node(coord, loc, frozenset(), True, False)
    return found


@settings(max_examples=60, deadline=None)
@given(
    lays=st.lists(
        st.tuples(st.sampled_from(CENTRE), st.sampled_from(TILE_IDS), st.integers(0, 5)),
        min_size=5,
        max_size=30,
    ),
    markers=st.lists(st.tuples(st.integers(0, 200), st.sampled_from([1, 2, 3])), max_size=8),
)
def test_ix2_reach_equals_brute_force_routes(lays, markers) -> None:
    board = Board(LAYOUT)
    for coord, tile_id, rotation in lays:
        if board.available(tile_id) and not board.markers(coord):
            board.lay(coord, tile_id, rotation)
    circles = sorted(
        (coord, loc.id)
        for coord in board.placed()
        for loc in board.locations(coord)
        if loc.is_interchange
    )
    if not circles:
        return
    for pick, line in markers:
        coord, loc = circles[pick % len(circles)]
        if board.free_slots(coord, loc) > 0:
            board.place_marker(coord, loc, line)
    for line in (1, 2, 3):
        assert board.reach(line).locations == brute_force_locations(board, line)
