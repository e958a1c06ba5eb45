"""Text and small signs of a hex: revenue (phase boxes, R-LR-7), names, coordinates, tile ids,
the OO label, landmarks, Stadtbahn bonus actions and lay costs, each put where it covers the
least track."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

from tramways.g1840.render import palette as colours
from tramways.g1840.render.elements import group, halo_text, tag, text
from tramways.g1840.render.geometry import Point, edge_angle, half_width_at, polar, pt
from tramways.g1840.render.hexview import HexView
from tramways.g1840.render.layout import footprint

PHASES = ("yellow", "green", "brown", "grey")

BONUS_LABELS: dict[str, tuple[str, str]] = {
    "lay_additional_yellow_tile": ("+Y", colours.TILE_COLOURS["yellow"]),
    "upgrade_yellow_tile_to_green": ("Y\u2192G", colours.TILE_COLOURS["green"]),
    "lay_red_inner_city_tile": ("RED", colours.TILE_COLOURS["red"]),
    "lay_purple_railway_station_tile": ("PUR", colours.TILE_COLOURS["purple"]),
    "place_additional_station_marker": ("+M", "#ffffff"),
}
"""Short label and colour of each printed Stadtbahn bonus action (IX.4)."""


Obstacle = tuple[Point, float, float]
"""A point, its radius and how bad covering it is (track 1, anything drawn on top 5)."""

SOLID = 5.0


def _inside(point: Point, radius: float, size: float) -> bool:
    x, y = point
    if abs(y) + radius > size * 0.86:
        return False
    return abs(x) + radius <= half_width_at(abs(y) + radius * 0.6, size) - size * 0.04


def _obstacles(view: HexView, size: float) -> list[Obstacle]:
    """Track, locations, the placeholder arrows and the coordinate label of a hex."""
    obstacles: list[Obstacle] = [(p, size * 0.07, 1.0) for p in view.track_samples]
    for location in view.locations:
        spot = view.spots.get(location.id)
        if spot is None:
            continue
        weight = SOLID * 2 if view.markers.get(location.id) else SOLID
        obstacles.append((spot.point, footprint(location, size), weight))
        if location.kind == "placeholder":
            for path in view.paths:
                if location.id in path.locations:
                    for edge in path.edges:
                        obstacles.append((polar(edge_angle(edge), size * 0.72), size * 0.14, SOLID))
    obstacles.append(((0.0, -size * 0.76), size * 0.1, SOLID))
    return obstacles


def _free_point(
    candidates: Iterable[Point],
    radius: float,
    obstacles: list[Obstacle],
    size: float,
) -> Point:
    """The first candidate (inside the hex) farthest from every obstacle."""
    best: Point | None = None
    best_score = -math.inf
    for cand in candidates:
        if not _inside(cand, radius, size):
            continue
        score = min((math.dist(cand, p) - r - radius for p, r, _ in obstacles), default=size)
        score = min(score, size * 0.05)  # clear enough: prefer the earlier candidate
        if score > best_score + 1e-6:
            best, best_score = cand, score
    return best if best is not None else (0.0, 0.0)


def _box_cost(
    centre: Point, width: float, height: float, obstacles: list[Obstacle], size: float
) -> float:
    """How badly a text box covers obstacles (and sticks out of the hex)."""
    cx, cy = centre
    cost = 0.0
    for (px, py), r, weight in obstacles:
        dx = max(abs(px - cx) - width / 2, 0.0)
        dy = max(abs(py - cy) - height / 2, 0.0)
        gap = math.hypot(dx, dy) - r
        if gap < 0:
            cost += (-gap / size + 0.2) * weight
    for sx in (-1, 1):
        for sy in (-1, 1):
            x, y = cx + sx * width / 2, cy + sy * height / 2
            if abs(y) > size * 0.9 or abs(x) > half_width_at(y, size):
                cost += 3.0
    return cost


def _best_box(
    candidates: Iterable[Point],
    width: float,
    height: float,
    obstacles: list[Obstacle],
    size: float,
) -> Point:
    best = (0.0, 0.0)
    best_cost = math.inf
    for cand in candidates:
        cost = _box_cost(cand, width, height, obstacles, size)
        if cost < best_cost - 1e-6:
            best, best_cost = cand, cost
    return best


def _box_obstacles(centre: Point, width: float, height: float) -> list[Obstacle]:
    """A text box as a row of round obstacles."""
    count = max(1, int(width / height + 0.5))
    step = width / count
    left = centre[0] - width / 2 + step / 2
    return [((left + i * step, centre[1]), max(step, height) / 2, SOLID) for i in range(count)]


def _ring(centre: Point, distance: float, steps: int = 12, start: float = -90.0) -> list[Point]:
    return [
        (
            centre[0] + math.cos(math.radians(start + i * 360 / steps)) * distance,
            centre[1] + math.sin(math.radians(start + i * 360 / steps)) * distance,
        )
        for i in range(steps)
    ]


def _phase_boxes(
    revenue: Mapping[str, int], at: Point, phase: str, size: float, scale: float = 1.0
) -> str:
    """The printed row of revenue boxes, one per phase colour, the current one highlighted."""
    w = size * 0.33 * scale
    h = size * 0.25 * scale
    shown = [colour for colour in PHASES if colour in revenue]
    current = _current_colour(revenue, phase)
    x0 = at[0] - w * len(shown) / 2
    items = []
    for i, colour in enumerate(shown):
        is_current = colour == current
        x = x0 + i * w
        items.append(
            tag(
                "rect",
                x=x,
                y=at[1] - h / 2,
                width=w,
                height=h,
                fill=colours.PHASE_COLOURS[colour],
                stroke="#000000",
                stroke_width=size * (0.05 if is_current else 0.012),
                opacity=None if is_current else 0.8,
                class_="phase-current" if is_current else "phase",
            )
        )
        items.append(
            text(
                x + w / 2,
                at[1],
                str(revenue[colour]),
                h * 0.72,
                fill="#000000",
                font_weight="bold" if is_current else None,
            )
        )
    return group(items, class_="revenue-boxes")


def _current_colour(revenue: Mapping[str, int], phase: str) -> str | None:
    best = None
    for colour in PHASES:
        if colour in revenue:
            best = colour
        if colour == phase:
            break
    return best


def _revenue_label(value: int, at: Point, size: float) -> str:
    r = size * 0.13
    return group(
        [
            tag(
                "circle",
                cx=at[0],
                cy=at[1],
                r=r,
                fill="#ffffff",
                stroke="#000000",
                stroke_width=size * 0.015,
            ),
            text(at[0], at[1], str(value), r * 1.15, fill="#000000"),
        ],
        class_="revenue",
    )


def _split_name(name: str) -> list[str]:
    if len(name) <= 13:
        return [name]
    words = name.split(" ")
    best = [name]
    best_width = len(name)
    for i in range(1, len(words)):
        first, second = " ".join(words[:i]), " ".join(words[i:])
        width = max(len(first), len(second))
        if width < best_width:
            best, best_width = [first, second], width
    return best


def hex_labels(view: HexView, phase: str, size: float) -> str:
    """Every label of one hex, placed around its track and locations."""
    items: list[str] = []
    obstacles = _obstacles(view, size)
    red = view.tile is None and view.area in ("offboard_red", "offboard_red_connector")
    items.extend(_revenue_labels(view, phase, obstacles, size))
    items.extend(_name(view, red, obstacles, size))

    if view.coord:  # a tile drawn alone (render.tile) stands on no hex
        items.append(
            text(0.0, -size * 0.76, view.coord, size * 0.14, fill="#ffffff" if red else "#555555")
        )
    if view.tile_id is not None:
        font = size * 0.12
        width = font * 0.6 * len(view.tile_id)
        at = _best_box(
            [polar(math.radians(a), size * 0.64) for a in (30, 150, -30, -150, 0, 180)],
            width,
            font,
            obstacles,
            size,
        )
        items.append(text(at[0], at[1], view.tile_id, font, fill="#333333", class_="tile-id"))
        obstacles.extend(_box_obstacles(at, width, font))

    side = [(x * size, y * size) for x, y in _SIDE_SPOTS]
    label = view.tile.label if view.tile is not None else view.hexdef.label
    if label:
        at = _free_point(side, size * 0.14, obstacles, size)
        items.append(halo_text(at[0], at[1], label, size * 0.2, font_weight="bold", fill="#000000"))
        obstacles.append((at, size * 0.15, SOLID))
    if view.hexdef.landmark:
        at = _free_point(side, size * 0.14, obstacles, size)
        items.append(_landmark(at, size, str(view.hexdef.landmark)))
        obstacles.append((at, size * 0.16, SOLID))
    if view.tile is None and view.hexdef.stadtbahn is not None:
        bonus = BONUS_LABELS.get(view.hexdef.stadtbahn.bonus_action)
        if bonus is not None:
            at = _free_point(side, size * 0.17, obstacles, size)
            items.append(_badge(bonus[0], bonus[1], at, size, class_="bonus"))
            obstacles.append((at, size * 0.2, SOLID))
    if view.tile is None and view.hexdef.lay_cost:
        at = _free_point(list(reversed(side)), size * 0.13, obstacles, size)
        edge = colours.DANUBE if view.area == "danube" else colours.EDGE_COLOURS["stadtbahn"]
        items.append(_cost(view.hexdef.lay_cost, at, edge, size))
    return group(items, transform=view.translate())


_SIDE_SPOTS = (
    (-0.5, -0.3),
    (0.5, -0.3),
    (-0.55, 0.0),
    (0.55, 0.0),
    (-0.5, 0.3),
    (0.5, 0.3),
    (0.0, -0.52),
    (0.0, 0.52),
)
"""Candidate places (in hex radii) of the small signs: OO, landmark, bonus, cost."""


_BOX_SPOTS = (
    (0.0, 0.47),
    (0.0, -0.47),
    (0.0, 0.3),
    (0.0, -0.3),
    (-0.15, 0.47),
    (0.15, 0.47),
    (-0.15, -0.47),
    (0.15, -0.47),
    (-0.3, 0.3),
    (0.3, 0.3),
    (-0.3, -0.3),
    (0.3, -0.3),
)
"""Candidate centres (in hex radii) of a hex's row of phase boxes."""


