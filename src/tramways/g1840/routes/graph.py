"""The search graph of tram routes, built from a :class:`~tramways.g1840.board.Board`.

Nodes are the board's revenue locations ("stops"); a *link* is a stretch of tram track from
one stop to the next that passes no other location (usually one hex border; through the red
connector hexes A23, K11, K17, K29 several).  Following track this way cannot reverse at a
junction or change track at a crossover (IX.2): a walk only ever continues along a path that
starts where the previous one ended.

Every link carries the *pieces of track* it uses as a bit mask: the border it crosses (the two
paths that meet there, and any other path of either tile touching that border, share that
piece: IX.2 "no piece of track twice").  Dotted Stadtbahn track is never followed (IX.7).

The graph has two layers:

* :class:`TrackGraph` depends on the tiles only (cached per board version);
* :class:`LineGraph` adds what one line sees: stop values in the phase (R-LR-7), its own
  markers, blocked interchanges (IX.7), the owned landmarks, and keeps only the stops its
  markers can reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tramways.g1840.routes.model import RouteContext, Stop

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
    """Stops and the tram links between them, for one board position (no line involved)."""

    stops: list[Stop]
    index: dict[Stop, int]
    kinds: list[str]
    terminal: list[bool]
    locations: list[Any]  # LocationDef per stop (None for an empty station)
    links: list[Link]
    incident: list[list[int]]


def _is_red_hex(board: Board, coord: str) -> bool:
    """R-LR-6: a red off-board area or a hex carrying a red inner-city tile."""
    hexdef = board.layout.hexes[coord]
    if str(hexdef.area).startswith("offboard_red"):
        return True
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


def build_track_graph(board: Board) -> TrackGraph:
    """Every tram stop of the board and every link between two stops."""
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
    pieces: dict[tuple[str, int], int] = {}

    def piece(coord: str, edge: int, other: str) -> int:
        key = min((coord, edge), (other, (edge + 3) % 6))
        bit = pieces.get(key)
        if bit is None:
            bit = pieces[key] = 1 << len(pieces)
        return bit

    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    for a, (coord, loc_id) in enumerate(stops):
        for path in tram_paths[coord]:
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
                    bit = 1 << len(pieces)
                    pieces[(f"{coord}:{a}-{b}", len(links))] = bit
                    links.append(Link(a, b, bit, start, None, None))
                continue
            assert far.edge is not None
            for b, mask, steps, entry in _walk(board, tram_paths, index, piece, coord, far.edge):
                if b > a:
                    links.append(Link(a, b, mask, start + steps, far.edge, entry))
    for i, link in enumerate(links):
        incident[link.a].append(i)
        incident[link.b].append(i)
    return TrackGraph(stops, index, kinds, terminal, locdefs, links, incident)


def _walk(
    board: Board,
    tram_paths: dict[str, list[PathDef]],
    index: dict[Stop, int],
    piece: Any,
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
        bit = piece(here, out, there)
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


_CACHE: dict[int, TrackGraph] = {}


def track_graph(board: Board) -> TrackGraph:
    """:func:`build_track_graph`, cached by board version (versions are unique across boards
    and copies share their original's until they change, so a copy reuses the graph)."""
    graph = _CACHE.get(board.version)
    if graph is None:
        graph = build_track_graph(board)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[board.version] = graph
    return graph


@dataclass(slots=True)
class LineGraph:
    """The track graph as one line sees it (IX.2, IX.7, IX.8, R-LR-6, R-LR-7).

    ``usable[i]``: the stop may be on this line's routes (an empty station only under X-6);
    ``value[i]``: what it earns; ``end_only[i]``: a blocked interchange (IX.7) or a red or
    station end (R-LR-6); ``own``: stops with this line's marker that its routes can start
    from, in board order; ``landmark[i]``: the bit of the owned landmark hex of the stop (0 if
    none); ``reach``: the stops reachable from the line's markers.
    """

    track: TrackGraph
    context: RouteContext
    usable: list[bool]
    value: list[int]
    end_only: list[bool]
    own: list[int]
    landmark: list[int]
    reach: list[int]


def line_graph(ctx: RouteContext) -> LineGraph:
    graph = track_graph(ctx.board)
    board = ctx.board
    n = len(graph.stops)
    usable = [True] * n
    value = [0] * n
    end_only = list(graph.terminal)
    own_set: set[int] = set()
    landmark = [0] * n
    bits: dict[str, int] = {}
    marker_cache: dict[str, Any] = {}
    for i, (coord, loc_id) in enumerate(graph.stops):
        kind = graph.kinds[i]
        if kind == STATION:
            usable[i] = ctx.ruleset == "18xx.games"  # R-LR-6 vs X-6
            continue
        markers = marker_cache.get(coord)
        if markers is None:
            markers = marker_cache[coord] = board.markers(coord)
        loc = graph.locations[i]
        mine = ctx.line in markers.get(loc_id, ())
        if kind == HALT:
            value[i] = loc.value(ctx.phase)
        elif mine:
            value[i] = loc.value(ctx.phase)
            own_set.add(i)
        elif board.is_blocked(coord, loc_id, ctx.line):
            end_only[i] = True
        if coord in ctx.landmark_hexes:
            if coord not in bits:
                bits[coord] = 1 << len(bits)
            landmark[i] = bits[coord]
    for i in range(n):
        if graph.kinds[i] == STATION and graph.stops[i][0] in ctx.landmark_hexes:
            landmark[i] = bits.setdefault(graph.stops[i][0], 1 << len(bits))
    # The stops the line's markers reach: a walk may end at an end-only stop but not pass it.
    seen = set(own_set)
    todo = sorted(own_set)
    while todo:
        s = todo.pop()
        if end_only[s] and s not in own_set:
            continue
        for li in graph.incident[s]:
            t = graph.links[li].other(s)
            if usable[t] and t not in seen:
                seen.add(t)
                todo.append(t)
    return LineGraph(graph, ctx, usable, value, end_only, sorted(own_set), landmark, sorted(seen))
