"""Claimed routes: their text form, their validity (IX.2, IX.7, R-LR-6) and their value (IX.8).

Text form: the stops in running order as ``HEX.LOCATION`` joined by ``-``, e.g.
``"D18.0-E19.0-F20.0"``.  When two stops are joined by more than one stretch of track, the
edge by which the route leaves the first of them follows it after ``>``: ``"D18.0>3-C19.0"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tramways.core.errors import IllegalAction, NotationError
from tramways.g1840.routes.claimed import check_claimed, disjoint_choice, not_a_stop
from tramways.g1840.routes.graph import STATION, LineGraph, line_graph
from tramways.g1840.routes.model import LANDMARK_BONUS, RouteContext, Run, Stop

if TYPE_CHECKING:
    from tramways.g1840.model import PathDef

RouteStep = tuple[Stop, int | None]
"""A stop and, optionally, the edge by which the route leaves it towards the next stop."""

_STEP = re.compile(r"^([A-K][0-9]{1,2})\.([0-9]+)(?:>([0-5]))?$")


_PARSED: dict[str, tuple[RouteStep, ...]] = {}
_PARSED_LIMIT = 4096


def parse_route(text: str) -> list[RouteStep]:
    """Parse ``"D18.0>3-C19.0-..."``; :class:`NotationError` if it is not a route's text."""
    return list(_parsed(text))


def _parsed(text: str) -> tuple[RouteStep, ...]:
    """:func:`parse_route`'s steps, remembered per text (a route's text is parsed once)."""
    found = _PARSED.get(text)
    if found is None:
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        found = _PARSED[text] = tuple(_parse(text))
    return found


def _parse(text: str) -> list[RouteStep]:
    steps: list[RouteStep] = []
    for part in text.strip().split("-"):
        match = _STEP.match(part.strip())
        if match is None:
            raise NotationError(f"route {text!r}: {part!r} is not HEX.LOCATION[>EDGE]")
        edge = match.group(3)
        steps.append(((match.group(1), int(match.group(2))), int(edge) if edge else None))
    return steps


def format_route(route: Run | Sequence[RouteStep]) -> str:
    """The text form of a run (its canonical text) or of parsed steps."""
    if isinstance(route, Run):
        return route.text
    return "-".join(
        f"{c}.{loc}" + (f">{edge}" if edge is not None else "") for (c, loc), edge in route
    )


def _text(lg: LineGraph, stops: Sequence[int], links: Sequence[int]) -> str:
    g = lg.track
    parts = []
    for i, s in enumerate(stops):
        coord, loc = g.stops[s]
        text = f"{coord}.{loc}"
        if i < len(links):
            t = stops[i + 1]
            between = [li for li in g.incident[s] if g.links[li].other(s) == t]
            if len(between) > 1:
                edge = g.links[links[i]].leaving(s)
                if edge is not None:
                    text += f">{edge}"
        parts.append(text)
    return "-".join(parts)


def make_run(lg: LineGraph, stops: Sequence[int], links: Sequence[int]) -> Run:
    """The :class:`Run` of a valid route given as stop and link indexes (IX.8)."""
    g = lg.track
    stops, links = list(stops), list(links)
    if tuple(g.stops[s] for s in reversed(stops)) < tuple(g.stops[s] for s in stops):
        stops.reverse()
        links.reverse()
    paths: list[tuple[str, PathDef]] = []
    for i, li in enumerate(links):
        paths.extend(g.links[li].steps_from(stops[i]))
    hexes: list[str] = []
    for coord in [g.stops[stops[0]][0], *(c for c, _ in paths)]:
        if coord not in hexes:
            hexes.append(coord)
    parts = tuple(lg.value[s] for s in stops)
    marks = 0
    for s in stops:
        marks |= lg.landmark[s]
    bonus = LANDMARK_BONUS * marks.bit_count()
    revenue = sum(parts) + bonus
    maintenance = lg.context.maintenance or 0
    return Run(
        stops=tuple(g.stops[s] for s in stops),
        parts=parts,
        paths=tuple(paths),
        hexes=tuple(hexes),
        landmark_bonus=bonus,
        revenue=revenue,
        maintenance=maintenance,
        total=revenue + maintenance,
        text=_text(lg, stops, links),
    )