def _revenue_labels(view: HexView, phase: str, obstacles: list[Obstacle], size: float) -> list[str]:
    items: list[str] = []
    revenues = [
        loc
        for loc in view.locations
        if loc.kind in ("halt", "interchange")
        and (not isinstance(loc.revenue, int) or loc.revenue > 0)
        and loc.id in view.spots
    ]
    phased = [loc for loc in revenues if not isinstance(loc.revenue, int)]
    distinct = {tuple(sorted(dict(loc.revenue).items())) for loc in phased}
    if len(distinct) == 1:
        # one printed row of boxes for the hex (red areas, red and purple tiles)
        best: tuple[float, Point, float] | None = None
        for scale in (1.0, 0.75):
            width, height = size * 0.33 * 4 * scale, size * 0.25 * scale
            for x, y in _BOX_SPOTS:
                at = (x * size, y * size)
                cost = _box_cost(at, width, height, obstacles, size) + (1.0 - scale)
                if best is None or cost < best[0] - 1e-6:
                    best = (cost, at, scale)
        assert best is not None
        _, at, scale = best
        items.append(_phase_boxes(phased[0].revenue, at, phase, size, scale=scale))
        obstacles.extend(_box_obstacles(at, size * 0.33 * 4 * scale, size * 0.25 * scale))
    else:
        for loc in phased:
            spot = view.spots[loc.id]
            width, height = size * 0.33 * 4 * 0.6, size * 0.25 * 0.6
            at = _best_box(
                _ring(spot.point, footprint(loc, size) + size * 0.18),
                width,
                height,
                obstacles,
                size,
            )
            items.append(_phase_boxes(loc.revenue, at, phase, size, scale=0.6))
            obstacles.extend(_box_obstacles(at, width, height))
    for loc in revenues:
        if not isinstance(loc.revenue, int):
            continue
        spot = view.spots[loc.id]
        radius = size * 0.13
        at = _free_point(
            _ring(spot.point, footprint(loc, size) + radius + size * 0.02),
            radius,
            obstacles,
            size,
        )
        items.append(_revenue_label(loc.revenue, at, size))
        obstacles.append((at, radius, SOLID))
    return items


