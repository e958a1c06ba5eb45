"""``GET /tiles/1840/{tile}.svg`` (issue 23, item 8): the renderer's picture of one tile in one
rotation, public and cacheable; nothing for a tile, rotation or phase that does not exist."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tramways.g1840.render.tile import render_tile_svg  # noqa: E402


def test_tile_picture_is_the_renderers_drawing(sqlite_client) -> None:
    reply = sqlite_client.get("/tiles/1840/57.svg?rotation=2&phase=green")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    assert reply.text == render_tile_svg("57", 2, phase="green")
    assert "max-age" in reply.headers["cache-control"]
    assert sqlite_client.get("/tiles/1840/L30a.svg").text == render_tile_svg("L30a", 0)


def test_tile_picture_refuses_what_does_not_exist(sqlite_client) -> None:
    assert sqlite_client.get("/tiles/1840/999.svg").status_code == 404
    assert sqlite_client.get("/tiles/1840/57.svg?rotation=6").status_code == 422
    assert sqlite_client.get("/tiles/1840/57.svg?phase=purple").status_code == 422
    assert sqlite_client.get("/tiles/1840/57.svg?rotation=x").status_code == 422
