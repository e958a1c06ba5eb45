"""Where a line's track reaches, seen from the hexes a tile could go on (IX.2, IX.4).

Wraps :meth:`Board.reach` (the line's markers walked over tram track, not through interchanges
blocked for it and without reversing: IX.2) with the questions the tile rules ask:

* :meth:`Connection.enters` - does the line's track arrive at ``coord`` across ``edge``
  (from the neighbour's side, or along track already on ``coord``)?
* :meth:`Connection.touches_hex` - is any location or edge of ``coord`` reached?
* :attr:`Connection.candidates` - every hex a new tile of this line could be connected on.
"""

from __future__ import annotations

from tramways.g1840.board import Board
from tramways.g1840.model import opposite

_NONE: frozenset[int] = frozenset()


class Connection:
    """The reach of ``line`` on ``board``, indexed for tile-laying questions."""

    __slots__ = ("board", "line", "edges", "locations", "hexes", "candidates", "_entered",
                 "entered_by_hex", "locations_by_hex")

    def __init__(self, board: Board, line: int) -> None:
        self.board = board
        self.line = line
        reach = board.reach(line)
        self.edges = frozenset(reach.edges)
        self.locations = frozenset(reach.locations)
        self.hexes = frozenset(reach.hexes)
        entered: set[tuple[str, int]] = set(self.edges)
        candidates: set[str] = set(self.hexes)
        candidates.update(coord for coord, _ in self.locations)
        for coord, edge in self.edges:
            candidates.add(coord)
            nb = board.neighbour(coord, edge)
            if nb is not None:
                entered.add((nb, opposite(edge)))
                candidates.add(nb)
        self._entered = frozenset(entered)
        self.candidates = frozenset(candidates)
        by_hex: dict[str, set[int]] = {}
        for coord, edge in entered:
            by_hex.setdefault(coord, set()).add(edge)
        self.entered_by_hex: dict[str, frozenset[int]] = {
            c: frozenset(es) for c, es in by_hex.items()}
        locs: dict[str, set[int]] = {}
        for coord, loc in self.locations:
            locs.setdefault(coord, set()).add(loc)
        self.locations_by_hex: dict[str, frozenset[int]] = {
            c: frozenset(ls) for c, ls in locs.items()}

    def enters(self, coord: str, edge: int) -> bool:
        """True if the line's track reaches the border of ``coord`` at ``edge``."""
        return (coord, edge) in self._entered

    def reaches_location(self, coord: str, location: int) -> bool:
        return (coord, location) in self.locations

    def entered_edges(self, coord: str) -> frozenset[int]:
        """The edges of ``coord`` the line's track arrives at."""
        return self.entered_by_hex.get(coord, _NONE)

    def reached_locations(self, coord: str) -> frozenset[int]:
        """The locations of ``coord`` the line reaches."""
        return self.locations_by_hex.get(coord, _NONE)

    def touches_hex(self, coord: str) -> bool:
        """True if some location of ``coord`` or its border at some edge is reached."""
        return coord in self.entered_by_hex or coord in self.locations_by_hex
