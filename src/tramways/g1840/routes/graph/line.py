"""The track graph as one line sees it (:class:`LineGraph`: values, its markers, blocked
interchanges, landmarks, reach), and the graph of one claimed route
(:func:`route_line_graph`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tramways.g1840.board import Placed
from tramways.g1840.routes.graph.incremental import (
    _CACHE,
    _LAYOUTS,
    Entry,
    _Built,
    _hex_info,
    _HexInfo,
    _walks_from,
    track_graph,
)
from tramways.g1840.routes.graph.track import (
    HALT,
    INTERCHANGE,
    STATION,
    Link,
    TrackGraph,
    _Pieces,
)
from tramways.g1840.routes.model import RouteContext, Stop

if TYPE_CHECKING:
    from tramways.g1840.board import Board


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


_HALT_VALUES: dict[tuple[int, str], tuple[int, ...]] = {}


def _halt_values(info: _HexInfo, phase: str) -> tuple[int, ...]:
    """What each stop of the hex earns in ``phase`` if it is a halt (0 otherwise)."""
    key = (id(info), phase)
    found = _HALT_VALUES.get(key)
    if found is None:
        found = _HALT_VALUES[key] = tuple(
            loc.value(phase) if kind == HALT else 0
            for kind, loc in zip(info.kinds, info.locations, strict=True))
    return found


def _tables(built: _Built, phase: str) -> tuple[dict[str, range], list[int], list[int]]:
    """Stop indexes by hex, the empty stations, and every halt's value in ``phase``."""
    tables = built.tables
    by_coord = tables["by_coord"]
    halts = tables.get(phase)
    if halts is None:
        halts = tables[phase] = []
        for coord in by_coord:
            halts.extend(_halt_values(built.infos[coord], phase))
    return by_coord, tables["stations"], halts


def line_graph(ctx: RouteContext) -> LineGraph:
    """What line ``ctx.line`` sees of the board's track graph (IX.2, IX.7, IX.8, R-LR-6,
    R-LR-7): equal to :func:`build_line_graph`, but visiting only the markers on the board and
    the landmark hexes instead of every stop."""
    board = ctx.board
    graph = track_graph(board)
    by_coord, stations, halts = _tables(_CACHE[board.version], ctx.phase)
    n = len(graph.stops)
    line = ctx.line
    usable = [True] * n
    if not ctx.ruleset.purple_station_route_end:
        for i in stations:
            usable[i] = False  # R-LR-6 vs X-6
    value = list(halts)
    end_only = list(graph.terminal)
    own_set: set[int] = set()
    index, kinds, locations = graph.index, graph.kinds, graph.locations
    for coord, by_loc in board.all_markers().items():
        if coord not in by_coord:
            continue
        for loc_id, owners in by_loc.items():
            at = index.get((coord, loc_id))
            if at is None or kinds[at] != INTERCHANGE:
                continue
            i = at
            if line in owners:
                value[i] = locations[i].value(ctx.phase)
                own_set.add(i)
            elif len(owners) >= locations[i].slots:
                end_only[i] = True  # blocked (IX.7)
    landmark = [0] * n
    if ctx.landmark_hexes:
        marked = sorted(i for c in ctx.landmark_hexes for i in by_coord.get(c, ()))
        bits: dict[str, int] = {}
        for i in marked:
            if kinds[i] != STATION:
                coord = graph.stops[i][0]
                if coord not in bits:
                    bits[coord] = 1 << len(bits)
                landmark[i] = bits[coord]
        for i in marked:
            if kinds[i] == STATION:
                landmark[i] = bits.setdefault(graph.stops[i][0], 1 << len(bits))
    seen = set(own_set)
    todo = sorted(own_set)
    incident, links = graph.incident, graph.links
    while todo:
        s = todo.pop()
        if end_only[s] and s not in own_set:
            continue
        for li in incident[s]:
            link = links[li]
            t = link.b if s == link.a else link.a
            if usable[t] and t not in seen:
                seen.add(t)
                todo.append(t)
    return LineGraph(graph, ctx, usable, value, end_only, sorted(own_set), landmark, sorted(seen))


def build_line_graph(ctx: RouteContext) -> LineGraph:
    """:func:`line_graph` computed stop by stop (the reference it is tested against)."""
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
            usable[i] = ctx.ruleset.purple_station_route_end  # R-LR-6 vs X-6
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


# ---------------------------------------------------------------------------- one route


_BETWEEN: dict[tuple[int, Stop, Stop],
               tuple[tuple[str, ...], list[Placed | None], list[Entry]]] = {}
_ROUTE_PIECES: dict[int, _Pieces] = {}


