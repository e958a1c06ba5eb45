"""The best route of a line: an exact search (IX.8 "the highest total revenue").

Every valid route contains one of the line's station markers (IX.7).  For each marker ``m``
(in board order) the search grows a route as two *arms* leaving ``m``: the first arm is
extended stop by stop; at any point it may be closed and the second arm grown from ``m``'s
other side.  A route with both arms is generated once (the first arm starts with the lower
link number); routes through an earlier marker are not generated again (that marker's search
found them).

Pruning, both exact:

* an upper bound: the value so far plus every stop (and owned landmark) still reachable from
  the open ends over unused stops, ignoring that a route is a single line (it is a superset);
* a dominance memo: two partial routes that end at the same stop, have visited the same set of
  stops, are in the same arm and have used the same *contested* pieces of track (pieces more
  than one link could use) have the same futures; the one with the lower value is dropped.

Ties: among routes of equal revenue the first one found is kept.  The order is deterministic:
markers by (hex, location), links from a stop by falling value of the stop they lead to, then
stop order.  The route is then written in its canonical direction (the one whose stop list is
smaller as a tuple).
"""

from __future__ import annotations

from dataclasses import dataclass

from tramways.g1840.routes.graph import LineGraph, line_graph
from tramways.g1840.routes.model import LANDMARK_BONUS, RouteContext, Run


@dataclass(slots=True)
class _Found:
    value: int
    stops: list[int]
    links: list[int]


def _popcount(x: int) -> int:
    return x.bit_count()


class _Search:
    def __init__(self, lg: LineGraph) -> None:
        self.lg = lg
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
        self.contested = 0
        for bit, count in counts.items():
            if count > 1:
                self.contested |= bit
        self.valued = [(s, self.value[s], self.landmark[s]) for s in reach]
        self.best: _Found | None = None
        self.best_value = -1

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
        value = self.value
        landmark = self.landmark
        while rest:
            low = rest & -rest
            s = low.bit_length() - 1
            total += value[s]
            marks |= landmark[s]
            rest ^= low
        return total + LANDMARK_BONUS * _popcount(marks & ~lmask)

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

    def _record(self, value: int, lmask: int) -> None:
        total = value + LANDMARK_BONUS * _popcount(lmask)
        if total > self.best_value:
            self.best_value = total
            self.best = _Found(total, list(self.stops), list(self.links))

    def _arm1(self, end: int, visited: int, used: int, value: int, lmask: int, first: int) -> None:
        m = self.marker
        at_marker = end == m
        if not at_marker:
            self._record(value, lmask)
        key = (0, end, first, visited, used & self.contested)
        seen = self.memo.get(key)
        if seen is not None and seen >= value:
            return
        self.memo[key] = value
        extend = at_marker or not (self.end_only_mask >> end) & 1
        starts = (1 << end) if extend else 0
        m_open = not at_marker and not self.m_terminal
        if m_open:
            starts |= 1 << m
        total = value + LANDMARK_BONUS * _popcount(lmask)
        if not starts or total + self.bound(visited, starts, lmask) <= self.best_value:
            return
        if extend:
            for t, mask, li in self.adj[end]:
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
            # close the first arm; grow the second from the marker's other side
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
        self._record(value, lmask)
        if (self.end_only_mask >> end) & 1:
            return
        key = (1, end, visited, used & self.contested)
        seen = self.memo.get(key)
        if seen is not None and seen >= value:
            return
        self.memo[key] = value
        total = value + LANDMARK_BONUS * _popcount(lmask)
        if total + self.bound(visited, 1 << end, lmask) <= self.best_value:
            return
        for t, mask, li in self.adj[end]:
            if (visited >> t) & 1 or used & mask:
                continue
            self.stops.insert(0, t)
            self.links.insert(0, li)
            self._arm2(t, visited | (1 << t), used | mask, value + self.value[t],
                       lmask | self.landmark[t])
            del self.stops[0]
            del self.links[0]


def best_route(ctx: RouteContext) -> Run | None:
    """The proven best route of ``ctx.line`` (IX.8), or ``None`` when it has no valid route.

    The search is exact (see the module docstring for the pruning and the tie rule).
    """
    from tramways.g1840.routes.validate import make_run

    lg = line_graph(ctx)
    found = _Search(lg).run()
    if found is None:
        return None
    return make_run(lg, found.stops, found.links)
