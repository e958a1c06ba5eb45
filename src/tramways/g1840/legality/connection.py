"""Where a line's track reaches, seen from the hexes a tile could go on (IX.2, IX.4).

Wraps :meth:`Board.reach` (the line's markers walked over tram track, not through interchanges
blocked for it and without reversing: IX.2) with the questions the tile rules ask:

* :meth:`Connection.enters` - does the line's track arrive at ``coord`` across ``edge``
  (from the neighbour's side, or along track already on ``coord``)?
* :meth:`Connection.touches_hex` - is any location or edge of ``coord`` reached?
* :attr:`Connection.candidates` - every hex a new tile of this line could be connected on.

Every border the walk crosses or points across is in the reach's ``edges`` from both sides, so
the edges entered are exactly ``reach.edges`` and the candidate hexes exactly ``reach.hexes``:
building a Connection from the (cached) reach costs nothing; the per-hex index is built once
per reach (:func:`reach_index`) and shared by every Connection over it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from tramways.g1840.board import Board, Reach

_NONE: frozenset[int] = frozenset()


class ReachIndex:
    """A reach indexed by hex: the edges its track arrives at and the locations it reaches on
    each hex (:meth:`~tramways.g1840.reach.Reach.by_hex`), and its hexes in sorted order (the
    order tile lays are listed in)."""

    __slots__ = ("sorted_hexes", "entered_by_hex", "locations_by_hex")

    def __init__(self, reach: Reach) -> None:
        self.sorted_hexes = tuple(sorted(reach.hexes))
        self.entered_by_hex, self.locations_by_hex = reach.by_hex()


_INDEXES: dict[Reach, ReachIndex] = {}
_INDEX_LIMIT = 4096
"""Indexes kept per reach (a board keeps a line's reach object while its walk is unchanged,
and copies share it, so one index serves every call of a turn and every copy)."""


def reach_index(reach: Reach) -> ReachIndex:
    """The per-hex index of ``reach`` (memoised per reach)."""
    found = _INDEXES.get(reach)
    if found is None:
        if len(_INDEXES) >= _INDEX_LIMIT:
            _INDEXES.clear()
        found = _INDEXES[reach] = ReachIndex(reach)
    return found


class Connection:
    """The reach of ``line`` on ``board``, indexed for tile-laying questions.

    The reach is asked of the board when first needed; :meth:`surely_joins` answers a lay's
    connection from the board's :meth:`~tramways.g1840.board.Board.reach_floor` without it
    where the answer is yes (a replayed lay is nearly always next to the line's track)."""

    __slots__ = ("board", "line", "_reach", "_index")

    def __init__(self, board: Board, line: int) -> None:
        self.board = board
        self.line = line
        self._reach: Reach | None = None
        self._index: ReachIndex | None = None

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
        """Whether the reach's per-hex index is at hand (asked for already)."""
        return self._index is not None

    @property
    def index(self) -> ReachIndex:
        if self._index is None:
            self._index = reach_index(self.reach)
        return self._index

    def surely_joins(self, coord: str, exits: frozenset[int], olds: Collection[int]) -> bool:
        """True if the line's track is known, without walking, to arrive at ``coord`` at one
        of ``exits`` or at one of its locations ``olds`` (IX.4, IX.5); False means "walk and
        see" (:meth:`entered_edges`, :meth:`reached_locations`)."""
        floor = self.board.reach_floor(self.line)
        if floor is None:
            return False
        known, laid = floor
        edges = known.edges
        if any((coord, edge) in edges for edge in exits):
            return True  # a border is a border whatever was laid since
        if coord not in laid:  # else its locations may have been renamed since
            locations = known.locations
            if any((coord, old) in locations for old in olds):
                return True
        board = self.board
        for edge in exits:  # one or two steps more from where the floor's walk went
            nb = board.neighbour(coord, edge)
            back = (edge + 3) % 6
            if (nb is not None and board.neighbour(nb, back) == coord
                    and board.surely_leaves(self.line, nb, back)):
                return True
        return False

    @property
    def entered_by_hex(self) -> Mapping[str, frozenset[int]]:
        """Hex -> the edges of it the line's track arrives at."""
        return self.index.entered_by_hex

    @property
    def locations_by_hex(self) -> Mapping[str, frozenset[int]]:
        """Hex -> the locations of it the line reaches."""
        return self.index.locations_by_hex

    def enters(self, coord: str, edge: int) -> bool:
        """True if the line's track reaches the border of ``coord`` at ``edge``."""
        return (coord, edge) in self.edges

    def reaches_location(self, coord: str, location: int) -> bool:
        return (coord, location) in self.locations

    def entered_edges(self, coord: str) -> frozenset[int]:
        """The edges of ``coord`` the line's track arrives at."""
        return self.index.entered_by_hex.get(coord, _NONE)

    def reached_locations(self, coord: str) -> frozenset[int]:
        """The locations of ``coord`` the line reaches (every reached location is one of the
        hex's current locations: a marker or the end of a path of its tile)."""
        return self.index.locations_by_hex.get(coord, _NONE)

    def touches_hex(self, coord: str) -> bool:
        """True if some location of ``coord`` or its border at some edge is reached (every
        such hex is one of the reach's ``hexes``)."""
        return coord in self.hexes
