"""The best route of a line: an exact search (IX.8 "the highest total revenue").

Every valid route contains one of the line's station markers (IX.7).  For each marker ``m``
(in board order) the search grows a route as two *arms* leaving ``m``: the first arm is
extended stop by stop; at any point it may be closed and the second arm grown from ``m``'s
other side.  A route with both arms is generated once (the first arm starts with the lower
link number); routes through an earlier marker are not generated again (that marker's search
found them).

Pruning, all exact:

* an upper bound: the value so far plus every stop (and owned landmark) still reachable from
  the open ends over unused stops, ignoring that a route is a single line (it is a superset);
* on larger graphs a tighter one from the biconnected blocks of what is left
  (:meth:`_Search.block_bound`): a simple path never re-enters a block it left, and a red area
  or a blocked interchange can only be its last step;
* a dominance memo: two partial routes that end at the same stop, can still reach the same set
  of unvisited stops, are in the same arm and have used the same *contested* pieces of track
  (pieces more than one link could use) and have the same owned landmarks have the same
  futures; the lower value is dropped.

Over-built open boards (a dense grid of passable stops, few blocking markers) hold too many
long routes for any of this: after :data:`NODE_BUDGET` partial routes the search hands over to
the exact constraint model of :mod:`.solver_cpsat` (OR-Tools CP-SAT, solved to proven
optimality), told the best value found so far.  Without OR-Tools the search runs to the end.

Ties: among routes of equal revenue the first one found is kept (after a hand-over: the
solver's route, deterministic for a board).  The order is deterministic:
markers by (hex, location); the moves from a stop go first to the stop with the fewest unvisited
neighbours (Warnsdorff's rule: long routes are found early), then to the more valuable stop,
then by stop and link order.  The route is then written in its canonical direction (the one
whose stop list is smaller as a tuple).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tramways.g1840.routes.blocks import BlockTree, blocks
from tramways.g1840.routes.graph import LineGraph, line_graph, track_graph
from tramways.g1840.routes.graph.local import local_line_graph
from tramways.g1840.routes.model import LANDMARK_BONUS, RouteContext, Run

BLOCK_BOUND_FROM = 32
"""The block bound is worth its cost only when this many stops are still reachable."""

NODE_BUDGET = 5_000
"""Partial routes the search may grow before it hands over to the exact constraint model of
:mod:`.solver_cpsat` (when OR-Tools is installed; without it the search runs to the end).  Real
positions need a few hundred; over-built open boards need millions."""


class _OutOfBudget(Exception):
    """The search grew :data:`NODE_BUDGET` partial routes without finishing."""


@dataclass(slots=True)
class _Found:
    value: int
    stops: list[int]
    links: list[int]


def _popcount(x: int) -> int:
    return x.bit_count()


class _Search:
    def __init__(self, lg: LineGraph, budget: int | None = None) -> None:
        self.lg = lg
        self.budget = -1 if budget is None else budget
        g = lg.track
        reach = lg.reach
        inside = set(reach)
        self.value = lg.value
        self.landmark = lg.landmark
        self.end_only_mask = 0
        for s in reach:
            if lg.end_only[s]:
                self.end_only_mask |= 1 << s
        # adjacency over the reachable stops: (other, track mask, link id)
        counts: dict[int, int] = {}
        adj: dict[int, list[tuple[int, int, int]]] = {s: [] for s in reach}
        nb: dict[int, int] = {s: 0 for s in reach}
        for s in reach:
            for li in g.incident[s]:
                link = g.links[li]
                t = link.other(s)
                if t not in inside or t == s:
                    continue
                adj[s].append((t, link.track, li))
                nb[s] |= 1 << t
                if s < t:
                    bits = link.track
                    while bits:
                        low = bits & -bits
                        counts[low] = counts.get(low, 0) + 1
                        bits ^= low
        for s in reach:
            adj[s].sort(key=lambda e: (-self.value[e[0]], e[0], e[2]))
        self.adj = adj
        self.nb = nb
        self.order = list(reach)
        self.nbl = {s: [t for t in reach if (nb[s] >> t) & 1 and not lg.end_only[t]]
                    for s in reach}
        self.eol = {s: [t for t in reach if (nb[s] >> t) & 1 and lg.end_only[t]] for s in reach}
        self.contested = 0
        for bit, count in counts.items():
            if count > 1:
                self.contested |= bit
        self.valued = [(s, self.value[s], self.landmark[s]) for s in reach]
        self.best: _Found | None = None
        self.best_value = -1
        self.reached = 0
        self.rest = 0

    # -- bound -----------------------------------------------------------------------------
    def bound(self, visited: int, starts: int, lmask: int) -> int:
        """Value of every unvisited stop reachable from ``starts`` (+ unseen landmarks)."""
        reach = starts
        frontier = starts
        nb = self.nb
        stop_mask = self.end_only_mask
        first = True
        while frontier:
            grow = frontier if first else frontier & ~stop_mask
            first = False
            new = 0
            while grow:
                low = grow & -grow
                new |= nb[low.bit_length() - 1]
                grow ^= low
            new &= ~visited & ~reach
            reach |= new
            frontier = new
        total = 0
        marks = 0
        rest = reach & ~visited
        self.rest = rest
        self.reached = rest.bit_count()
        value = self.value
        landmark = self.landmark
        while rest:
            low = rest & -rest
            s = low.bit_length() - 1
            total += value[s]
            marks |= landmark[s]
            rest ^= low
        return total + LANDMARK_BONUS * _popcount(marks & ~lmask)

    # -- the block bound -------------------------------------------------------------------
    def block_bound(
        self, visited: int, ends: tuple[int, ...], lmask: int, twice: bool = False
    ) -> int:
        """An upper bound on what the route can still collect, from the biconnected blocks of
        the remaining graph.

        The remaining graph ``H``: the open ends and the unvisited stops they reach, without the
        end-only stops (blocked interchanges, red areas: they can only be a last step, so each
        counts as a leaf of the stop before it).  With two open ends the route already joins
        them: that is an edge of ``H`` the completed route must use.  A simple path never comes
        back to a block it left, so it runs through the blocks along one path of the block-cut
        tree: it can collect at most the stops of those blocks, plus one leaf at each end.
        ``twice``: a single open end that both arms still leave (the marker, before any link).
        """
        start, inside = self._region(visited, ends)
        val, adj, leaf = self._block_graph(visited, ends, lmask, start, inside)
        return BlockTree(blocks(ends[0], adj), val, leaf).best(ends, twice)

    def _region(self, visited: int, ends: tuple[int, ...]) -> tuple[int, int]:
        """The open ends (as a mask) and the remaining graph's stops: the unvisited stops the
        ends reach, not through an end-only stop (an end-only open end still leads on)."""
        nb = self.nb
        end_only = self.end_only_mask
        start = 0
        for e in ends:
            start |= 1 << e
        inside = start
        frontier = start
        while frontier:
            new = 0
            grow = frontier & ~end_only | (frontier & start)
            while grow:
                low = grow & -grow
                new |= nb[low.bit_length() - 1]
                grow ^= low
            new &= ~visited & ~inside & ~end_only
            inside |= new
            frontier = new
        return start, inside

    def _block_graph(self, visited: int, ends: tuple[int, ...], lmask: int, start: int,
                     inside: int) -> tuple[dict[int, int], dict[int, list[int]], dict[int, int]]:
        """The remaining graph ``H``: each stop's value (0 for an open end, a landmark not yet
        owned counted), its neighbours in ``H``, and its best end-only leaf; with two open
        ends, the edge joining them."""
        end_only = self.end_only_mask
        value = self.value
        landmark = self.landmark
        val: dict[int, int] = {}
        adj: dict[int, list[int]] = {}
        leaf: dict[int, int] = {}
        nbl = self.nbl
        eol = self.eol
        for v in self.order:
            if not (inside >> v) & 1:
                continue
            if (start >> v) & 1:
                val[v] = 0
            elif landmark[v] & ~lmask:
                val[v] = value[v] + LANDMARK_BONUS
            else:
                val[v] = value[v]
            adj[v] = [w for w in nbl[v] if (inside >> w) & 1]
            best_leaf = 0
            for t in eol[v]:
                if not (visited >> t) & 1:
                    got = value[t] + (LANDMARK_BONUS if landmark[t] & ~lmask else 0)
                    if got > best_leaf:
                        best_leaf = got
            leaf[v] = best_leaf
        for e in ends:
            if (end_only >> e) & 1:
                # an end-only open end (a terminal marker): the neighbour lists leave it out,
                # but the block decomposition needs its edges both ways
                for w in adj[e]:
                    if e not in adj[w]:
                        adj[w].append(e)
        if len(ends) == 2:
            a, b = ends
            if b not in adj[a]:
                adj[a].append(b)
                adj[b].append(a)
        return val, adj, leaf

    # -- search ----------------------------------------------------------------------------
    def run(self) -> _Found | None:
        lg = self.lg
        excluded = 0
        for m in lg.own:
            self.marker = m
            self.memo: dict[tuple[int, ...], int] = {}
            self.m_terminal = lg.end_only[m] and lg.track.terminal[m]
            self.stops = [m]
            self.links: list[int] = []
            visited = excluded | (1 << m)
            self._arm1(m, visited, 0, self.value[m], self.landmark[m], -1)
            excluded |= 1 << m
        return self.best

    def _order(self, end: int, visited: int) -> list[tuple[int, int, int]]:
        """Moves from ``end``: fewest onward stops first (Warnsdorff), then higher value."""
        nb = self.nb
        moves = self.adj[end]
        if len(moves) < 2:
            return moves
        free = ~visited
        return sorted(moves, key=lambda e: ((nb[e[0]] & free).bit_count(), -self.value[e[0]]))

    def _record(self, value: int, lmask: int) -> None:
        total = value + LANDMARK_BONUS * _popcount(lmask)
        if total > self.best_value:
            self.best_value = total
            self.best = _Found(total, list(self.stops), list(self.links))

    def _arm1(self, end: int, visited: int, used: int, value: int, lmask: int, first: int) -> None:
        self.budget -= 1
        if self.budget == 0:
            raise _OutOfBudget
        m = self.marker
        at_marker = end == m
        if not at_marker:
            self._record(value, lmask)
        extend = at_marker or not (self.end_only_mask >> end) & 1
        starts = (1 << end) if extend else 0
        m_open = not at_marker and not self.m_terminal
        if m_open:
            starts |= 1 << m
        if not starts:
            return
        total = value + LANDMARK_BONUS * _popcount(lmask)
        upper = total + self.bound(visited, starts, lmask)
        key = (0, end, first, self.rest, lmask, used & self.contested)
        seen = self.memo.get(key)
        if seen is not None and seen >= value:
            return
        self.memo[key] = value
        if upper <= self.best_value:
            return
        if self.reached >= BLOCK_BOUND_FROM and (
                total + self._arm1_block_bound(end, visited, lmask, extend, m_open)
                <= self.best_value):
            return
        if extend:
            for t, mask, li in self._order(end, visited):
                if (visited >> t) & 1 or used & mask:
                    continue
                self.stops.append(t)
                self.links.append(li)
                self._arm1(
                    t, visited | (1 << t), used | mask, value + self.value[t],
                    lmask | self.landmark[t], li if at_marker else first,
                )
                self.stops.pop()
                self.links.pop()
        if m_open:
            self._close_arm1(visited, used, value, lmask, first)

    def _arm1_block_bound(self, end: int, visited: int, lmask: int, extend: bool,
                          m_open: bool) -> int:
        """:meth:`block_bound` for the first arm's open ends (its end, the marker)."""
        m = self.marker
        if end == m:
            return self.block_bound(visited, (m,), lmask, twice=not self.m_terminal)
        ends = (end, m) if extend and m_open else (end,) if extend else (m,)
        return self.block_bound(visited, ends, lmask)

    def _close_arm1(self, visited: int, used: int, value: int, lmask: int, first: int) -> None:
        """Close the first arm; grow the second from the marker's other side."""
        m = self.marker
        split = len(self.stops)
        for t, mask, li in self.adj[m]:
            if li <= first or (visited >> t) & 1 or used & mask:
                continue
            self.stops.insert(0, t)
            self.links.insert(0, li)
            self._arm2(
                t, visited | (1 << t), used | mask, value + self.value[t],
                lmask | self.landmark[t],
            )
            del self.stops[0]
            del self.links[0]
        assert len(self.stops) == split

    def _arm2(self, end: int, visited: int, used: int, value: int, lmask: int) -> None:
        self.budget -= 1
        if self.budget == 0:
            raise _OutOfBudget
        self._record(value, lmask)
        if (self.end_only_mask >> end) & 1:
            return
        total = value + LANDMARK_BONUS * _popcount(lmask)
        upper = total + self.bound(visited, 1 << end, lmask)
        key = (1, end, self.rest, lmask, used & self.contested)
        seen = self.memo.get(key)
        if seen is not None and seen >= value:
            return
        self.memo[key] = value
        if upper <= self.best_value:
            return
        if self.reached >= BLOCK_BOUND_FROM and (
            total + self.block_bound(visited, (end,), lmask) <= self.best_value
        ):
            return
        for t, mask, li in self._order(end, visited):
            if (visited >> t) & 1 or used & mask:
                continue
            self.stops.insert(0, t)
            self.links.insert(0, li)
            self._arm2(t, visited | (1 << t), used | mask, value + self.value[t],
                       lmask | self.landmark[t])
            del self.stops[0]
            del self.links[0]


