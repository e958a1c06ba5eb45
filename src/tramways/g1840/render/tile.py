"""One 1840 tile drawn alone: the picture a player chooses a tile lay by.

:func:`render_tile_svg` draws a tile of ``tiles.json`` in one rotation with the same layers as
the map (:func:`tramways.g1840.render.render_svg`): the tile's colour and orange edge, its
track (Stadtbahn track dotted), halts, interchanges with their slots, revenue (phase boxes
where it depends on the phase, R-LR-7, the current phase highlighted), the OO label and the
tile's number.  A hex's own printing (its name, landmark, coordinate) is not part of a tile and
is left out; the map's preview of a lay shows the hex with it.  Rotations are the engine's:
``r`` turns the tile ``r`` sixths of a turn clockwise (edges as in
:mod:`~tramways.g1840.render.geometry`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tramways.g1840.model import HexDef
from tramways.g1840.render.elements import group, svg_root
from tramways.g1840.render.features import locations_layer, terrain, track_layers
from tramways.g1840.render.geometry import apothem
from tramways.g1840.render.hexview import HexView, pieces_of
from tramways.g1840.render.labels import PHASES, hex_labels
from tramways.g1840.render.layout import place_locations

TILE_SIZE = 40.0
"""The hex radius of a tile picture in SVG units (the map's, so that both read alike)."""

MARGIN = 0.04
"""Room around the hex (in hex radii) for its border."""


@dataclass(frozen=True)
class _NoLayout:
    lines_in_game: tuple[int, ...] = ()


@dataclass(frozen=True)
class _NoBoard:
    """What :func:`~tramways.g1840.render.features.locations_layer` asks of a board: a tile
    alone stands on no map, so no line's home is waiting on it."""

    layout: _NoLayout = field(default_factory=_NoLayout)


def _view(tile_id: str, rotation: int, size: float) -> HexView:
    from tramways.g1840.data import tiles

    tile = tiles()[tile_id]  # KeyError: no such tile
    paths = tile.paths_at(rotation)
    hexdef = HexDef(coord="", name=None, area="white", locations=tile.locations, paths=paths,
                    neighbours={}, laying_allowed=True)
    margin = size * MARGIN
    view = HexView(coord="", hexdef=hexdef, centre=(apothem(size) + margin, size + margin),
                   tile=tile, tile_id=tile.id, paths=paths, locations=tile.locations, markers={})
    view.spots = place_locations(view.locations, view.paths, size)
    view.pieces = pieces_of(view, size)
    for path in view.paths:
        view.exits.update(e.edge for e in (path.a, path.b) if e.edge is not None)
    return view


@lru_cache(maxsize=512)
def render_tile_svg(tile_id: str, rotation: int = 0, *, phase: str = "yellow",
                    size: float = TILE_SIZE) -> str:
    """Tile ``tile_id`` at ``rotation`` (0-5) as an SVG document (a string), one hex just
    large enough for it; ``phase`` highlights the revenue box of that phase (R-LR-7).

    ``KeyError`` for an unknown tile, ``ValueError`` for a rotation outside 0-5 or an unknown
    phase."""
    if phase not in PHASES:
        raise ValueError(f"unknown phase {phase!r} (one of {', '.join(PHASES)})")
    if not 0 <= rotation <= 5:
        raise ValueError(f"rotation {rotation} is not 0-5")
    view = _view(tile_id, rotation, size)
    views = [view]
    width, height = 2 * (apothem(size) + size * MARGIN), 2 * size * (1 + MARGIN)
    body = [
        group([terrain(view, size)], class_="layer-terrain"),
        *track_layers(views, size),
        locations_layer(views, _NoBoard(), size),
        group([hex_labels(view, phase, size)], class_="layer-labels"),
    ]
    return svg_root("".join(body), width, height, class_="tile-picture", data_tile=tile_id,
                    data_rotation=str(rotation))


__all__ = ["TILE_SIZE", "render_tile_svg"]
