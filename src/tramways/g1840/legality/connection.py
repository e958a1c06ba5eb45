"""Where a line's track reaches, seen from the hexes a tile could go on (IX.2, IX.4).

Wraps :meth:`Board.reach` (the line's markers walked over tram track, not through interchanges
blocked for it and without reversing: IX.2) with the questions the tile rules ask:

* :meth:`Connection.enters` - does the line's track arrive at ``coord`` across ``edge``
  (from the neighbour's side, or along track already on ``coord``)?
* :meth:`Connection.touches_hex` - is any location or edge of ``coord`` reached?
* :attr:`Connection.candidates` - every hex a new tile of this line could be connected on.

Every border the walk crosses or points across is in the reach's ``edges`` from both sides, so
the edges entered are exactly ``reach.edges`` and the candidate hexes exactly ``reach.hexes``;
the per-hex indexes come with the (cached) reach, so building a Connection costs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from tramways.g1840.board import Board

_NONE: frozenset[int] = frozenset()


class Connection:
    """The reach of ``line`` on ``board``, indexed for tile-laying questions."""

    __slots__ = ("board", "line", "edges", "locations", "hexes", "candidates", "_entered",
                 "entered_by_hex", "locations_by_hex")

    def __init__(self, board: Board, line: int) -> None:
        self.board = board
        self.line = line
        reach = board.reach(line)
        self.edges = reach.edges
        self.locations = reach.locations
        self.hexes = reach.hexes
        self._entered = reach.edges
        self.candidates = reach.hexes
        self.entered_by_hex: Mapping[str, frozenset[int]] = reach.edges_by_hex
        self.locations_by_hex: Mapping[str, frozenset[int]] = reach.locations_by_hex

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
