"""Hex-grid geometry of the 1840 board: where hexes, edges and track curves are.

The board uses pointy-top hexes in *double-width* coordinates (reference README, "Coordinate
system"): ``F24`` is row F (A at the top) and column 24; hexes side by side in a row differ by
2 in the number.  Edges are numbered clockwise from the lower-left one: 0 SW, 1 W, 2 NW, 3 NE,
4 E, 5 SE.  All functions work in SVG user units with the y axis pointing *down*; positions
inside a hex are relative to its centre.  ``size`` is the hex radius (centre to a corner).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]

_COORD = re.compile(r"^([A-Z])(\d+)$")


def coord_parts(coord: str) -> tuple[int, int]:
    """``"F24"`` -> ``(5, 24)``: the row index (A = 0) and the printed column number."""
    match = _COORD.match(coord)
    if match is None:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    return ord(match.group(1)) - ord("A"), int(match.group(2))


def hex_centre(coord: str, size: float) -> Point:
    """Centre of a hex on an unshifted plane (column 0 / row A at the origin)."""
    row, column = coord_parts(coord)
    return column * SQRT3 / 2.0 * size, row * 1.5 * size


def apothem(size: float) -> float:
    """Distance from a hex's centre to the middle of an edge."""
    return size * SQRT3 / 2.0


def edge_angle(edge: int) -> float:
    """Direction (radians, y down, clockwise from east) of the middle of ``edge``.

    Edge 4 (E) is at 0 degrees, 5 (SE) at 60, 0 (SW) at 120 ... 3 (NE) at 300.
    """
    return math.radians((120 + 60 * (edge % 6)) % 360)


def unit(angle: float) -> Point:
    return math.cos(angle), math.sin(angle)


def edge_midpoint(edge: int, size: float) -> Point:
    """Middle of ``edge``, relative to the hex centre."""
    ux, uy = unit(edge_angle(edge))
    a = apothem(size)
    return ux * a, uy * a


def edge_lane_point(edge: int, size: float, offset: float) -> Point:
    """A point on ``edge`` shifted ``offset`` along it (clockwise positive): parallel lanes."""
    mx, my = edge_midpoint(edge, size)
    tx, ty = unit(edge_angle(edge) + math.pi / 2)
    return mx + tx * offset, my + ty * offset


def corner(index: int, size: float) -> Point:
    """Corner ``index`` (0 = the top vertex, then clockwise), relative to the centre."""
    angle = math.radians(-90 + 60 * index)
    return math.cos(angle) * size, math.sin(angle) * size


def corners(size: float) -> list[Point]:
    return [corner(i, size) for i in range(6)]


def edge_corners(edge: int, size: float) -> tuple[Point, Point]:
    """The two corners at the ends of ``edge`` (in clockwise order)."""
    angle = edge_angle(edge)
    first = angle - math.pi / 6
    second = angle + math.pi / 6
    return (
        (math.cos(first) * size, math.sin(first) * size),
        (math.cos(second) * size, math.sin(second) * size),
    )


def polar(angle: float, radius: float) -> Point:
    return math.cos(angle) * radius, math.sin(angle) * radius


