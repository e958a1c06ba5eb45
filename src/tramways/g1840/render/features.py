"""Drawing the board's features, layer by layer: terrain, track, halts, interchanges and
station markers."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from tramways.g1840.render import palette as colours
from tramways.g1840.render.elements import group, tag, text
from tramways.g1840.render.geometry import (
    Point,
    apothem,
    edge_angle,
    edge_corners,
    fmt,
    hex_polygon,
    polar,
    pt,
)
from tramways.g1840.render.hexview import HexView
from tramways.g1840.render.layout import Spot


def hex_fill(view: HexView) -> tuple[str, str | None]:
    """(fill colour, inner edge colour or None) of a hex as it is now."""
    if view.tile is not None:
        edge = colours.EDGE_COLOURS["orange_edged"] if view.tile.orange_edged else None
        return colours.TILE_COLOURS.get(view.tile.colour, "#dddddd"), edge
    area = view.area
    if area == "fixed":
        return colours.fixed_fill(view.hexdef.printed_colour or ""), None
    return colours.TERRAIN.get(area, "#ffffff"), colours.EDGE_COLOURS.get(area)


def terrain(view: HexView, size: float) -> str:
    fill, edge = hex_fill(view)
    items = [
        tag(
            "polygon",
            tag("title", escape(_tooltip(view))),
            points=hex_polygon(size),
            fill=fill,
            stroke=colours.BORDER,
            stroke_width=size * 0.02,
            class_="hex",
            data_coord=view.coord,
        )
    ]
    if edge is not None:
        items.append(
            tag(
                "polygon",
                points=hex_polygon(size * 0.9),
                fill="none",
                stroke=edge,
                stroke_width=size * 0.09,
                stroke_linejoin="round",
            )
        )
    if view.area == "danube" and view.tile is None:
        items.append(_danube(size))
    return group(items, transform=view.translate())


def _tooltip(view: HexView) -> str:
    """Hover text of a hex: coordinate, name, tile and rotation."""
    parts = [view.coord]
    if view.hexdef.name:
        parts.append(view.hexdef.name)
    if view.tile_id is not None:
        parts.append(f"tile {view.tile_id}")
    return " \u2014 ".join(parts)


def _danube(size: float) -> str:
    """The blue Danube across the hex (it only makes the tile cost 40)."""
    a = apothem(size)
    d = (
        f"M{pt((-a, size * 0.2))}C{pt((-a * 0.3, size * 0.45))} {pt((a * 0.2, -size * 0.55))} "
        f"{pt((a, -size * 0.3))}"
    )
    return tag(
        "path", d=d, fill="none", stroke=colours.DANUBE, stroke_width=size * 0.22, opacity=0.85
    )


def joins(view: HexView, fills: Mapping[str, str], size: float) -> str:
    """Hide the border between two hexes of one printed area (``same_area_as``)."""
    items = []
    for edge in view.hexdef.same_area_as:
        other = view.hexdef.neighbours.get(edge)
        if other is None or other not in fills:
            continue
        a, b = edge_corners(edge, size)
        shrink = 0.12
        a2 = (a[0] + (b[0] - a[0]) * shrink, a[1] + (b[1] - a[1]) * shrink)
        b2 = (b[0] + (a[0] - b[0]) * shrink, b[1] + (a[1] - b[1]) * shrink)
        items.append(
            tag(
                "line",
                x1=a2[0],
                y1=a2[1],
                x2=b2[0],
                y2=b2[1],
                stroke=fills[view.coord],
                stroke_width=size * 0.08,
            )
        )
    return group(items, transform=view.translate()) if items else ""


def impassable(view: HexView, size: float) -> str:
    items = []
    for edge in view.hexdef.impassable_edges:
        a, b = edge_corners(edge, size)
        items.append(
            tag(
                "line",
                x1=a[0],
                y1=a[1],
                x2=b[0],
                y2=b[1],
                stroke=colours.IMPASSABLE,
                stroke_width=size * 0.12,
                stroke_linecap="round",
                class_="impassable",
            )
        )
    return group(items, transform=view.translate()) if items else ""


TRACKS = ("stadtbahn_planned", "stadtbahn", "tram")
"""The track layers in drawing order: planned Stadtbahn under built Stadtbahn under tram."""


def track_layers(views: Sequence[HexView], size: float) -> list[str]:
    """Every track layer of ``views``, in the order of :data:`TRACKS`."""
    return [track_layer(views, size, track) for track in TRACKS]


def track_layer(views: Sequence[HexView], size: float, track: str) -> str:
    items = []
    for view in views:
        ds = [p.d for p in view.pieces if p.track == track]
        if not ds:
            continue
        d = " ".join(ds)
        if track == "tram":
            body = tag(
                "path",
                d=d,
                fill="none",
                stroke=colours.TRACK_CASING,
                stroke_width=size * 0.2,
            ) + tag("path", d=d, fill="none", stroke=colours.TRACK, stroke_width=size * 0.1)
        elif track == "stadtbahn":
            body = tag(
                "path",
                d=d,
                fill="none",
                stroke=colours.STADTBAHN_DARK,
                stroke_width=size * 0.13,
            ) + tag(
                "path",
                d=d,
                fill="none",
                stroke=colours.STADTBAHN_LIGHT,
                stroke_width=size * 0.06,
                stroke_dasharray=f"{fmt(size * 0.1)} {fmt(size * 0.1)}",
            )
        else:
            body = tag(
                "path",
                d=d,
                fill="none",
                stroke=colours.STADTBAHN_PLANNED,
                stroke_width=size * 0.09,
                stroke_dasharray=f"{fmt(size * 0.1)} {fmt(size * 0.08)}",
            )
        items.append(group([body], transform=view.translate(), class_=f"track-{track}"))
    return group(items, class_=f"layer-{track}")


def _placeholder(view: HexView, location: Any, spot: Spot, size: float) -> str:
    """An empty inner-city / station space: a dashed circle and the printed black arrows."""
    items = [
        tag(
            "circle",
            cx=spot.x,
            cy=spot.y,
            r=size * 0.2,
            fill="none",
            stroke="#444444",
            stroke_width=size * 0.025,
            stroke_dasharray=f"{fmt(size * 0.05)} {fmt(size * 0.04)}",
        )
    ]
    for path in view.paths:
        if path.track != "tram" or location.id not in path.locations:
            continue
        for edge in path.edges:
            items.append(_arrow(edge, size))
    return "".join(items)


def _arrow(edge: int, size: float) -> str:
    """A black arrow from ``edge`` into the hex (where track may be connected)."""
    angle = edge_angle(edge)
    base = apothem(size)
    tip = polar(angle, base - size * 0.26)
    left = (
        polar(angle, base)[0] + math.cos(angle + math.pi / 2) * size * 0.12,
        polar(angle, base)[1] + math.sin(angle + math.pi / 2) * size * 0.12,
    )
    right = (
        polar(angle, base)[0] - math.cos(angle + math.pi / 2) * size * 0.12,
        polar(angle, base)[1] - math.sin(angle + math.pi / 2) * size * 0.12,
    )
    return tag("polygon", points=f"{pt(left)} {pt(tip)} {pt(right)}", fill=colours.TRACK)


def slot_centres(slots: int, size: float) -> list[Point]:
    """Centres of the marker circles of an interchange with ``slots`` circles."""
    r = size * 0.2
    if slots <= 1:
        return [(0.0, 0.0)]
    if slots == 2:
        return [(-r, 0.0), (r, 0.0)]
    if slots == 3:
        r = size * 0.19
        return [(-r, r * 0.6), (r, r * 0.6), (0.0, -r * 1.1)]
    return [(-r + (i % 2) * 2 * r, -r + (i // 2) * 2 * r) for i in range(slots)]


def _slot_radius(slots: int, size: float) -> float:
    return size * (0.19 if slots <= 2 else 0.17)


def _interchange(view: HexView, location: Any, spot: Spot, size: float, home: Sequence[int]) -> str:
    slots = max(1, location.slots)
    centres = slot_centres(slots, size)
    r = _slot_radius(slots, size)
    items = []
    if slots == 2:
        items.append(
            tag(
                "rect",
                x=-2 * size * 0.2,
                y=-r,
                width=4 * size * 0.2,
                height=2 * r,
                rx=r,
                fill="#ffffff",
                stroke="#000000",
                stroke_width=size * 0.03,
            )
        )
    elif slots >= 3:
        items.append(
            tag(
                "circle",
                r=size * 0.42,
                fill="#ffffff",
                stroke="#000000",
                stroke_width=size * 0.03,
            )
        )
    owners = list(view.markers.get(location.id, ()))
    free_home = [line for line in home if line not in owners]
    for index, (x, y) in enumerate(centres):
        items.append(
            tag(
                "circle",
                cx=x,
                cy=y,
                r=r,
                fill="#ffffff",
                stroke="#000000",
                stroke_width=size * (0.03 if slots == 1 else 0.015),
                class_="slot",
            )
        )
        if index < len(owners):
            items.append(marker(owners[index], (x, y), r * 0.95, size))
        elif free_home:
            line = free_home.pop(0)
            items.append(
                text(
                    x,
                    y,
                    str(line),
                    r * 0.95,
                    fill=colours.owner_colour(line),
                    opacity=0.45,
                    font_weight="bold",
                    class_="home",
                )
            )
    for extra in owners[len(centres) :]:  # more markers than slots: never on a legal board
        items.append(marker(extra, (0.0, size * 0.3), r * 0.8, size))
    return group(items, transform=f"translate({pt(spot.point)})", class_="interchange")


def marker(owner: Any, at: Point, radius: float, size: float) -> str:
    """A station marker: a disc in the owner's colour with the line number / company."""
    fill = colours.owner_colour(owner)
    label = str(owner)
    font = radius * (1.15 if len(label) == 1 else 0.95)
    return group(
        [
            tag(
                "circle",
                cx=at[0],
                cy=at[1],
                r=radius,
                fill=fill,
                stroke="#000000",
                stroke_width=size * 0.02,
            ),
            text(
                at[0],
                at[1],
                label,
                font,
                fill=colours.text_colour_on(fill),
                font_weight="bold",
            ),
        ],
        class_="marker",
        data_owner=label,
    )


