"""Where a line's track reaches, seen from the hexes a tile could go on (IX.2, IX.4).

Wraps :meth:`Board.reach` (the line's markers walked over tram track, not through interchanges
blocked for it and without reversing: IX.2) with the questions the tile rules ask:

* :meth:`Connection.enters` - does the line's track arrive at ``coord`` across ``edge``
  (from the neighbour's side, or along track already on ``coord``)?
* :meth:`Connection.touches_hex` - is any location or edge of ``coord`` reached?
* :attr:`Connection.candidates` - every hex a new tile of this line could be connected on.

Every border the walk crosses or points across is in the reach's ``edges`` from both sides, so
the edges entered are exactly ``reach.edges`` and the candidate hexes exactly ``reach.hexes``:
building a Connection from the (cached) reach costs nothing, and the reach is kept per hex
(:attr:`~tramways.g1840.reach.Reach.bits`), so the per-hex questions read one int.
"""

from __future__ import annotations

from collections.abc import Collection

from tramways.g1840.board import Board, Reach
from tramways.g1840.reach import EDGE_BITS, EDGE_SETS, L0, LOCATION_SETS


class Connection:
    """The reach of ``line`` on ``board``, read per hex for tile-laying questions.

    The reach is asked of the board when first needed; :meth:`surely_joins` answers a lay's
    connection from the board's :meth:`~tramways.g1840.board.Board.reach_floor` without it
    where the answer is yes (a replayed lay is nearly always next to the line's track)."""

    __slots__ = ("board", "line", "_reach")

    def __init__(self, board: Board, line: int) -> None:
        self.board = board
        self.line = line
        self._reach: Reach | None = None

    @property
    def reach(self) -> Reach:
        """The line's reach (:meth:`~tramways.g1840.board.Board.reach`)."""
        if self._reach is None:
            self._reach = self.board.reach(self.line)
        return self._reach

    @property
    def edges(self) -> frozenset[tuple[str, int]]:
        return self.reach.edges

    @property
    def locations(self) -> frozenset[tuple[str, int]]:
        return self.reach.locations

    @property
    def hexes(self) -> frozenset[str]:
        return self.reach.hexes

    @property
    def candidates(self) -> frozenset[str]:
        """Every hex a new tile of this line could be connected on (the reach's hexes)."""
        return self.reach.hexes

    @property
    def indexed(self) -> bool:
        """Whether the reach is at hand (asked for already)."""
        return self._reach is not None

    def surely_joins(self, coord: str, exits: frozenset[int], olds: Collection[int]) -> bool:
        """True if the line's track is known, without walking, to arrive at ``coord`` at one
        of ``exits`` or at one of its locations ``olds`` (IX.4, IX.5); False means "walk and
        see" (:meth:`entered_edges`, :meth:`reached_locations`)."""
        floor = self.board.reach_floor(self.line)
        if floor is None:
            return False
        known, laid = floor
        b = known.bits.get(coord, 0)
        if any(b >> edge & 1 for edge in exits):
            return True  # a border is a border whatever was laid since
        if coord not in laid:  # else its locations may have been renamed since
            if any(b >> (L0 + old) & 1 for old in olds):
                return True
        board = self.board
        for edge in exits:  # one or two steps more from where the floor's walk went
            nb = board.neighbour(coord, edge)
            back = (edge + 3) % 6
            if (nb is not None and board.neighbour(nb, back) == coord
                    and board.surely_leaves(self.line, nb, back)):
                return True
        return False

    def enters(self, coord: str, edge: int) -> bool:
        """True if the line's track reaches the border of ``coord`` at ``edge``."""
        return bool(self.reach.bits.get(coord, 0) >> edge & 1)

    def reaches_location(self, coord: str, location: int) -> bool:
        return self.reach.has_location(coord, location)

    def entered_edges(self, coord: str) -> frozenset[int]:
        """The edges of ``coord`` the line's track arrives at."""
        return EDGE_SETS[self.reach.bits.get(coord, 0) & EDGE_BITS]

    def reached_locations(self, coord: str) -> frozenset[int]:
        """The locations of ``coord`` the line reaches (every reached location is one of the
        hex's current locations: a marker or the end of a path of its tile)."""
        return LOCATION_SETS[self.reach.bits.get(coord, 0) >> L0 & 0xFF]

    def touches_hex(self, coord: str) -> bool:
        """True if some location of ``coord`` or its border at some edge is reached (every
        such hex is one of the reach's ``hexes``)."""
        return coord in self.reach.bits
