"""The pictures of the 1840 tiles: ``GET /tiles/1840/{tile}.svg?rotation=R&
phase=P``, one tile in one rotation drawn by the project's renderer
(:func:`tramways.g1840.render.tile.render_tile_svg`).  The hex panel shows one per legal
(tile, rotation) of a hex, the tile manifest one per tile.  A tile's picture depends on nothing
but its number, rotation and phase, so it is public and browsers may keep it."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from tramways.g1840.render.tile import render_tile_svg

router = APIRouter(include_in_schema=False)

CACHE = "public, max-age=86400"
"""A day: a tile's picture changes only with a new version of the renderer."""


@router.get("/tiles/1840/{tile_id}.svg")
def tile_picture(tile_id: str, rotation: int = 0, phase: str = "yellow") -> Response:
    """Tile ``tile_id`` at ``rotation`` (0-5), its revenue box of ``phase`` highlighted
    (R-LR-7); 404 for an unknown tile, 422 for a rotation or phase that does not exist."""
    try:
        svg = render_tile_svg(tile_id, rotation, phase=phase)
    except KeyError:
        return Response(status_code=404)
    except ValueError:
        return Response(status_code=422)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": CACHE})
