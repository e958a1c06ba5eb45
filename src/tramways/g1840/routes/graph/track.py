"""The track graph (:class:`TrackGraph`): every tram stop of a board and the links between
them, built from scratch by :func:`build_track_graph` (the reference computation; see the
package's docstring)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tramways.g1840.routes.model import Stop

if TYPE_CHECKING:
    from tramways.g1840.board import Board
    from tramways.g1840.model import LocationDef, PathDef



TRAM = "tram"

HALT, INTERCHANGE, STATION = "halt", "interchange", "station"
"""Stop kinds: a halt (always earns), an interchange (earns with the line's marker), an empty
purple railway station (no revenue location, R-LR-6; a 0-value route end under X-6)."""


@dataclass(frozen=True, slots=True)
class Link:
    """Track from stop ``a`` to stop ``b`` (indexes into :attr:`TrackGraph.stops`).

    ``track``: bit mask of the pieces of track used; ``steps``: ``(hex, path)`` from ``a`` to
    ``b``; ``exit_edge``: the edge of ``a``'s hex the link leaves by (``None`` inside the hex).
    """

    a: int
    b: int
    track: int
    steps: tuple[tuple[str, PathDef], ...]
    exit_edge: int | None
    entry_edge: int | None

    def other(self, stop: int) -> int:
        return self.b if stop == self.a else self.a

    def leaving(self, stop: int) -> int | None:
        """The edge by which the link leaves ``stop``'s hex."""
        return self.exit_edge if stop == self.a else self.entry_edge

    def steps_from(self, stop: int) -> tuple[tuple[str, PathDef], ...]:
        return self.steps if stop == self.a else tuple(reversed(self.steps))


@dataclass(slots=True)
class TrackGraph:
    """Stops and the tram links between them, for one board position (no line involved).

    ``routes``: the best routes found on this graph by markers and context
    (:func:`tramways.g1840.routes.search.best_route`): they live and go with the graph."""

    stops: list[Stop]
    index: dict[Stop, int]
    kinds: list[str]
    terminal: list[bool]
    locations: list[Any]  # LocationDef per stop (None for an empty station)
    links: list[Link]
    incident: list[list[int]]
    routes: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)


def _is_red_hex(board: Board, coord: str) -> bool:
    """R-LR-6: a hex carrying a red inner-city tile, where every route entering it ends.

    Red off-board areas end routes through their tram paths, which the map data marks
    ``terminal``; Grinzing (A13) has none: III.4.1 names it as the exception, so routes pass
    through it like any other track (B12-A13-B14), as :meth:`Board.reach` does."""
    placed = board.tile(coord)
    if placed is None:
        return False
    from tramways.g1840.data import tiles

    return tiles()[placed.tile_id].colour == "red"


def _stop_kind(board: Board, coord: str, loc: LocationDef) -> str | None:
    if loc.kind == HALT:
        return HALT
    if loc.kind == INTERCHANGE:
        return INTERCHANGE
    if board.layout.hexes[coord].area == "railway_station":
        return STATION
    return None  # an empty inner-city hex: cannot be entered (R-LR-6)


PieceKey = tuple[str, int]
"""A piece of track: ``(coord, edge)`` of a border (the smaller of its two sides), or
``("<coord>:<loc>-<loc>", path)`` for track inside one hex between two of its locations."""


class _Pieces:
    """Bit numbering of pieces of track, append-only (shared by a line of derived graphs)."""

    __slots__ = ("bits", "keys")

    def __init__(self) -> None:
        self.bits: dict[PieceKey, int] = {}
        self.keys: dict[int, PieceKey] = {}

    def border(self, coord: str, edge: int, other: str) -> int:
        key = (coord, edge) if coord < other else (other, (edge + 3) % 6)
        bit = self.bits.get(key)
        if bit is None:
            bit = self.bits[key] = 1 << len(self.bits)
            self.keys[bit] = key
        return bit

    def inside(self, coord: str, loc_a: int, loc_b: int, path: int) -> int:
        key = (f"{coord}:{min(loc_a, loc_b)}-{max(loc_a, loc_b)}", path)
        bit = self.bits.get(key)
        if bit is None:
            bit = self.bits[key] = 1 << len(self.bits)
            self.keys[bit] = key
        return bit


