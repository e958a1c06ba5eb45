"""Colours of the drawing, as data.

Tile colours follow the usual 18xx conventions; terrain colours follow the printed board
(``reference/1840/map.json`` legend: light-orange Stadtbahn hexes with an orange edge,
light-red inner city with a red edge, purple railway stations, red off-board areas).  The 18
line colours are chosen to be distinct and readable both as marker discs and as route lines;
the Stadtbahn colours are those of the companies (entities.json, ``colour_hex_18xx_games``).
"""

from __future__ import annotations

TILE_COLOURS: dict[str, str] = {
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "grey": "#bcbdc0",
    "red": "#e8685f",
    "purple": "#a77bc6",
}
"""Fill of a laid tile, by tile colour."""

PHASE_COLOURS: dict[str, str] = {
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "grey": "#bcbdc0",
}
"""Boxes of phase-dependent revenue (R-LR-7), by phase."""

TERRAIN: dict[str, str] = {
    "plain": "#ffffff",
    "interchange": "#ffffff",
    "interchange_OO": "#ffffff",
    "danube": "#ffffff",
    "stadtbahn": "#fcdcb0",
    "inner_city": "#f6c3bd",
    "railway_station": "#b98fd6",
    "offboard_red": "#e0312b",
    "offboard_red_connector": "#e0312b",
    "fixed": "#f7efc4",
}
"""Fill of an empty printed hex, by ``HexDef.area``."""

FIXED_BY_PRINTED: tuple[tuple[str, str], ...] = (
    ("green park", "#a9d69a"),
    ("light yellow", "#f7efc4"),
    ("grey", "#c3c4c7"),
    ("unknown", "#e4e1d6"),
)
"""Fixed hexes: the prefix of ``HexDef.printed_colour`` picks the fill (first match)."""

EDGE_COLOURS: dict[str, str] = {
    "stadtbahn": "#f08a24",
    "inner_city": "#c62828",
    "orange_edged": "#f08a24",
}
"""Coloured inner borders: Stadtbahn hexes and orange-edged tiles, the inner city."""

BORDER = "#6b6b6b"
IMPASSABLE = "#8b0000"
BACKGROUND = "#f4f1e8"
TRACK = "#1a1a1a"
TRACK_CASING = "#ffffff"
DANUBE = "#4a90d9"
STADTBAHN_DARK = "#7a4a2a"
STADTBAHN_LIGHT = "#ffffff"
STADTBAHN_PLANNED = "#c8a27a"
TEXT = "#1a1a1a"
TEXT_ON_RED = "#ffffff"

LINE_COLOURS: dict[int, str] = {
    1: "#e41a1c",
    2: "#377eb8",
    3: "#4daf4a",
    4: "#984ea3",
    5: "#ff7f00",
    6: "#1b9e9e",
    7: "#e7298a",
    8: "#a65628",
    9: "#1f2f7a",
    10: "#808000",
    11: "#800026",
    12: "#1b5e20",
    13: "#56b4e9",
    14: "#d4a017",
    15: "#b15cff",
    16: "#5f6b7a",
    17: "#8bc34a",
    18: "#222222",
}
"""Marker and route colour of each of the 18 lines."""

STADTBAHN_COLOURS: dict[str, str] = {
    "W": "#a15e48",
    "V": "#dab06e",
    "G": "#f58220",
    "D": "#ffcb1c",
}
"""Marker colour of each Stadtbahn company."""


def owner_colour(owner: int | str) -> str:
    """Fill of a station marker of ``owner`` (a line number or a Stadtbahn company)."""
    if isinstance(owner, int):
        return LINE_COLOURS.get(owner, "#777777")
    return STADTBAHN_COLOURS.get(owner, "#777777")


def text_colour_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb``)."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue
    return "#000000" if luminance > 150 else "#ffffff"


def fixed_fill(printed_colour: str) -> str:
    """Fill of a fixed (preprinted) hex from its printed-colour description."""
    text = printed_colour.lower().strip()
    for prefix, colour in FIXED_BY_PRINTED:
        if text.startswith(prefix):
            return colour
    return TERRAIN["fixed"]