def _name(view: HexView, red: bool, obstacles: list[Obstacle], size: float) -> list[str]:
    name = view.hexdef.name
    if not name:
        return []
    lines = _split_name(name)
    candidates = [
        (x * size, y * size)
        for y in (0.6, 0.5, -0.52, 0.36, -0.36, 0.66, -0.62, 0.0)
        for x in (0.0, -0.2, 0.2)
    ]
    best: tuple[float, Point, float] | None = None
    for font, penalty in ((size * 0.14, 0.0), (size * 0.115, 0.4)):
        width = font * 0.56 * max(len(line) for line in lines)
        height = font * 1.1 * len(lines)
        for cand in candidates:
            cost = _box_cost(cand, width, height, obstacles, size) + penalty
            if best is None or cost < best[0] - 1e-6:
                best = (cost, cand, font)
    assert best is not None
    _, at, font = best
    width = font * 0.56 * max(len(line) for line in lines)
    height = font * 1.1 * len(lines)
    obstacles.extend(_box_obstacles(at, width, height))
    items = []
    top = at[1] - height / 2 + font * 0.55
    for i, line in enumerate(lines):
        y = top + i * font * 1.1
        if red:
            items.append(text(at[0], y, line, font, fill=colours.TEXT_ON_RED, font_weight="bold"))
        else:
            items.append(halo_text(at[0], y, line, font, fill=colours.TEXT))
    return items


