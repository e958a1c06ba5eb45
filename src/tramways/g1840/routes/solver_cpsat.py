"""The best route as a constraint model (IX.2, IX.7, IX.8), solved exactly by OR-Tools CP-SAT.

The depth-first search of :mod:`.search` is fast on real positions but explodes on over-built
open boards (long routes through a dense grid of passable stops).  There it hands over to this
model, which CP-SAT solves to *proven optimality* (status ``OPTIMAL``, no time limit), so the
answer stays exact.

The model: one node per reachable stop plus a depot ``D``; a route ``s1 .. sk`` is the circuit
``D -> s1 -> .. -> sk -> D`` (``AddCircuit``), a stop off the route takes its self-loop.

* every link (a stretch of track between two stops) gives the arcs ``a -> b`` and ``b -> a``;
  a second link joining the same two stops goes through a helper node of its own (a circuit
  takes at most one arc per ordered pair);
* IX.2 no piece of track twice: the links sharing a piece use it at most once in total;
* IX.7 the route contains one of the line's markers; an end-only stop (a blocked interchange,
  a red area or station end, R-LR-6) is entered or left from ``D``: it is a route end;
* a route has at least one link: no stop is both first and last;
* IX.8 the objective: the values of the visited stops plus 20 per owned landmark hex reached.

OR-Tools is optional: :data:`AVAILABLE` says whether it is installed.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from tramways.g1840.routes.graph import LineGraph, TrackGraph
from tramways.g1840.routes.model import LANDMARK_BONUS

AVAILABLE = importlib.util.find_spec("ortools") is not None
"""OR-Tools is installed (it is imported only when a search hands over)."""

SYMMETRY = True
"""Keep only one direction of each route (the one starting at the lower stop index)."""

WORKERS = 1
"""One search worker: CP-SAT is then deterministic (the same route for the same board)."""


def solve(lg: LineGraph, at_least: int = 0) -> tuple[int, list[int], list[int]] | None:
    """The best route of the line graph: ``(revenue, stops, links)``, or ``None`` if there is
    no valid route worth at least ``at_least``.

    ``at_least``: the value of a route already known (e.g. the search's best so far; giving
    the route itself as a solver hint was measured slower).  Raises ``RuntimeError`` if CP-SAT
    does not prove its answer optimal.
    """
    from ortools.sat.python import cp_model  # type: ignore[import-not-found,unused-ignore]

    reach = list(lg.reach)
    inside = set(reach)
    own = [m for m in lg.own if m in inside]
    if not own:
        return None
    model = cp_model.CpModel()
    node: dict[int, int] = {s: i + 1 for i, s in enumerate(reach)}
    arcs: list[tuple[int, int, Any]] = []
    visited, start, end = _stops(model, lg, reach, node, arcs)
    used, piece_links = _links(model, lg.track, inside, node, arcs)
    model.add_circuit(arcs)
    if SYMMETRY:
        # a route and its reverse are the same route: keep the one that starts at the lower stop
        model.add(
            sum(i * start[s] for i, s in enumerate(reach))
            < sum(i * end[s] for i, s in enumerate(reach))
        )
    for lis in piece_links.values():
        if len(lis) > 1:
            model.add(sum(x for li in lis for x in used[li]) <= 1)
    model.add_bool_or([visited[m] for m in own])
    total = _revenue(model, lg, reach, visited)
    model.add(total >= at_least)
    model.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = WORKERS
    solver.parameters.random_seed = 1840
    solver.parameters.linearization_level = 2
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT did not prove the best route ({solver.status_name(status)})")
    stops, links = _route(solver, lg.track, reach, start, used)
    value = round(solver.objective_value)
    return value, stops, links


def _stops(model: Any, lg: LineGraph, reach: list[int], node: dict[int, int],
           arcs: list[tuple[int, int, Any]]) -> tuple[dict[int, Any], dict[int, Any],
                                                       dict[int, Any]]:
    """Per stop: visited, starts the route, ends it (from or to the depot, node 0); a stop
    visited is skipped by its self-loop otherwise; an end-only stop (IX.7, R-LR-6) only
    starts or ends the route."""
    visited: dict[int, Any] = {}
    start: dict[int, Any] = {}
    end: dict[int, Any] = {}
    for s in reach:
        v = visited[s] = model.new_bool_var(f"v{s}")
        arcs.append((node[s], node[s], ~v))
        start[s] = model.new_bool_var(f"start{s}")
        end[s] = model.new_bool_var(f"end{s}")
        arcs.append((0, node[s], start[s]))
        arcs.append((node[s], 0, end[s]))
        model.add_bool_or([~start[s], ~end[s]])
        if lg.end_only[s]:
            model.add_bool_or([~v, start[s], end[s]])
    return visited, start, end


def _links(model: Any, g: TrackGraph, inside: set[int], node: dict[int, int],
           arcs: list[tuple[int, int, Any]]) -> tuple[dict[int, list[Any]], dict[int, list[int]]]:
    """Per link: its arc literals both ways (a second link between the same two stops goes
    through a helper node), and the links using each piece of track (IX.2)."""
    used: dict[int, list[Any]] = {}
    pair_seen: set[tuple[int, int]] = set()
    piece_links: dict[int, list[int]] = {}
    count = len(node) + 1
    for li, link in enumerate(g.links):
        a, b = link.a, link.b
        if a == b or a not in inside or b not in inside:
            continue
        pair = (min(a, b), max(a, b))
        ab = model.new_bool_var(f"l{li}f")
        ba = model.new_bool_var(f"l{li}b")
        if pair not in pair_seen:
            pair_seen.add(pair)
            arcs.append((node[a], node[b], ab))
            arcs.append((node[b], node[a], ba))
        else:
            # a helper node: a -> h -> b (ab) or b -> h -> a (ba)
            h = count
            count += 1
            a_h = model.new_bool_var(f"l{li}ah")
            b_h = model.new_bool_var(f"l{li}bh")
            h_a = model.new_bool_var(f"l{li}ha")
            h_b = model.new_bool_var(f"l{li}hb")
            arcs += [(node[a], h, a_h), (h, node[b], h_b), (node[b], h, b_h), (h, node[a], h_a)]
            arcs.append((h, h, ~model.new_bool_var(f"h{li}")))
            model.add(ab == a_h)
            model.add(ba == b_h)
            model.add(a_h == h_b)
            model.add(b_h == h_a)
        used[li] = [ab, ba]
        bits = link.track
        while bits:
            low = bits & -bits
            piece_links.setdefault(low, []).append(li)
            bits ^= low
    return used, piece_links


def _revenue(model: Any, lg: LineGraph, reach: list[int], visited: dict[int, Any]) -> Any:
    """IX.8: the stop values and the owned landmarks (once each)."""
    terms = [lg.value[s] * visited[s] for s in reach if lg.value[s]]
    marks: dict[int, list[Any]] = {}
    for s in reach:
        if lg.landmark[s]:
            marks.setdefault(lg.landmark[s], []).append(visited[s])
    for bit, lits in sorted(marks.items()):
        got = model.new_bool_var(f"mark{bit}")
        model.add_bool_or([~got, *lits])
        terms.append(LANDMARK_BONUS * got)
    return sum(terms)


def _route(solver: Any, g: TrackGraph, reach: list[int], start: dict[int, Any],
           used: dict[int, list[Any]]) -> tuple[list[int], list[int]]:
    """The circuit read from the depot: the route's stops and links."""
    nxt: dict[int, tuple[int, int]] = {}  # stop -> (next stop, link)
    first = next(s for s in reach if solver.value(start[s]))
    for li, (ab, ba) in used.items():
        link = g.links[li]
        if solver.value(ab):
            nxt[link.a] = (link.b, li)
        if solver.value(ba):
            nxt[link.b] = (link.a, li)
    stops = [first]
    links = []
    while stops[-1] in nxt:
        t, li = nxt[stops[-1]]
        stops.append(t)
        links.append(li)
    return stops, links
