"""One hex as it is drawn: the board's current tile, paths, locations and markers there, where
each location sits and the SVG path data of every piece of track."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tramways.g1840.render.geometry import Point, edge_curve, hex_centre, pt, spur
from tramways.g1840.render.layout import Spot, place_locations


@dataclass(frozen=True, slots=True)
class Piece:
    """One drawn piece of track: its kind and SVG path data."""

    track: str
    d: str


@dataclass
class HexView:
    """Everything drawn for one hex, gathered once from the board."""

    coord: str
    hexdef: Any
    centre: Point
    tile: Any | None
    tile_id: str | None
    paths: tuple[Any, ...]
    locations: tuple[Any, ...]
    markers: Mapping[int, tuple[Any, ...]]
    spots: dict[int, Spot] = field(default_factory=dict)
    track_samples: list[Point] = field(default_factory=list)
    exits: set[int] = field(default_factory=set)
    pieces: list[Piece] = field(default_factory=list)

    @property
    def area(self) -> str:
        return str(self.hexdef.area)

    def translate(self) -> str:
        return f"translate({pt(self.centre)})"

    def location(self, location_id: int) -> Any | None:
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        return None


def build_views(board: Any, size: float, origin: Point) -> list[HexView]:
    from tramways.g1840.data import tiles

    tile_defs = tiles()
    views = []
    for coord in sorted(board.layout.hexes, key=_sort_key):
        hexdef = board.layout.hexes[coord]
        cx, cy = hex_centre(coord, size)
        placed = board.tile(coord)
        tile = tile_defs.get(placed.tile_id) if placed is not None else None
        view = HexView(
            coord=coord,
            hexdef=hexdef,
            centre=(cx - origin[0], cy - origin[1]),
            tile=tile,
            tile_id=placed.tile_id if placed is not None else None,
            paths=tuple(board.paths(coord)),
            locations=tuple(board.locations(coord)),
            markers=dict(board.markers(coord)),
        )
        view.spots = place_locations(view.locations, view.paths, size)
        view.pieces = pieces_of(view, size)  # also collects the track samples
        for path in view.paths:
            view.exits.update(e.edge for e in (path.a, path.b) if e.edge is not None)
        views.append(view)
    return views


def _sort_key(coord: str) -> tuple[int, int]:
    return ord(coord[0]), int(coord[1:])


def _lane_offset(end: Any, size: float) -> float:
    lane = getattr(end, "lane", None)
    if not lane:
        return 0.0
    lanes, index = lane
    return (index - (lanes - 1) / 2) * size * 0.24


def path_data(view: HexView, path: Any, size: float) -> list[tuple[str, tuple[Point, ...]]]:
    """SVG path data (and sample points) of one path of a hex, as drawn on the board."""
    a, b = path.a, path.b
    if a.edge is None and b.edge is not None:
        a, b = b, a
    if a.edge is not None and b.edge is not None:
        curve = edge_curve(a.edge, b.edge, size, _lane_offset(a, size), _lane_offset(b, size))
        return [(curve.d, curve.samples)]
    if a.edge is not None and b.location is not None:
        spot = view.spots.get(b.location)
        if spot is not None and spot.curve is not None and spot.curve_geometry is not None:
            geometry = spot.curve_geometry
            half = geometry.half_a if spot.curve[0] == a.edge else geometry.half_b
            return [(half, geometry.samples)]
        target = spot.point if spot is not None else (0.0, 0.0)
        lanes = max(1, getattr(path, "lanes", 1))
        if lanes > 1:
            step = size * 0.24
            return [spur(a.edge, target, size, (i - (lanes - 1) / 2) * step) for i in range(lanes)]
        return [spur(a.edge, target, size, _lane_offset(a, size))]
    # location to location
    p1 = view.spots.get(a.location) if a.location is not None else None
    p2 = view.spots.get(b.location) if b.location is not None else None
    s1 = p1.point if p1 else (0.0, 0.0)
    s2 = p2.point if p2 else (0.0, 0.0)
    return [(f"M{pt(s1)}L{pt(s2)}", (s1, s2))]


def pieces_of(view: HexView, size: float) -> list[Piece]:
    pieces: list[Piece] = []
    drawn_curves: set[int] = set()
    for path in view.paths:
        ends = (path.a, path.b)
        location = next((e.location for e in ends if e.location is not None), None)
        edge = next((e.edge for e in ends if e.edge is not None), None)
        if location is not None and edge is not None:
            spot = view.spots.get(location)
            loc = view.location(location)
            if loc is not None and loc.kind == "placeholder":
                continue  # drawn as arrows, see _placeholder
            if spot is not None and spot.curve is not None and spot.curve_geometry is not None:
                if location in drawn_curves:
                    continue
                drawn_curves.add(location)
                pieces.append(Piece(path.track, spot.curve_geometry.d))
                view.track_samples.extend(spot.curve_geometry.samples)
                continue
        for d, samples in path_data(view, path, size):
            pieces.append(Piece(path.track, d))
            view.track_samples.extend(samples)
    return pieces
