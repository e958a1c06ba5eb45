"""The track graph derived from the last one built for the same layout (:func:`track_graph`):
only the stops whose walks looked at a changed hex are walked again; equal to
:func:`~tramways.g1840.routes.graph.track.build_track_graph` up to the numbering of pieces of
track."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tramways.g1840.board import Placed
from tramways.g1840.hexgrid import neighbour_table
from tramways.g1840.routes.graph.track import (
    STATION,
    TRAM,
    Link,
    PieceKey,
    TrackGraph,
    _is_red_hex,
    _Pieces,
    _stop_kind,
)
from tramways.g1840.routes.model import Stop

if TYPE_CHECKING:
    from tramways.g1840.board import Board
    from tramways.g1840.model import Layout, PathDef

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


_HEX_INFO: dict[tuple[int, str, str | None, int], _HexInfo] = {}
"""Per layout, hex and tile (id and rotation; ``None`` and 0 as printed): keyed by plain
strings and ints, whose hashes are cheap (a ``Placed`` hashes in Python)."""
_LAYOUTS: dict[int, Layout] = {}  # keeps the layouts of _HEX_INFO keys alive


def _hex_info(board: Board, coord: str) -> _HexInfo:
    placed = board.tile(coord)
    key = ((id(board.layout), coord, None, 0) if placed is None
           else (id(board.layout), coord, placed.tile_id, placed.rotation))
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
    layout_id: int = 0
    """``id`` of the layout of the board it was built for."""


_SORTED: dict[int, tuple[str, ...]] = {}


def _assemble(
    board: Board,
    infos: dict[str, _HexInfo],
    links_of: dict[Stop, _StopLinks],
    old: _Built | None,
    changed: set[str],
    pieces: _Pieces,
) -> _Built:
    """The track graph of ``board`` from its hexes' track (``infos``), re-walking only the
    stops whose walks may have changed since ``old`` (all of them without ``old``)."""
    stops, kinds, terminal, locdefs, tables = _stops(board, infos)
    same = old is not None and old.graph.stops == stops
    index = old.graph.index if old is not None and same else {
        stop: i for i, stop in enumerate(stops)}
    # the Link objects of each stop, reused while its walk and its stops' indexes stay
    made: dict[Stop, tuple[Link, ...]] = dict(old.made) if old is not None else {}
    todo = stops if old is None else _to_walk(old, stops, index, links_of, made, changed)
    walked = set(todo)
    for stop in dict.fromkeys(todo):
        if stop in index:
            links_of[stop] = _stop_links(board, infos, index, pieces, stop[0], stop[1])
    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    for a, stop in enumerate(stops):
        mine = _links_from(a, stop, links_of[stop], index, made,
                           None if stop in walked else made.get(stop), same)
        for link in mine:
            incident[a].append(len(links))
            incident[link.b].append(len(links))
            links.append(link)
    graph = TrackGraph(stops, index, kinds, terminal, locdefs, links, incident)
    return _Built(graph, dict(board.placed()), infos, links_of, pieces, made, tables)


def _stops(board: Board, infos: dict[str, _HexInfo]
           ) -> tuple[list[Stop], list[str], list[bool], list[Any], dict[Any, Any]]:
    """The stops in board order with their kinds, terminal flags and locations, and the
    tables of :attr:`_Built.tables` (stop indexes by hex, the empty stations)."""
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
    return stops, kinds, terminal, locdefs, {"by_coord": by_coord, "stations": stations}


def _to_walk(old: _Built, stops: list[Stop], index: dict[Stop, int],
             links_of: dict[Stop, _StopLinks], made: dict[Stop, tuple[Link, ...]],
             changed: set[str]) -> list[Stop]:
    """The stops to walk again: on a changed hex, new, or whose walks looked at a changed
    hex; the walks of stops gone are forgotten."""
    todo = [s for s in stops if s[0] in changed or s not in links_of]
    for stop, found in old.links_of.items():
        if not found.deps.isdisjoint(changed):
            todo.append(stop)
    for stop in old.links_of:
        if stop not in index:
            del links_of[stop]
            made.pop(stop, None)
    return todo


def _links_from(a: int, stop: Stop, found: _StopLinks, index: dict[Stop, int],
                made: dict[Stop, tuple[Link, ...]], mine: tuple[Link, ...] | None,
                same: bool) -> tuple[Link, ...]:
    """The links from stop ``a`` towards later stops: ``mine`` (the ones made before) while
    its walk and its stops' indexes stay, otherwise made anew."""
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
    return mine


