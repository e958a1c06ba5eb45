"""IX.8 Example 2 (Line Round 2b, every line has a tram): lines 1, 2, 3 and 12 earn 110, 130,
160 and 80.

The example's picture is not in the text, so its geometry cannot be rebuilt exactly.  This is
an equivalent board (a small custom layout with printed track, values as the Russian edition
gives them per stop): the stops keep their letters, values and station markers, and the
network is drawn so that the example's runs are the best ones::

    A - B - C - D - E - F - I - L - M - N - H - G          (row E, then up to the right)
                                    \\
                                     P - O - K - J         (down to the right)

* Line 1 (markers G, N, M): G 20 + H 10 + N 40 + M 40 = 110; beyond M, L and P are full of
  other lines' markers: an end worth 0.
* Line 2 (markers K, O, P): J 10 + K 40 + O 40 + P 40 = 130; M is full (lines 1 and 3).
* Line 3 (markers D, L, M): A..F 10+10+10+30+10+10, I 0 (no marker of 3; it has a free circle),
  L 40, M 40 = 160; N and P are full.
* Line 12 (marker D): A..F = 80; I earns nothing, L is full ("foreign stations"): 80.
"""

from __future__ import annotations

from tramways.g1840.board import Board
from tramways.g1840.data import EDGE_OFFSETS
from tramways.g1840.model import End, HexDef, Layout, LocationDef, PathDef
from tramways.g1840.routes import RouteContext, best_route

# letter: (hex, kind, revenue, slots, exits)
STOPS = {
    "A": ("E1", "halt", 10, 0, (4,)),
    "B": ("E3", "halt", 10, 0, (1, 4)),
    "C": ("E5", "halt", 10, 0, (1, 4)),
    "D": ("E7", "interchange", 30, 2, (1, 4)),
    "E": ("E9", "halt", 10, 0, (1, 4)),
    "F": ("E11", "halt", 10, 0, (1, 4)),
    "I": ("E13", "interchange", 30, 1, (1, 4)),
    "L": ("E15", "interchange", 40, 2, (1, 4)),
    "M": ("E17", "interchange", 40, 2, (1, 3, 5)),
    "N": ("D18", "interchange", 40, 1, (0, 3)),
    "H": ("C19", "halt", 10, 0, (0, 3)),
    "G": ("B20", "interchange", 20, 1, (0,)),
    "P": ("F18", "interchange", 40, 2, (2, 5)),
    "O": ("G19", "interchange", 40, 1, (2, 5)),
    "K": ("H20", "interchange", 40, 1, (2, 5)),
    "J": ("I21", "halt", 10, 0, (2,)),
}
MARKERS = {"G": [1], "N": [1], "M": [1, 3], "K": [2], "O": [2], "P": [2, 15], "D": [3, 12],
           "L": [3, 2]}


def example2_board() -> Board:
    coords = {spec[0] for spec in STOPS.values()}
    hexes = {}
    for hex_, kind, revenue, slots, exits in STOPS.values():
        row, col = ord(hex_[0]), int(hex_[1:])
        neighbours = {}
        for edge, (dr, dc) in EDGE_OFFSETS.items():
            other = f"{chr(row + dr)}{col + dc}"
            if other in coords:
                neighbours[edge] = other
        hexes[hex_] = HexDef(
            coord=hex_, name=None, area="fixed",
            locations=(LocationDef(0, kind, revenue, slots),),
            paths=tuple(PathDef(End(edge=e), End(location=0)) for e in exits),
            neighbours=neighbours, laying_allowed=False,
        )
    layout = Layout(name="test-ix8-example-2", hexes=hexes, home_bases={}, landmarks={},
                    lines_in_game=(1, 2, 3, 12), stadtbahn_companies=(), privates_in_game=(),
                    stadtbahn_lines={})
    board = Board(layout)
    for letter, lines in MARKERS.items():
        for line in lines:
            board.place_marker(STOPS[letter][0], 0, line)
    return board


def _letters(run) -> str:  # type: ignore[no-untyped-def]
    """The stops as letters, read from the end nearer A (or J)."""
    by_hex = {spec[0]: letter for letter, spec in STOPS.items()}
    letters = [by_hex[c] for c, _ in run.stops]
    if letters[-1] in "AJ" or letters[0] in "GMNP":
        letters.reverse()
    return "-".join(letters)


def test_ix8_example_2_lines_1_2_3_12_earn_110_130_160_80() -> None:
    board = example2_board()
    runs = {line: best_route(RouteContext(board, line, "green")) for line in (1, 2, 3, 12)}
    assert {line: run.revenue for line, run in runs.items() if run} == {
        1: 110, 2: 130, 3: 160, 12: 80}
    assert _letters(runs[2]) in ("J-K-O-P", "J-K-O-P-M")
    assert _letters(runs[3]).replace("-I", "") in ("A-B-C-D-E-F-L-M", "A-B-C-D-E-F-L-M-N",
                                                     "A-B-C-D-E-F-L-M-P")
    parts = dict(zip((c for c, _ in runs[3].stops), runs[3].parts, strict=True))
    assert parts["E13"] == 0 and parts["E7"] == 30  # I without, D with line 3's marker
