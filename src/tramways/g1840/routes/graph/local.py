"""One line's route graph walked from its own markers (:func:`local_line_graph`): only the
stops the line reaches and the links between them, numbered so that every comparison the
search makes comes out as on the board's whole track graph.

:func:`~tramways.g1840.routes.graph.line.line_graph` cuts one line's view out of the board's
whole :class:`TrackGraph`, which a lay changes (derived from the last graph built, but still in
time proportional to the board).  A line's routes only ever use the stops its markers reach
(IX.2, IX.7): in most positions a handful.  This module walks the track from the line's
markers (IX.7: a route contains one of them), stop by stop, exactly as the whole graph's build
walks it (:func:`~tramways.g1840.routes.graph.incremental._walks_from`), and keeps:

* the reached stops in board order (by hex, then by their order on the hex's tile), so that a
  stop's number compares with another's as their numbers on the whole graph do;
* the links between them in the whole graph's order (by their lower stop, then in walk order),
  so that link numbers compare as there too;
* the values, blocked interchanges, red and station ends and owned landmarks of
  :func:`line_graph` (R-LR-6, R-LR-7, IX.7, IV.2), the landmark bits given in the same order.

Only the numbering of pieces of track differs (the search uses them as sets).  The walk gives
up past ``limit`` stops (the whole graph is then the cheaper way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tramways.g1840.routes.graph.incremental import Entry, _hex_info, _HexInfo, _walks_from
from tramways.g1840.routes.graph.line import LineGraph
from tramways.g1840.routes.graph.track import HALT, INTERCHANGE, STATION, Link, TrackGraph, _Pieces
from tramways.g1840.routes.model import RouteContext, Stop

if TYPE_CHECKING:
    from tramways.g1840.board import Board
    from tramways.g1840.model import Layout

_RANKS: dict[int, tuple[Layout, dict[str, int]]] = {}
"""Per layout (by id, the layout kept alive): each hex's place in board order."""


def _ranks(layout: Layout) -> dict[str, int]:
    found = _RANKS.get(id(layout))
    if found is None or found[0] is not layout:
        found = _RANKS[id(layout)] = (
            layout, {c: i for i, c in enumerate(sorted(layout.hexes))})
    return found[1]


class _Walker:
    """The stops met so far: their hex's track, board-order key and walks."""

    __slots__ = ("board", "ranks", "infos", "pieces", "walks")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.ranks = _ranks(board.layout)
        self.infos: dict[str, _HexInfo] = {}
        self.pieces = _Pieces()
        self.walks: dict[Stop, list[Entry]] = {}

    def info(self, coord: str) -> _HexInfo:
        found = self.infos.get(coord)
        if found is None:
            found = self.infos[coord] = _hex_info(self.board, coord)
        return found

    def is_stop(self, stop: Stop) -> bool:
        return stop in self.info(stop[0]).keys

    def key(self, stop: Stop) -> tuple[int, int]:
        """The stop's place in board order (its number on the whole graph compares so)."""
        return self.ranks[stop[0]], self.info(stop[0]).keys.index(stop)

    def walk(self, stop: Stop) -> list[Entry]:
        """Every link from ``stop`` (to any stop), in the whole graph's walk order."""
        found = self.walks.get(stop)
        if found is None:
            found = self.walks[stop] = _walks_from(
                self.board, self.info, self.pieces, stop[0], stop[1], self.is_stop, set())
        return found

    def facts(self, stop: Stop) -> tuple[str, bool, Any]:
        """The stop's kind, terminal flag and location."""
        info = self.info(stop[0])
        at = info.keys.index(stop)
        return info.kinds[at], info.terminal[at], info.locations[at]