def build_track_graph(board: Board, pieces: _Pieces | None = None) -> TrackGraph:
    """Every tram stop of the board and every link between two stops, from scratch.

    This is the reference computation; :func:`track_graph` derives the same graph from an
    earlier one in time proportional to the change. ``pieces`` numbers the pieces of track
    (a fresh numbering by default)."""
    if pieces is None:
        pieces = _Pieces()
    stops, index, kinds, terminal, locdefs, tram_paths = _scan(board)
    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    for a, (coord, loc_id) in enumerate(stops):
        for number, path in enumerate(tram_paths[coord]):
            if path.a.location == loc_id:
                far = path.b
            elif path.b.location == loc_id:
                far = path.a
            else:
                continue
            start = ((coord, path),)
            if far.location is not None:
                b = index.get((coord, far.location))
                if b is not None and b > a:
                    # track inside the hex between two of its locations: a piece of its own
                    bit = pieces.inside(coord, loc_id, far.location, number)
                    links.append(Link(a, b, bit, start, None, None))
                continue
            assert far.edge is not None
            for b, mask, steps, entry in _walk(board, tram_paths, index, pieces, coord, far.edge):
                if b > a:
                    links.append(Link(a, b, mask, start + steps, far.edge, entry))
    for i, link in enumerate(links):
        incident[link.a].append(i)
        incident[link.b].append(i)
    return TrackGraph(stops, index, kinds, terminal, locdefs, links, incident)


def _scan(board: Board) -> tuple[list[Stop], dict[Stop, int], list[str], list[bool], list[Any],
                                 dict[str, list[PathDef]]]:
    """Every tram stop of the board in board order (with its index, kind, terminal flag and
    location), and the tram paths of every hex with tram track."""
    stops: list[Stop] = []
    kinds: list[str] = []
    terminal: list[bool] = []
    locdefs: list[Any] = []
    index: dict[Stop, int] = {}
    tram_paths: dict[str, list[PathDef]] = {}
    for coord in sorted(board.layout.hexes):
        paths = [p for p in board.paths(coord) if p.track == TRAM]
        if not paths:
            continue
        tram_paths[coord] = paths
        red = _is_red_hex(board, coord)
        for loc in board.locations(coord):
            touching = [p for p in paths if loc.id in (p.a.location, p.b.location)]
            if not touching:
                continue
            kind = _stop_kind(board, coord, loc)
            if kind is None:
                continue
            index[(coord, loc.id)] = len(stops)
            stops.append((coord, loc.id))
            kinds.append(kind)
            terminal.append(red or kind == STATION or any(p.terminal for p in touching))
            locdefs.append(loc)
    return stops, index, kinds, terminal, locdefs, tram_paths


def _walk(
    board: Board,
    tram_paths: dict[str, list[PathDef]],
    index: dict[Stop, int],
    pieces: _Pieces,
    coord: str,
    edge: int,
) -> Iterator[tuple[int, int, tuple[tuple[str, PathDef], ...], int]]:
    """From ``edge`` of ``coord`` onwards to the next stops: (stop, mask, steps, entry edge)."""
    todo: list[tuple[str, int, int, tuple[tuple[str, PathDef], ...]]] = [(coord, edge, 0, ())]
    while todo:
        here, out, mask, steps = todo.pop()
        there = board.neighbour(here, out)
        if there is None or there not in tram_paths:
            continue
        bit = pieces.border(here, out, there)
        if mask & bit:
            continue  # a loop of plain track
        mask |= bit
        entry = (out + 3) % 6
        for path in tram_paths[there]:
            if path.a.edge == entry:
                far = path.b
            elif path.b.edge == entry:
                far = path.a
            else:
                continue
            now = (*steps, (there, path))
            if far.location is not None:
                b = index.get((there, far.location))
                if b is not None:
                    yield b, mask, now, entry
            elif far.edge is not None:
                todo.append((there, far.edge, mask, now))