def _halt(view: HexView, location: Any, spot: Spot, size: float) -> str:
    ends = sum(1 for p in view.paths if location.id in p.locations)
    if spot.curve is None and ends >= 3 or ends == 0:
        return tag("circle", cx=spot.x, cy=spot.y, r=size * 0.11, fill="#000000", class_="halt")
    length = size * 0.36
    thickness = size * 0.11
    angle = math.degrees(spot.angle)
    return tag(
        "rect",
        x=-length / 2,
        y=-thickness / 2,
        width=length,
        height=thickness,
        fill="#000000",
        transform=f"translate({pt(spot.point)}) rotate({fmt(angle)})",
        class_="halt",
    )


def locations_layer(views: Sequence[HexView], board: Any, size: float) -> str:
    placed_lines = _placed_lines(board)
    items = []
    for view in views:
        parts = []
        home_lines = [
            line
            for line in view.hexdef.home_of
            if line in board.layout.lines_in_game and line not in placed_lines
        ]
        reserved = home_reservations(view, home_lines)
        for location in view.locations:
            spot = view.spots.get(location.id)
            if spot is None:
                continue
            if location.kind == "halt":
                drawn = _halt(view, location, spot, size)
            elif location.kind == "interchange":
                home = reserved.get(location.id, [])
                drawn = _interchange(view, location, spot, size, home)
            else:
                drawn = _placeholder(view, location, spot, size)
            # each revenue location is one group named by its place (``E19.0``): the pages
            # make the stops of a claimed route and the circles of a station marker clickable
            parts.append(group([drawn], class_="stop", data_stop=f"{view.coord}.{location.id}",
                               data_kind=location.kind))
        if parts:
            items.append(group(parts, transform=view.translate()))
    return group(items, class_="layer-locations")


def home_reservations(view: HexView, lines: Sequence[int]) -> dict[int, list[int]]:
    """Interchange id -> the home lines (not yet started) shown in its free slots (IX.6).

    Lines go, in order, to the first interchange with a slot still free (on the OO home hex of
    lines 1 and 2 each gets one circle)."""
    free = {
        loc.id: max(1, loc.slots) - len(view.markers.get(loc.id, ()))
        for loc in view.locations
        if loc.kind == "interchange"
    }
    reserved: dict[int, list[int]] = {}
    for line in lines:
        for location_id, count in free.items():
            if count > 0:
                reserved.setdefault(location_id, []).append(line)
                free[location_id] = count - 1
                break
    return reserved


def _placed_lines(board: Any) -> set[int]:
    lines = set()
    for line in board.layout.lines_in_game:
        try:
            if board.line_markers(line):
                lines.add(line)
        except (AttributeError, KeyError):
            continue
    return lines
