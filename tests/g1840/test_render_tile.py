"""One tile drawn alone (``render_tile_svg``): the pictures of the hex panel and the tile
manifest (issue 23, item 8) show exactly the track the map shows after the same lay (IX.4)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tramways.g1840.analysis import after_lay
from tramways.g1840.board import Board
from tramways.g1840.data import load_layout, tiles
from tramways.g1840.render import render_svg
from tramways.g1840.render.palette import PHASE_COLOURS
from tramways.g1840.render.tile import render_tile_svg

SVG = "{http://www.w3.org/2000/svg}"


def _track(svg: str) -> set[str]:
    """The path data of the tram track (the black line over its casing)."""
    return set(re.findall(r'<path d="([^"]+)" fill="none" stroke="#1a1a1a"', svg))


def test_ix4_tile_picture_draws_the_track_the_map_draws_after_the_lay() -> None:
    board = Board(load_layout("full"))
    for rotation in range(6):
        after = after_lay(board, ("E9", "57", rotation))
        on_map = render_svg(after)
        alone = render_tile_svg("57", rotation)
        assert _track(alone), rotation
        assert _track(alone) <= _track(on_map), rotation


def test_ix4_each_rotation_is_its_own_picture() -> None:
    pictures = {render_tile_svg("5", r) for r in range(6)}
    assert len(pictures) == 6
    root = ET.fromstring(render_tile_svg("5", 3).encode())
    assert (root.get("data-tile"), root.get("data-rotation")) == ("5", "3")
    assert [el.get("class") for el in root.iter(f"{SVG}polygon")] == ["hex"]


def test_r_lr_7_tile_picture_highlights_the_phase_revenue_box() -> None:
    tile = next(t for t in tiles().values()
                if any(not isinstance(loc.revenue, int) and "green" in loc.revenue
                       and "grey" in loc.revenue for loc in t.locations))
    green = ET.fromstring(render_tile_svg(tile.id, 0, phase="green").encode())
    grey = ET.fromstring(render_tile_svg(tile.id, 0, phase="grey").encode())

    def current(root: ET.Element) -> list[str | None]:
        return [el.get("fill") for el in root.iter(f"{SVG}rect")
                if el.get("class") == "phase-current"]

    assert current(green) == [PHASE_COLOURS["green"]] * len(current(green))
    assert current(grey) == [PHASE_COLOURS["grey"]] * len(current(grey))
    assert current(green) and current(grey)


def test_tile_picture_refuses_what_does_not_exist() -> None:
    with pytest.raises(KeyError):
        render_tile_svg("999", 0)
    with pytest.raises(ValueError):
        render_tile_svg("57", 6)
    with pytest.raises(ValueError):
        render_tile_svg("57", 0, phase="purple")
