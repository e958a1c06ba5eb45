"""The track graph as one line sees it (:class:`LineGraph`: values, its markers, blocked
interchanges, landmarks, reach).  A claimed route is checked without a graph
(:mod:`tramways.g1840.routes.claimed`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tramways.g1840.routes.graph.incremental import _CACHE, _Built, _HexInfo, track_graph
from tramways.g1840.routes.graph.track import HALT, INTERCHANGE, STATION, TrackGraph
from tramways.g1840.routes.model import RouteContext


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
