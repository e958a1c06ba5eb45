"""Where a line's track reaches, seen from the hexes a tile could go on (IX.2, IX.4).

Wraps :meth:`Board.reach` (the line's markers walked over tram track, not through interchanges
blocked for it and without reversing: IX.2) with the questions the tile rules ask:

* :meth:`Connection.enters` - does the line's track arrive at ``coord`` across ``edge``
  (from the neighbour's side, or along track already on ``coord``)?
* :meth:`Connection.touches_hex` - is any location or edge of ``coord`` reached?
* :attr:`Connection.candidates` - every hex a new tile of this line could be connected on.

Every border the walk crosses or points across is in the reach's ``edges`` from both sides, so
the edges entered are exactly ``reach.edges`` and the candidate hexes exactly ``reach.hexes``:
building a Connection from the (cached) reach costs nothing; the per-hex indexes are built on
first use.
"""

from __future__ import annotations

from collections.abc import Mapping

from tramways.g1840.board import Board

_NONE: frozenset[int] = frozenset()


def _by_hex(pairs: frozenset[tuple[str, int]]) -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for coord, item in pairs:
        bucket = found.get(coord)
        if bucket is None:
            found[coord] = {item}
        else:
            bucket.add(item)
    return {c: frozenset(items) for c, items in found.items()}


class Connection:
    """The reach of ``line`` on ``board``, indexed for tile-laying questions."""

    __slots__ = ("board", "line", "edges", "locations", "hexes", "candidates", "_entered",
                 "_entered_by_hex", "_locations_by_hex")

    def __init__(self, board: Board, line: int) -> None:
        self.board = board
        self.line = line
        reach = board.reach(line)
        self.edges = reach.edges
        self.locations = reach.locations
        self.hexes = reach.hexes
        self._entered = reach.edges
        self.candidates = reach.hexes
        self._entered_by_hex: dict[str, frozenset[int]] | None = None
        self._locations_by_hex: dict[str, frozenset[int]] | None = None

    @property
    def entered_by_hex(self) -> Mapping[str, frozenset[int]]:
        """Hex -> the edges of it the line's track arrives at."""
        if self._entered_by_hex is None:
            self._entered_by_hex = _by_hex(self._entered)
        return self._entered_by_hex

    @property
    def locations_by_hex(self) -> Mapping[str, frozenset[int]]:
        """Hex -> the locations of it the line reaches."""
        if self._locations_by_hex is None:
            self._locations_by_hex = _by_hex(self.locations)
        return self._locations_by_hex

    def enters(self, coord: str, edge: int) -> bool:
        """True if the line's track reaches the border of ``coord`` at ``edge``."""
        return (coord, edge) in self._entered

    def reaches_location(self, coord: str, location: int) -> bool:
        return (coord, location) in self.locations

    def entered_edges(self, coord: str) -> frozenset[int]:
        """The edges of ``coord`` the line's track arrives at."""
        if self._entered_by_hex is not None or coord not in self.hexes:
            return self.entered_by_hex.get(coord, _NONE) if coord in self.hexes else _NONE
        entered = self._entered
        return frozenset(e for e in range(6) if (coord, e) in entered) or _NONE

    def reached_locations(self, coord: str) -> frozenset[int]:
        """The locations of ``coord`` the line reaches (every reached location is one of the
        hex's current locations: a marker or the end of a path of its tile)."""
        if self._locations_by_hex is not None or coord not in self.hexes:
            return self.locations_by_hex.get(coord, _NONE) if coord in self.hexes else _NONE
        locations = self.locations
        return frozenset(
            loc.id for loc in self.board.locations(coord) if (coord, loc.id) in locations
        ) or _NONE

    def touches_hex(self, coord: str) -> bool:
        """True if some location of ``coord`` or its border at some edge is reached (every
        such hex is one of the reach's ``hexes``)."""
        return coord in self.hexes