def _solve(lg: LineGraph) -> _Found | None:
    """The search; past :data:`NODE_BUDGET` the constraint model, told the value of the best
    route found so far (a lower bound)."""
    from tramways.g1840.routes import solver_cpsat

    search = _Search(lg, NODE_BUDGET if solver_cpsat.AVAILABLE else None)
    try:
        return search.run()
    except _OutOfBudget:
        pass
    got = solver_cpsat.solve(lg, max(search.best_value, 0))
    return None if got is None else _Found(*got)


MEMO_SIZE = 256
"""Routes kept per track graph (:attr:`~tramways.g1840.routes.graph.TrackGraph.routes`; the
oldest goes first).  Two boards with the same tiles share one graph object (:func:`track_graph`
derives the second with no hex changed), so a search's play-outs and the engine's run ask for
routes already found; the routes go with their graph when it leaves the cache of track graphs
(a global memo kept every graph it named alive: thousands of objects the garbage collector
walked at each full collection)."""


def forget_routes() -> None:
    """Drop the routes remembered on every cached track graph (a benchmark's fresh search)."""
    from tramways.g1840.routes.graph.incremental import _CACHE

    for built in _CACHE.values():
        built.graph.routes.clear()
    _BY_VERSION.clear()


def _markers_key(ctx: RouteContext) -> frozenset[Any]:
    """Every marker on the board as ``(hex, location, owner)`` (the order in which markers
    were placed on a location does not change a route)."""
    return frozenset((coord, loc, owner)
                     for coord, by_loc in ctx.board.all_markers().items()
                     for loc, owners in by_loc.items() for owner in owners)


