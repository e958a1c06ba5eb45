"""Where to draw the revenue locations of one hex.

Rules of thumb an 18xx player expects:

* a halt with exactly two exits sits *on* its track, as a bar across the curve (tiles 3, 4,
  58, the Stadtbahn tiles);
* a single location with several exits sits in the centre;
* several interchanges (OO hexes, Heiligenstadt, Bahnhof Hauptzollamt) are pushed towards their
  exits and kept apart so that their circles never overlap.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tramways.g1840.render.geometry import (
    Curve,
    Point,
    edge_angle,
    edge_curve,
    edge_midpoint,
    polar,
)


class EndLike(Protocol):
    edge: int | None
    location: int | None


class PathLike(Protocol):
    a: EndLike
    b: EndLike
    track: str


class LocationLike(Protocol):
    id: int
    kind: str
    slots: int


@dataclass(frozen=True, slots=True)
class Spot:
    """A location's place in its hex.

    ``curve`` is set for a halt drawn on the edge-to-edge track ``(a, b)`` that passes through
    it; ``angle`` is the direction of its halt bar (across the track).
    """

    x: float
    y: float
    angle: float = 0.0
    curve: tuple[int, int] | None = None
    curve_geometry: Curve | None = None

    @property
    def point(self) -> Point:
        return self.x, self.y


def exits_by_location(paths: Iterable[PathLike]) -> dict[int, list[tuple[int, str]]]:
    """Location id -> the (edge, track) pairs joined to it directly."""
    exits: dict[int, list[tuple[int, str]]] = {}
    for path in paths:
        for here, there in ((path.a, path.b), (path.b, path.a)):
            if here.location is not None and there.edge is not None:
                exits.setdefault(here.location, []).append((there.edge, path.track))
    return exits


def footprint(location: LocationLike, size: float) -> float:
    """Radius of the drawn location (interchange circles grow with their slots)."""
    if location.kind == "interchange":
        slots = max(1, location.slots)
        return size * (0.2 if slots == 1 else 0.4 if slots == 2 else 0.42)
    if location.kind == "placeholder":
        return size * 0.2
    return size * 0.14


def _candidates(size: float) -> list[Point]:
    ring = 0.48 * size
    points: list[Point] = [(0.0, 0.0)]
    for edge in range(6):
        points.append(polar(edge_angle(edge), ring))
    for edge in range(6):
        points.append(polar(edge_angle(edge) + math.pi / 6, ring))
    return points


def place_locations(
    locations: Sequence[LocationLike], paths: Sequence[PathLike], size: float
) -> dict[int, Spot]:
    """A :class:`Spot` for every location of a hex, given its current (absolute) paths."""
    exits = exits_by_location(paths)
    spots: dict[int, Spot] = {}
    rest: list[LocationLike] = []
    for location in locations:
        ends = exits.get(location.id, [])
        if (
            location.kind == "halt"
            and len(ends) == 2
            and ends[0][1] == ends[1][1]
            and ((ends[0][0] - ends[1][0]) % 6 != 0)
        ):
            a, b = ends[0][0], ends[1][0]
            curve = edge_curve(a, b, size)
            spots[location.id] = Spot(curve.mid[0], curve.mid[1], curve.normal, (a, b), curve)
        else:
            rest.append(location)
    _separate_crossing_halts(spots, size)
    if not rest:
        return spots

    taken: list[tuple[Point, float]] = [(s.point, size * 0.14) for s in spots.values()]
    if len(rest) == 1 and all(math.hypot(*p) > r + footprint(rest[0], size) for p, r in taken):
        only = rest[0]
        spots[only.id] = _single_spot(only, exits.get(only.id, []), size)
        return spots

    if len(rest) == 2 and not spots:
        spots.update(_place_pair(rest[0], rest[1], exits, size))
        return spots

    # Most constrained first: the location with the most exits, then by id.
    rest.sort(key=lambda loc: (-len(exits.get(loc.id, [])), loc.id))
    candidates = _candidates(size)
    for location in rest:
        radius = footprint(location, size)
        edges = [edge for edge, _ in exits.get(location.id, [])]
        best: Point | None = None
        best_score = math.inf
        for cand in candidates:
            if any(math.dist(cand, p) < r + radius + 0.04 * size for p, r in taken):
                continue
            score = _score(cand, edges, taken, size)
            if len(edges) >= 3 and cand == (0.0, 0.0):
                score -= size  # a junction belongs in the middle

            if score < best_score - 1e-9:
                best, best_score = cand, score
        if best is None:  # nowhere free: fall back to the emptiest candidate
            best = max(
                candidates, key=lambda c: min((math.dist(c, p) for p, _ in taken), default=0)
            )
        spots[location.id] = Spot(best[0], best[1], _bar_angle(edges))
        taken.append((best, radius))
    return spots


def _separate_crossing_halts(spots: dict[int, Spot], size: float) -> None:
    """Two halts whose tracks cross at their middles (tiles L6-L10) slide apart along their
    own tracks so that both bars stay visible."""
    ids = sorted(spots)
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            a, b = spots[first], spots[second]
            if math.dist(a.point, b.point) >= 0.3 * size:
                continue
            moved_a = _slide(a, 0.2 * size)
            moved_b = max(
                (_slide(b, 0.2 * size), _slide(b, -0.2 * size)),
                key=lambda m: math.dist(m.point, moved_a.point),
            )
            spots[first], spots[second] = moved_a, moved_b


def _slide(spot: Spot, distance: float) -> Spot:
    """``spot`` moved ``distance`` along its track (across its bar)."""
    dx, dy = polar(spot.angle + math.pi / 2, distance)
    return Spot(spot.x + dx, spot.y + dy, spot.angle, spot.curve, spot.curve_geometry)


def _place_pair(
    first: LocationLike,
    second: LocationLike,
    exits: dict[int, list[tuple[int, str]]],
    size: float,
) -> dict[int, Spot]:
    """Two locations (an OO hex): opposite each other through the centre, on the axis that
    brings each closest to its own exits (level when neither has track yet)."""
    distance = max(footprint(first, size), footprint(second, size)) + 0.12 * size
    ends_a = [edge for edge, _ in exits.get(first.id, [])]
    ends_b = [edge for edge, _ in exits.get(second.id, [])]
    best: tuple[Point, Point] | None = None
    best_score = math.inf
    for step in range(12):
        angle = math.radians(180 + 30 * step)
        p = polar(angle, distance)
        q = (-p[0], -p[1])
        score = sum(math.dist(p, edge_midpoint(e, size)) for e in ends_a) + sum(
            math.dist(q, edge_midpoint(e, size)) for e in ends_b
        )
        if score < best_score - 1e-9:
            best, best_score = (p, q), score
    assert best is not None
    return {
        first.id: Spot(best[0][0], best[0][1], _bar_angle(ends_a)),
        second.id: Spot(best[1][0], best[1][1], _bar_angle(ends_b)),
    }


def _score(cand: Point, ends: list[int], taken: list[tuple[Point, float]], size: float) -> float:
    if ends:
        return sum(math.dist(cand, edge_midpoint(e, size)) for e in ends)
    if not taken:
        # no track at all (an empty OO hex): start on the left of the hex
        return math.dist(cand, edge_midpoint(1, size))
    # no track of its own: as far as possible from what is already placed, level if possible
    return -min(math.dist(cand, p) for p, _ in taken) + abs(cand[1]) * 0.01


def _bar_angle(ends: list[int]) -> float:
    if not ends:
        return 0.0
    if len(ends) == 1:
        return edge_angle(ends[0]) + math.pi / 2
    return edge_angle(ends[0]) + math.pi / 2


def _single_spot(location: LocationLike, ends: list[tuple[int, str]], size: float) -> Spot:
    angle = _bar_angle([e for e, _ in ends])
    return Spot(0.0, 0.0, angle)