def _fresh(board: Board) -> _Built:
    infos = {coord: _hex_info(board, coord) for coord in board.layout.hexes}
    return _assemble(board, infos, {}, None, set(), _Pieces())


_DERIVE_LIMIT = 12
"""Above this many changed hexes a graph is built afresh rather than derived."""


def _changes(old: Mapping[str, Placed], tiles: Mapping[str, Placed], limit: int
             ) -> set[str] | None:
    """The hexes whose tile differs between ``old`` and ``tiles``, or ``None`` above
    ``limit`` of them (tiles are only laid or upgraded, so counting stops early)."""
    if len(tiles) - len(old) > limit:
        return None
    changed: set[str] = set()
    for c, p in tiles.items():
        q = old.get(c)
        if q is not p and q != p:
            changed.add(c)
            if len(changed) > limit:
                return None
    if len(old) + len(changed) > len(tiles):  # hexes emptied since (never in a game)
        changed.update(c for c in old if c not in tiles)
        if len(changed) > limit:
            return None
    return changed


def _derive(base: _Built, board: Board, changed: set[str]) -> _Built:
    if not changed:
        return _Built(base.graph, base.tiles, base.infos, base.links_of, base.pieces, base.made,
                      base.tables)
    infos = dict(base.infos)
    for coord in changed:
        infos[coord] = _hex_info(board, coord)
    return _assemble(board, infos, dict(base.links_of), base, changed, base.pieces)


def _nearest(board: Board) -> tuple[_Built, set[str]] | None:
    """The cached graph of the same layout whose tiles differ from ``board``'s on the fewest
    hexes (at most :data:`_DERIVE_LIMIT`), the ones built last first, with those hexes.  The
    search stops at a graph of the same tiles, and after the :data:`_NEAR` built last once
    one differs on a single hex: a play-out's next board is near its last ones (the engine's
    board after a lay is the bot's trial board of that lay), a new play-out's first board near
    the position it started from, further back."""
    tiles = board.placed()
    count = len(tiles)
    best: tuple[_Built, set[str]] | None = None
    limit = _DERIVE_LIMIT
    layout = id(board.layout)
    for seen, built in enumerate(reversed(_CACHE.values())):
        if seen >= _NEAR and limit < 1:
            break
        if built.layout_id != layout or not -limit <= count - len(built.tiles) <= limit:
            continue  # a hex more or less differs: more than ``limit`` hexes differ
        changed = _changes(built.tiles, tiles, limit)
        if changed is not None:
            best, limit = (built, changed), len(changed) - 1
            if limit < 0:
                break
    return best


_NEAR = 6
"""Cached graphs :func:`_nearest` always compares (the ones built last)."""


_CACHE: dict[int, _Built] = {}
"""Graphs by board version (the 64 built last, in the order built)."""


def track_graph(board: Board) -> TrackGraph:
    """The board's :class:`TrackGraph` (equal to :func:`build_track_graph` up to the numbering
    of pieces of track), cached by board version and derived from the cached graph whose tiles
    differ from the board's on the fewest hexes (:func:`_nearest`): only the stops whose walks
    looked at a changed hex are walked again.  Boards with the same tiles share one graph
    object (a route search can be reused between them, :mod:`..search`)."""
    built = _CACHE.get(board.version)
    if built is None:
        near = _nearest(board)
        built = _fresh(board) if near is None else _derive(near[0], board, near[1])
        built.layout_id = id(board.layout)
        if len(_CACHE) >= 64:
            del _CACHE[next(iter(_CACHE))]  # the oldest
        _CACHE[board.version] = built
    return built.graph


def track_pieces(board: Board) -> Mapping[int, PieceKey]:
    """Bit -> piece of track for the masks of :func:`track_graph` ``(board)``."""
    track_graph(board)
    return _CACHE[board.version].pieces.keys