def best_route(ctx: RouteContext) -> Run | None:
    """The proven best route of ``ctx.line`` (IX.8), or ``None`` when it has no valid route.

    The search is exact (see the module docstring for the pruning and the tie rule); on a
    position it cannot finish within :data:`NODE_BUDGET` steps the exact constraint model of
    :mod:`.solver_cpsat` answers (then among equal routes the solver's is kept).

    The search runs on the line's own graph, walked from its markers
    (:func:`~tramways.g1840.routes.graph.local.local_line_graph`: the same route as on the
    board's whole graph, in time proportional to what the line reaches); a line reaching more
    than :data:`LOCAL_LIMIT` stops, or a search past :data:`NODE_BUDGET`, uses the whole graph
    (:func:`graph_route`).  A route is found once per board version and context
    (:data:`_BY_VERSION`).
    """
    key = (ctx.board.version, ctx.line, ctx.phase, ctx.landmark_hexes, ctx.maintenance,
           ctx.ruleset)
    run = _BY_VERSION.get(key, _UNKNOWN)
    if run is _UNKNOWN:
        run = _local_route(ctx)
        if run is _UNKNOWN:
            run = graph_route(ctx)
        if len(_BY_VERSION) >= BY_VERSION_SIZE:
            del _BY_VERSION[next(iter(_BY_VERSION))]
        _BY_VERSION[key] = run
    return run