def local_line_graph(ctx: RouteContext, limit: int) -> LineGraph | None:
    """:func:`line_graph` of ``ctx`` restricted to the stops the line reaches, renumbered in
    board order (see the module docstring), or ``None`` when the line reaches more than
    ``limit`` stops."""
    board, line, phase = ctx.board, ctx.line, ctx.phase
    walker = _Walker(board)
    stations_usable = ctx.ruleset.purple_station_route_end
    own: set[Stop] = set()
    for coord, loc_id in board.line_markers(line):
        stop = (coord, loc_id)
        if walker.is_stop(stop) and walker.facts(stop)[0] == INTERCHANGE:
            own.add(stop)
    facts: dict[Stop, tuple[int, bool]] = {}  # value, end only

    def learn(stop: Stop) -> bool:
        """The stop's value and end-only flag; ``False`` if the line cannot use it."""
        kind, terminal, loc = walker.facts(stop)
        if kind == STATION:
            if not stations_usable:
                return False  # R-LR-6 vs X-6
            facts[stop] = (0, terminal)
            return True
        value = loc.value(phase) if kind == HALT else 0
        end_only = terminal
        if kind == INTERCHANGE:
            owners = board.markers(stop[0]).get(stop[1], ())
            if line in owners:
                value = loc.value(phase)
            elif owners and len(owners) >= loc.slots:
                end_only = True  # blocked (IX.7)
        facts[stop] = (value, end_only)
        return True

    for stop in own:
        learn(stop)
    todo = sorted(own, key=walker.key)
    while todo:
        s = todo.pop()
        if facts[s][1] and s not in own:
            continue
        for entry in walker.walk(s):
            t = entry[0]
            if t not in facts and learn(t):
                if len(facts) > limit:
                    return None
                todo.append(t)
    return _assemble(ctx, walker, own, facts)


def _assemble(ctx: RouteContext, walker: _Walker, own: set[Stop],
              facts: dict[Stop, tuple[int, bool]]) -> LineGraph:
    """The :class:`LineGraph` of the reached stops (``facts``) in board order."""
    stops = sorted(facts, key=walker.key)
    index = {s: i for i, s in enumerate(stops)}
    kinds: list[str] = []
    terminal: list[bool] = []
    locations: list[Any] = []
    for s in stops:
        kind, term, loc = walker.facts(s)
        kinds.append(kind)
        terminal.append(term)
        locations.append(loc)
    links: list[Link] = []
    incident: list[list[int]] = [[] for _ in stops]
    for a, s in enumerate(stops):
        for other, mask, steps, exit_edge, entry_edge in walker.walk(s):
            b = index.get(other)
            if b is not None and b > a:
                incident[a].append(len(links))
                incident[b].append(len(links))
                links.append(Link(a, b, mask, steps, exit_edge, entry_edge))
    graph = TrackGraph(stops, index, kinds, terminal, locations, links, incident)
    n = len(stops)
    return LineGraph(graph, ctx, [True] * n, [facts[s][0] for s in stops],
                     [facts[s][1] for s in stops], sorted(index[s] for s in own),
                     _landmarks(ctx, walker, index), list(range(n)))


def _landmarks(ctx: RouteContext, walker: _Walker, index: dict[Stop, int]) -> list[int]:
    """Each reached stop's owned-landmark bit, the bits given as :func:`line_graph` gives them
    (in board order of every stop on the landmark hexes, stations last)."""
    landmark = [0] * len(index)
    if not ctx.landmark_hexes:
        return landmark
    marked = sorted((s for c in ctx.landmark_hexes if c in walker.ranks
                     for s in walker.info(c).keys), key=walker.key)
    bits: dict[str, int] = {}
    for s in marked:
        if walker.facts(s)[0] != STATION:
            if s[0] not in bits:
                bits[s[0]] = 1 << len(bits)
            if s in index:
                landmark[index[s]] = bits[s[0]]
    for s in marked:
        if walker.facts(s)[0] == STATION:
            bit = bits.setdefault(s[0], 1 << len(bits))
            if s in index:
                landmark[index[s]] = bit
    return landmark
