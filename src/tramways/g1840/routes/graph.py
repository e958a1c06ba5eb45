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

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tramways.g1840.board import Placed
from tramways.g1840.hexgrid import neighbour_table
from tramways.g1840.routes.model import RouteContext, Stop

if TYPE_CHECKING:
    from tramways.g1840.board import Board
    from tramways.g1840.model import Layout, LocationDef, PathDef

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


# ---------------------------------------------------------------------------- incremental


@dataclass(frozen=True, slots=True)
class _HexInfo:
    """The tram track of one hex as laid (cached per layout, hex and tile): its tram paths,
    its stops ``(location, kind, terminal, LocationDef)``, and the tram paths by the location
    and by the edge they start from (``(number, path, far end)``, in path order)."""

    tram: tuple[PathDef, ...]
    stops: tuple[tuple[int, str, bool, Any], ...]
    from_location: dict[int, tuple[tuple[int, PathDef, Any], ...]]
    from_edge: dict[int, tuple[tuple[PathDef, Any], ...]]
    keys: tuple[Stop, ...]
    kinds: tuple[str, ...]
    terminal: tuple[bool, ...]
    locations: tuple[Any, ...]


_HEX_INFO: dict[tuple[int, str, Placed | None], _HexInfo] = {}
_LAYOUTS: dict[int, Layout] = {}  # keeps the layouts of _HEX_INFO keys alive


def _hex_info(board: Board, coord: str) -> _HexInfo:
    placed = board.tile(coord)
    key = (id(board.layout), coord, placed)
    info = _HEX_INFO.get(key)
    if info is not None:
        return info
    _LAYOUTS[id(board.layout)] = board.layout
    tram = tuple(p for p in board.paths(coord) if p.track == TRAM)
    stops: list[tuple[int, str, bool, Any]] = []
    if tram:
        red = _is_red_hex(board, coord)
        for loc in board.locations(coord):
            touching = [p for p in tram if loc.id in (p.a.location, p.b.location)]
            if not touching:
                continue
            kind = _stop_kind(board, coord, loc)
            if kind is None:
                continue
            stops.append(
                (loc.id, kind, red or kind == STATION or any(p.terminal for p in touching), loc))
    from_location: dict[int, list[tuple[int, PathDef, Any]]] = {}
    from_edge: dict[int, list[tuple[PathDef, Any]]] = {}
    for number, path in enumerate(tram):
        for here, far in ((path.a, path.b), (path.b, path.a)):
            if here.location is not None:
                from_location.setdefault(here.location, []).append((number, path, far))
            if here.edge is not None:
                from_edge.setdefault(here.edge, []).append((path, far))
    info = _HexInfo(
        tram,
        tuple(stops),
        {k: tuple(v) for k, v in from_location.items()},
        {k: tuple(v) for k, v in from_edge.items()},
        tuple((coord, s[0]) for s in stops),
        tuple(s[1] for s in stops),
        tuple(s[2] for s in stops),
        tuple(s[3] for s in stops),
    )
    _HEX_INFO[key] = info
    return info


Entry = tuple[Stop, int, "tuple[tuple[str, PathDef], ...]", "int | None", "int | None"]


@dataclass(frozen=True, slots=True)
class _StopLinks:
    """The links found from one stop towards later stops, ``(other stop, mask, steps, exit
    edge, entry edge)`` in the order of the reference build, and ``deps``: every hex whose track the walks looked at
    (a change anywhere else cannot alter them)."""

    entries: tuple[Entry, ...]
    deps: frozenset[str]
    targets: frozenset[Stop]


def _walks_from(
    board: Board,
    info_of: Callable[[str], _HexInfo],
    pieces: _Pieces,
    coord: str,
    loc_id: int,
    accept: Callable[[Stop], bool],
    looked: set[str],
) -> list[Entry]:
    """The walks of :func:`build_track_graph` from stop ``(coord, loc_id)`` (same order, same
    steps and edges) that end at a stop ``accept`` takes, as ``(stop, mask, steps, exit edge,
    entry edge)``; ``looked`` receives every hex whose track the walks looked at."""
    nb_table = neighbour_table(board.layout)
    entries: list[Entry] = []
    looked.add(coord)
    for number, path, far in _hex_info(board, coord).from_location.get(loc_id, ()):
        start = ((coord, path),)
        if far.location is not None:
            other = (coord, far.location)
            if accept(other):
                entries.append(
                    (other, pieces.inside(coord, loc_id, far.location, number), start, None, None))
            continue
        first = far.edge
        todo: list[tuple[str, int, int, tuple[tuple[str, PathDef], ...]]] = [
            (coord, first, 0, start)]
        while todo:
            here, out, mask, steps = todo.pop()
            there = nb_table[here][out]
            if there is None:
                continue
            looked.add(there)
            info = info_of(there)
            if not info.tram:
                continue
            bit = pieces.border(here, out, there)
            if mask & bit:
                continue  # a loop of plain track
            mask |= bit
            entry = (out + 3) % 6
            for path2, far2 in info.from_edge.get(entry, ()):
                now = (*steps, (there, path2))
                if far2.location is not None:
                    other = (there, far2.location)
                    if accept(other):
                        entries.append((other, mask, now, first, entry))
                elif far2.edge is not None:
                    todo.append((there, far2.edge, mask, now))
    return entries