LOCAL_LIMIT = 40
"""The most stops a line may reach for its route to be searched on its own graph."""

BY_VERSION_SIZE = 512
"""Routes kept by board version and context (the oldest goes first)."""

_BY_VERSION: dict[tuple[Any, ...], Run | None] = {}
"""Best routes by (board version, line, phase, landmarks, maintenance, ruleset): a board's
version changes with every tile and marker and is never shared by two different boards."""

_UNKNOWN: Any = object()


def _local_route(ctx: RouteContext) -> Run | None:
    """The best route searched on the line's own graph, or :data:`_UNKNOWN` when the line
    reaches more than :data:`LOCAL_LIMIT` stops or the search runs past :data:`NODE_BUDGET`."""
    from tramways.g1840.routes.validate import make_run

    lg = local_line_graph(ctx, LOCAL_LIMIT)
    if lg is None:
        return _UNKNOWN
    search = _Search(lg, NODE_BUDGET)
    try:
        found = search.run()
    except _OutOfBudget:
        return _UNKNOWN
    return None if found is None else make_run(lg, found.stops, found.links)


def graph_route(ctx: RouteContext) -> Run | None:
    """:func:`best_route` on the board's whole track graph (:func:`track_graph`, cached and
    derived from the last one built), its routes remembered per track graph, markers and
    context (:attr:`~tramways.g1840.routes.graph.TrackGraph.routes`): the same search would
    find the same route."""
    from tramways.g1840.routes.validate import make_run

    graph = track_graph(ctx.board)
    memo = graph.routes
    key = (_markers_key(ctx), ctx.line, ctx.phase, ctx.landmark_hexes, ctx.maintenance,
           ctx.ruleset)
    known = memo.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known
    lg = line_graph(ctx)
    found = _solve(lg)
    run = None if found is None else make_run(lg, found.stops, found.links)
    if len(memo) >= MEMO_SIZE:
        del memo[next(iter(memo))]
    memo[key] = run
    return run