def _route_pieces(board: Board) -> _Pieces:
    """The numbering of pieces of track for route checks on this layout (append-only)."""
    pieces = _ROUTE_PIECES.get(id(board.layout))
    if pieces is None:
        _LAYOUTS[id(board.layout)] = board.layout
        pieces = _ROUTE_PIECES[id(board.layout)] = _Pieces()
    return pieces


def _cached_links_between(board: Board, a: Stop, b: Stop) -> list[Entry]:
    """:func:`_links_between` with :func:`_route_pieces`, remembered per layout and pair of
    stops together with the tile on every hex the walks looked at: reused only while each of
    those hexes holds an equal :class:`Placed` (or stays empty), so that every hex looked at
    has the same track (:func:`_hex_info` is keyed the same way)."""
    key = (id(board.layout), a, b)
    found = _BETWEEN.get(key)
    tiles = board.placed()
    if found is not None:
        coords, placed, entries = found
        if list(map(tiles.get, coords)) == placed:
            return entries
    looked: set[str] = set()
    entries = _links_between(board, a, b, _route_pieces(board), looked)
    if len(_BETWEEN) > 4096:
        _BETWEEN.clear()
    coords = tuple(looked)
    _BETWEEN[key] = (coords, list(map(tiles.get, coords)), entries)
    return entries


def _links_between(board: Board, a: Stop, b: Stop, pieces: _Pieces, looked: set[str]
                   ) -> list[Entry]:
    """The walks of :func:`build_track_graph` from stop ``a`` that end at stop ``b`` (same
    order, same steps and edges), as ``(b, mask, steps, exit edge, entry edge)``; ``looked``
    receives every hex whose track the walks looked at."""
    return _walks_from(board, lambda c: _hex_info(board, c), pieces, a[0], a[1],
                       lambda other: other == b, looked)


def route_line_graph(ctx: RouteContext, route: list[Stop]) -> LineGraph:
    """The part of :func:`line_graph` ``(ctx)`` a claimed route needs, built from the route
    alone (IX.2, IX.7, IX.8, R-LR-6, R-LR-7): its stops that are tram stops (in route order,
    each once), every link between two stops that follow each other on the route (in the order
    of the whole graph), and the stops' ``usable``, ``value``, ``end_only``, ``own`` and
    ``landmark`` as :func:`line_graph` gives them.  ``reach`` is left empty (not computed);
    landmark bits are one per landmark hex, in route order."""
    board = ctx.board
    hexes = board.layout.hexes
    stops: list[Stop] = []
    index: dict[Stop, int] = {}
    kinds: list[str] = []
    terminal: list[bool] = []
    locdefs: list[Any] = []
    order: list[tuple[str, int]] = []
    for stop in route:
        if stop in index or stop[0] not in hexes:
            continue
        info = _hex_info(board, stop[0])
        if stop not in info.keys:
            continue
        j = info.keys.index(stop)
        index[stop] = len(stops)
        stops.append(stop)
        kinds.append(info.kinds[j])
        terminal.append(info.terminal[j])
        locdefs.append(info.locations[j])
        order.append((stop[0], j))
    n = len(stops)
    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    pairs: set[tuple[int, int]] = set()
    for s, t in zip(route, route[1:], strict=False):
        i, k = index.get(s), index.get(t)
        if i is None or k is None or i == k:
            continue
        a, b = (i, k) if order[i] < order[k] else (k, i)
        if (a, b) in pairs:
            continue
        pairs.add((a, b))
        for _other, mask, steps, exit_edge, entry_edge in _cached_links_between(
                board, stops[a], stops[b]):
            incident[a].append(len(links))
            incident[b].append(len(links))
            links.append(Link(a, b, mask, steps, exit_edge, entry_edge))
    graph = TrackGraph(stops, index, kinds, terminal, locdefs, links, incident)
    phase, line = ctx.phase, ctx.line
    usable = [ctx.ruleset.purple_station_route_end or kind != STATION for kind in kinds]
    value = [loc.value(phase) if kind == HALT else 0 for kind, loc in zip(kinds, locdefs,
                                                                           strict=True)]
    end_only = list(terminal)
    own: list[int] = []
    landmark = [0] * n
    bits: dict[str, int] = {}
    for i, (coord, loc_id) in enumerate(stops):
        if kinds[i] == INTERCHANGE:
            owners = board.markers(coord).get(loc_id)
            if owners:
                if line in owners:
                    value[i] = locdefs[i].value(phase)
                    own.append(i)
                elif len(owners) >= locdefs[i].slots:
                    end_only[i] = True  # blocked (IX.7)
        if coord in ctx.landmark_hexes:
            landmark[i] = bits.setdefault(coord, 1 << len(bits))
    return LineGraph(graph, ctx, usable, value, end_only, own, landmark, [])