def _stop_index(lg: LineGraph, stop: Stop) -> int:
    g = lg.track
    coord, loc = stop
    board = lg.context.board
    if coord not in board.layout.hexes:
        raise IllegalAction("IX.2", f"{coord} is not a hex of this map")
    index = g.index.get(stop)
    if index is None:
        raise not_a_stop(board, stop)
    if g.kinds[index] == STATION and not lg.usable[index]:
        raise IllegalAction("R-LR-6", f"{coord}: an empty railway station is not a revenue "
                            "location")
    return index


def check_route(ctx: RouteContext, route: str | Sequence[Stop] | Sequence[RouteStep]) -> Run:
    """Validate a claimed route and return its :class:`Run`.

    ``route`` is the text form, a list of stops, or a list of (stop, exit edge) steps.  An
    invalid route raises :class:`IllegalAction` naming the rule it breaks: ``IX.7`` (fewer than
    two stops, a stop twice, no own station marker, through a blocked interchange, dotted
    track), ``IX.2`` (no track joins two stops, a piece of track used twice, reversing or
    changing track at a crossover), ``R-LR-6`` (through a red tile or area, into an inner-city
    hex without a red tile, an empty railway station).
    """
    return check_claimed(ctx, _steps(route))


def check_route_on_line_graph(
    ctx: RouteContext, route: str | Sequence[Stop] | Sequence[RouteStep]
) -> Run:
    """:func:`check_route` on the whole :func:`line_graph` of the line (the reference it is
    tested against; ``check_route`` looks only at the route's stops and the track between
    them)."""
    return _check(ctx, _steps(route), line_graph(ctx))


def _steps(route: str | Sequence[Stop] | Sequence[RouteStep]) -> Sequence[RouteStep]:
    if isinstance(route, str):
        return _parsed(route)
    steps: list[RouteStep] = []
    for item in route:
        first: Any = item[0]
        if isinstance(first, tuple):
            steps.append((first, item[1]))
        else:
            steps.append((item, None))  # type: ignore[arg-type]
    return steps


def _check(ctx: RouteContext, steps: Sequence[RouteStep], lg: LineGraph) -> Run:
    g = lg.track
    if len(steps) < 2:
        raise IllegalAction("IX.7", "a route needs at least two different revenue locations")
    stops = [_stop_index(lg, stop) for stop, _ in steps]
    if len(set(stops)) != len(stops):
        raise IllegalAction("IX.7", "a route may not visit the same revenue location twice")
    if not any(s in lg.own for s in stops):
        raise IllegalAction("IX.7", f"the route has no station marker of line {ctx.line}")
    for s in stops[1:-1]:
        coord, loc = g.stops[s]
        if g.terminal[s]:
            raise IllegalAction("R-LR-6", f"{coord}.{loc}: a route ends at a red tile or area "
                                "(or a railway station); it cannot pass through")
        if lg.end_only[s]:
            raise IllegalAction("IX.7", f"{coord}.{loc}: a blocked interchange may only "
                                "begin or end a route")
    options: list[list[int]] = []
    for i in range(len(stops) - 1):
        s, t = stops[i], stops[i + 1]
        edge = steps[i][1]
        between = [
            li for li in g.incident[s]
            if g.links[li].other(s) == t and (edge is None or g.links[li].leaving(s) == edge)
        ]
        if not between:
            a, b = g.stops[s], g.stops[t]
            raise IllegalAction("IX.2", f"no tram track joins {a[0]}.{a[1]} and {b[0]}.{b[1]}"
                                + (f" leaving by edge {edge}" if edge is not None else "")
                                + " without passing another stop, reversing or changing track")
        options.append(between)
    chosen = disjoint_choice(options, lambda li: g.links[li].track)
    if chosen is None:
        raise IllegalAction("IX.2", "the route uses a piece of track more than once")
    return make_run(lg, stops, chosen)