def _stop_links(
    board: Board,
    infos: dict[str, _HexInfo],
    is_stop: Any,
    pieces: _Pieces,
    coord: str,
    loc_id: int,
) -> _StopLinks:
    """The walks of :func:`build_track_graph` from one stop (same order, same results), keeping
    the links towards later stops only (the order of two stops never changes while both
    exist: by hex, then by their order on the hex's tile, and either hex changing re-walks)."""
    deps: set[str] = set()
    me = is_stop[(coord, loc_id)]
    entries = _walks_from(board, infos.__getitem__, pieces, coord, loc_id,
                          lambda other: is_stop.get(other, -1) > me, deps)
    return _StopLinks(tuple(entries), frozenset(deps), frozenset(e[0] for e in entries))


@dataclass(slots=True)
class _Built:
    """A track graph with what is needed to derive the next one from it."""

    graph: TrackGraph
    tiles: dict[str, Placed]
    infos: dict[str, _HexInfo]
    links_of: dict[Stop, _StopLinks]
    pieces: _Pieces
    made: dict[Stop, tuple[Link, ...]]
    tables: dict[Any, Any] = field(default_factory=dict)
    """Per-graph tables for :func:`line_graph`: stop indexes by hex (``"by_coord"``), the
    empty stations (``"stations"``) and, by phase, every stop's halt value."""


_SORTED: dict[int, tuple[str, ...]] = {}


def _assemble(
    board: Board,
    infos: dict[str, _HexInfo],
    links_of: dict[Stop, _StopLinks],
    old: _Built | None,
    changed: set[str],
    pieces: _Pieces,
) -> _Built:
    coords = _SORTED.get(id(board.layout))
    if coords is None:
        coords = _SORTED[id(board.layout)] = tuple(sorted(board.layout.hexes))
    stops: list[Stop] = []
    kinds: list[str] = []
    terminal: list[bool] = []
    locdefs: list[Any] = []
    by_coord: dict[str, range] = {}
    stations: list[int] = []
    for coord in coords:
        info = infos[coord]
        if info.keys:
            start = len(stops)
            by_coord[coord] = range(start, start + len(info.keys))
            if STATION in info.kinds:
                stations.extend(start + j for j, kind in enumerate(info.kinds) if kind == STATION)
            stops.extend(info.keys)
            kinds.extend(info.kinds)
            terminal.extend(info.terminal)
            locdefs.extend(info.locations)
    same = old is not None and old.graph.stops == stops
    index = old.graph.index if old is not None and same else {
        stop: i for i, stop in enumerate(stops)}
    # the Link objects of each stop, reused while its walk and its stops' indexes stay
    made: dict[Stop, tuple[Link, ...]] = dict(old.made) if old is not None else {}
    if old is None:
        todo = stops
    else:
        todo = [s for s in stops if s[0] in changed or s not in links_of]
        for stop, found in old.links_of.items():
            if not found.deps.isdisjoint(changed):
                todo.append(stop)
        for stop in old.links_of:
            if stop not in index:
                del links_of[stop]
                made.pop(stop, None)
    walked = set(todo)
    for stop in dict.fromkeys(todo):
        if stop in index:
            links_of[stop] = _stop_links(board, infos, index, pieces, stop[0], stop[1])
    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    for a, stop in enumerate(stops):
        found = links_of[stop]
        mine = None if stop in walked else made.get(stop)
        if mine and not same:
            if mine[0].a != a:
                mine = None
            else:
                for entry, link in zip(found.entries, mine, strict=True):
                    if index[entry[0]] != link.b:
                        mine = None
                        break
        if mine is None:
            mine = made[stop] = tuple(
                [Link(a, index[other], mask, steps, exit_edge, entry_edge)
                 for other, mask, steps, exit_edge, entry_edge in found.entries])
        for link in mine:
            incident[a].append(len(links))
            incident[link.b].append(len(links))
            links.append(link)
    graph = TrackGraph(stops, index, kinds, terminal, locdefs, links, incident)
    return _Built(graph, dict(board.placed()), infos, links_of, pieces, made,
                  {"by_coord": by_coord, "stations": stations})


def _fresh(board: Board) -> _Built:
    infos = {coord: _hex_info(board, coord) for coord in board.layout.hexes}
    return _assemble(board, infos, {}, None, set(), _Pieces())


_DERIVE_LIMIT = 12
"""Above this many changed hexes a graph is built afresh rather than derived."""


def _derive(base: _Built, board: Board) -> _Built:
    tiles = board.placed()
    old = base.tiles
    changed = {c for c, p in tiles.items() if old.get(c) is not p}
    changed.update(c for c in old if c not in tiles)
    if not changed:
        return _Built(base.graph, base.tiles, base.infos, base.links_of, base.pieces, base.made,
                      base.tables)
    if len(changed) > _DERIVE_LIMIT:
        return _fresh(board)
    infos = dict(base.infos)
    for coord in changed:
        infos[coord] = _hex_info(board, coord)
    return _assemble(board, infos, dict(base.links_of), base, changed, base.pieces)


_CACHE: dict[int, _Built] = {}
_LAST: dict[int, _Built] = {}


def track_graph(board: Board) -> TrackGraph:
    """The board's :class:`TrackGraph` (equal to :func:`build_track_graph` up to the numbering
    of pieces of track), cached by board version and derived from the last graph built for the
    same layout: only the stops whose walks looked at a changed hex are walked again."""
    built = _CACHE.get(board.version)
    if built is None:
        base = _LAST.get(id(board.layout))
        built = _fresh(board) if base is None else _derive(base, board)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[board.version] = built
        _LAST[id(board.layout)] = built
    return built.graph


def track_pieces(board: Board) -> Mapping[int, PieceKey]:
    """Bit -> piece of track for the masks of :func:`track_graph` ``(board)``."""
    track_graph(board)
    return _CACHE[board.version].pieces.keys


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
