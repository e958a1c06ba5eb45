"""Draw an 1840 board as SVG.

:func:`render_svg` draws what an 18xx player expects to see: the pointy-top hex grid with its
coordinates and location names, the printed terrain (white, light-orange Stadtbahn hexes with
an orange edge, light-red inner city, purple railway stations, red off-board areas, fixed
hexes, the Danube), the laid tiles in their colour with their track (arcs for curves, straight
lines, spurs to off-centre locations), Stadtbahn track dotted, halts as black bars, interchanges
as white circles with their slots and station markers, revenue (phase boxes where it depends
on the phase, R-LR-7, the current phase highlighted), landmarks, the OO label, tile ids and the
impassable inner-city borders.  Routes (``(line, Run)`` pairs from :mod:`tramways.g1840.routes`)
are drawn on top in the line's colour.

The board is read only through its public API (``layout``, ``tile``, ``paths``, ``locations``,
``markers``, ``line_markers``), so any object offering those can be drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tramways.g1840.render import palette as colours
from tramways.g1840.render.elements import group, svg_root, tag, text
from tramways.g1840.render.features import (
    hex_fill,
    impassable,
    joins,
    locations_layer,
    terrain,
    track_layers,
)
from tramways.g1840.render.geometry import apothem, fmt, hex_centre
from tramways.g1840.render.hexview import HexView, build_views, path_data
from tramways.g1840.render.labels import PHASES, hex_labels
from tramways.g1840.render.layout import footprint

DEFAULT_SIZE = 40.0
"""Hex radius in SVG units (a 148-hex map is then about 1150 x 760)."""

LAYOUT_TITLES: dict[str, str] = {
    "full": "main map",
    "small3": "small 3-player map",
    "two_player": "2-player map",
}


def _routes_layer(
    views: Mapping[str, HexView], routes: Sequence[tuple[int, Any]], size: float
) -> str:
    items = []
    count = len(routes)
    for index, (line, run) in enumerate(routes):
        colour = colours.LINE_COLOURS.get(line, "#777777")
        shift = (index - (count - 1) / 2) * size * 0.05
        ds = []
        for coord, path in getattr(run, "paths", ()):
            view = views.get(coord)
            if view is None:
                continue
            for d, _samples in path_data(view, path, size):
                ds.append(f'<path d="{d}" transform="{view.translate()}"/>')
        rings = []
        for coord, location_id in getattr(run, "stops", ()):
            view = views.get(coord)
            if view is None or location_id not in view.spots:
                continue
            spot = view.spots[location_id]
            loc = view.location(location_id)
            radius = (footprint(loc, size) if loc is not None else size * 0.2) + size * 0.06
            x = view.centre[0] + spot.x
            y = view.centre[1] + spot.y
            rings.append(tag("circle", cx=x, cy=y, r=radius))
        items.append(
            group(
                ["".join(ds)],
                fill="none",
                stroke=colour,
                stroke_width=size * 0.16,
                stroke_linecap="round",
                stroke_linejoin="round",
                opacity=0.75,
                transform=f"translate({fmt(shift)},{fmt(shift)})",
                class_="route",
                data_line=str(line),
            )
        )
        items.append(
            group(rings, fill="none", stroke=colour, stroke_width=size * 0.07, opacity=0.9)
        )
    return group(items, class_="layer-routes")


# ----------------------------------------------------------------------------- whole map


def _header(
    layout: Any,
    phase: str,
    routes: Sequence[tuple[int, Any]],
    title: str | None,
    width: float,
    size: float,
) -> tuple[str, float]:
    heading = title or (
        f"1840 Vienna Tramways \u2014 {LAYOUT_TITLES.get(layout.name, layout.name)}"
    )
    items = [
        text(
            size * 0.4,
            size * 0.5,
            heading,
            size * 0.42,
            text_anchor="start",
            font_weight="bold",
            fill=colours.TEXT,
        )
    ]
    # phase boxes at the right
    box = size * 0.5
    x = width - size * 0.4 - box * 4
    items.append(
        text(x - size * 0.15, size * 0.5, "phase", size * 0.3, text_anchor="end", fill="#333333")
    )
    for i, colour in enumerate(PHASES):
        current = colour == phase
        items.append(
            tag(
                "rect",
                x=x + i * box,
                y=size * 0.5 - box / 2,
                width=box,
                height=box,
                fill=colours.PHASE_COLOURS[colour],
                stroke="#000000",
                stroke_width=size * (0.07 if current else 0.015),
                opacity=None if current else 0.45,
                class_="phase-current" if current else "phase",
                data_phase=colour,
            )
        )
    height = size * 1.0
    if routes:
        per_row = max(1, int(width // (size * 5.5)))
        for i, (line, run) in enumerate(routes):
            row, col = divmod(i, per_row)
            cx = size * 0.4 + col * size * 5.5
            cy = size * 1.25 + row * size * 0.45
            colour = colours.LINE_COLOURS.get(line, "#777777")
            revenue = getattr(run, "revenue", None)
            total = getattr(run, "total", None)
            label = f"line {line}"
            if revenue is not None:
                label += f": {revenue}"
                if total is not None and total != revenue:
                    label += f" (net {total})"
            items.append(
                tag(
                    "rect",
                    x=cx,
                    y=cy - size * 0.06,
                    width=size * 0.5,
                    height=size * 0.12,
                    fill=colour,
                )
            )
            items.append(
                text(
                    cx + size * 0.6, cy, label, size * 0.28, text_anchor="start", fill=colours.TEXT
                )
            )
        rows = (len(routes) + per_row - 1) // per_row
        height = size * 1.25 + rows * size * 0.45
    return group(items, class_="header"), height


def render_svg(
    board: Any,
    *,
    phase: str = "yellow",
    routes: Sequence[tuple[int, Any]] = (),
    title: str | None = None,
    size: float = DEFAULT_SIZE,
) -> str:
    """The board as an SVG document (a string).

    ``phase`` (``"yellow"``, ``"green"``, ``"brown"`` or ``"grey"``: the newest available tile
    colour) selects the highlighted revenue box (R-LR-7); ``routes`` is a sequence of
    ``(line number, Run)`` drawn in the line's colour; ``title`` replaces the default heading;
    ``size`` is the hex radius in SVG units.
    """
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r} (one of {', '.join(PHASES)})")
    routes = list(routes)
    layout = board.layout
    raw = [hex_centre(coord, size) for coord in layout.hexes]
    margin = size * 0.4
    min_x = min(x for x, _ in raw) - apothem(size) - margin
    max_x = max(x for x, _ in raw) + apothem(size) + margin
    min_y = min(y for _, y in raw) - size - margin
    max_y = max(y for _, y in raw) + size + margin
    width = max_x - min_x
    header, header_height = _header(layout, phase, routes, title, width, size)
    origin = (min_x, min_y - header_height)
    height = max_y - min_y + header_height

    views = build_views(board, size, origin)
    by_coord = {view.coord: view for view in views}
    fills = {view.coord: hex_fill(view)[0] for view in views}

    body = [
        tag("rect", x=0.0, y=0.0, width=width, height=height, fill=colours.BACKGROUND),
        header,
        group((terrain(view, size) for view in views), class_="layer-terrain"),
        group((joins(view, fills, size) for view in views), class_="layer-joins"),
        *track_layers(views, size),
        _routes_layer(by_coord, routes, size),
        locations_layer(views, board, size),
        group((hex_labels(view, phase, size) for view in views), class_="layer-labels"),
        group((impassable(view, size) for view in views), class_="layer-borders"),
    ]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + svg_root("".join(body), width, height)
        + "\n"
    )


__all__ = ["DEFAULT_SIZE", "PHASES", "render_svg"]