def fmt(value: float) -> str:
    """A compact number for SVG attributes (two decimals, no trailing zeros)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pt(point: Point) -> str:
    return f"{fmt(point[0])},{fmt(point[1])}"


@dataclass(frozen=True, slots=True)
class Curve:
    """Track joining two edges of a hex.

    ``kind`` is ``"straight"`` (opposite edges), ``"gentle"`` (one edge between) or ``"sharp"``
    (adjacent edges).  ``d`` is the SVG path data, ``mid`` the middle of the track and
    ``normal`` the direction across the track there (for halt bars).
    """

    kind: str
    d: str
    mid: Point
    normal: float
    half_a: str = ""
    half_b: str = ""
    samples: tuple[Point, ...] = ()


def edge_curve(a: int, b: int, size: float, offset_a: float = 0.0, offset_b: float = 0.0) -> Curve:
    """The track from the middle of edge ``a`` to the middle of edge ``b``.

    Straight track between opposite edges; otherwise an arc that meets both edges at right
    angles: radius ``size / 2`` around the shared corner (sharp curve) or ``1.5 * size``
    around the centre of the neighbour across the edge in between (gentle curve).  The
    offsets move the ends along their edges (lanes of two-lane red areas).
    """
    a %= 6
    b %= 6
    pa = edge_lane_point(a, size, offset_a)
    pb = edge_lane_point(b, size, offset_b)
    step = (b - a) % 6
    if step == 3:
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        samples = tuple(
            (pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t) for t in _SAMPLE_STEPS
        )
        return Curve(
            "straight",
            f"M{pt(pa)}L{pt(pb)}",
            mid,
            edge_angle(a) + math.pi / 2,
            f"M{pt(pa)}L{pt(mid)}",
            f"M{pt(pb)}L{pt(mid)}",
            samples,
        )
    if step in (1, 5):
        kind = "sharp"
        first, second = (a, b) if step == 1 else (b, a)
        # the corner shared by two clockwise-adjacent edges
        centre = edge_corners(first, size)[1]
        radius = size / 2
        between = edge_angle(first) + math.pi / 6
    else:
        kind = "gentle"
        first = a if step == 2 else b
        between = edge_angle(first + 1)
        centre = polar(between, 2 * apothem(size))
        radius = 1.5 * size
    cross = (pa[0] - centre[0]) * (pb[1] - centre[1]) - (pa[1] - centre[1]) * (pb[0] - centre[0])
    sweep = 1 if cross > 0 else 0
    r = fmt(radius)
    d = f"M{pt(pa)}A{r},{r} 0 0,{sweep} {pt(pb)}"
    dist = math.hypot(*centre) - radius
    mid = polar(between, dist)
    start = math.atan2(pa[1] - centre[1], pa[0] - centre[0])
    end = math.atan2(pb[1] - centre[1], pb[0] - centre[0])
    turn = (end - start + math.pi) % (2 * math.pi) - math.pi
    samples = tuple(
        (
            centre[0] + math.cos(start + turn * t) * radius,
            centre[1] + math.sin(start + turn * t) * radius,
        )
        for t in _SAMPLE_STEPS
    )
    return Curve(
        kind,
        d,
        mid,
        between,
        f"M{pt(pa)}A{r},{r} 0 0,{sweep} {pt(mid)}",
        f"M{pt(pb)}A{r},{r} 0 0,{1 - sweep} {pt(mid)}",
        samples,
    )


_SAMPLE_STEPS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def spur(
    edge: int, target: Point, size: float, offset: float = 0.0
) -> tuple[str, tuple[Point, ...]]:
    """Track from the middle of ``edge`` to a point inside the hex: path data and samples.

    It leaves the edge at a right angle and bends smoothly towards ``target`` (a straight line
    when the target lies on the edge's axis, e.g. the centre).
    """
    start = edge_lane_point(edge, size, offset)
    ux, uy = unit(edge_angle(edge))
    reach = math.hypot(target[0] - start[0], target[1] - start[1]) * 0.5
    control = (start[0] - ux * reach, start[1] - uy * reach)
    samples = tuple(
        (
            (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * control[0] + t * t * target[0],
            (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * control[1] + t * t * target[1],
        )
        for t in _SAMPLE_STEPS
    )
    return f"M{pt(start)}Q{pt(control)} {pt(target)}", samples


def hex_polygon(size: float) -> str:
    """The ``points`` attribute of a hex polygon around the origin."""
    return " ".join(pt(c) for c in corners(size))


def half_width_at(y: float, size: float) -> float:
    """Half the width of a pointy-top hex at height ``y`` from its centre."""
    y = abs(y)
    if y <= size / 2:
        return apothem(size)
    return max(0.0, (size - y) * SQRT3)