def _badge(label: str, fill: str, at: Point, size: float, class_: str) -> str:
    w = size * (0.18 + 0.09 * len(label))
    h = size * 0.22
    return group(
        [
            tag(
                "rect",
                x=at[0] - w / 2,
                y=at[1] - h / 2,
                width=w,
                height=h,
                rx=h * 0.3,
                fill=fill,
                stroke="#000000",
                stroke_width=size * 0.015,
            ),
            text(
                at[0], at[1], label, h * 0.62, fill=colours.text_colour_on(fill), font_weight="bold"
            ),
        ],
        class_=class_,
    )


def _cost(cost: int, at: Point, edge: str, size: float) -> str:
    r = size * 0.13
    return group(
        [
            tag(
                "circle",
                cx=at[0],
                cy=at[1],
                r=r,
                fill="#ffffff",
                stroke=edge,
                stroke_width=size * 0.04,
            ),
            text(at[0], at[1], str(cost), r * 1.05, fill="#000000"),
        ],
        class_="cost",
    )


def _landmark(at: Point, size: float, name: str = "") -> str:
    """A landmark: a gold star (its private adds 20 to routes through it, IV.2)."""
    outer, inner = size * 0.15, size * 0.065
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        points.append((at[0] + math.cos(angle) * radius, at[1] + math.sin(angle) * radius))
    return tag(
        "polygon",
        tag("title", escape(f"landmark {name}: +20 for its owner's routes (IV.2)")),
        points=" ".join(pt(p) for p in points),
        fill="#ffd700",
        stroke="#7a5c00",
        stroke_width=size * 0.02,
        class_="landmark",
    )
