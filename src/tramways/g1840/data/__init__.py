"""1840 map and tile data: loading and validating the project's JSON files.

Public API:

* :func:`load_layout` ``(name)`` -> :class:`~tramways.g1840.model.Layout` for ``"full"``,
  ``"small3"`` (XII) or ``"two_player"`` (XIII); cached.
* :func:`layout_for` ``(players, small_map)``: 2 players -> two_player; 3 with the small map ->
  small3; otherwise full (R-SETUP-3).
* :func:`tiles` -> every :class:`~tramways.g1840.model.TileDef` by id (``"3"``, ``"L30a"``, ...).
* :func:`tile_chart` -> the rules' Track Tile Chart quantities by chart id (R-LR-11).
* :func:`colour_availability` -> colour -> first Line Round it may be laid in.
* :func:`initial_supply` ``(ruleset="rules")`` -> the tile supply before any lay. With the rules
  (R-LR-11) it is keyed by chart id: one ``L30`` usable as ``L30a`` or ``L30b``, one ``L31``,
  two ``L16``. With ``ruleset="18xx.games"`` (X-7) it is keyed by tile id: ``L30a``, ``L30b``,
  ``L31a``, ``L31b`` once each and ``L16`` once. :func:`supply_key` maps a tile id to its key.

File format (written once by ``tools/transcribe_1840_reference.py`` from
``reference/1840``; facts only):

* ``tiles.json``: ``chart`` (rules quantities), ``colour_availability`` and ``tiles``: id -> ``{colour, orange?,
  chart?, label?, fixed_rotation?, only_on_hex?, qty_18xx, locs, paths, upgrades}``.
* ``map_<layout>.json``: layout facts (lines, privates, Stadtbahn lines with ``"HEX.LOC"``
  places, home bases, landmarks, areas) and ``hexes``: coord -> ``{area, name?, colour,
  colour_guess?, lay {allowed, cost, first?, red_rotations?}, locs?, paths?, nb, tram_exits?,
  sb_exits?, impassable?, same_area?, home?, label?, landmark?, stadtbahn?, sb_markers?, ...}``.
* A location is ``[id, kind, revenue, slots, tracks]``; revenue is an int or a phase dict.
* A path is a string ``"END END TRACK [terminal] [xLANES]"``; an END is ``eN`` (edge N),
  ``eN:I/K`` (lane I of K at edge N) or ``lN`` (location N).

Loading validates everything (edges, location references, neighbour symmetry and geometry,
tile ids, home bases, Stadtbahn lines) and raises :class:`DataError` naming the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.g1840.model import (
    LOCATION_KINDS,
    PHASES,
    TRACKS,
    Area,
    End,
    FrozenDict,
    HexDef,
    Layout,
    LocationDef,
    PathDef,
    StadtbahnHex,
    StadtbahnLine,
    TileDef,
    opposite,
)

LAYOUTS = ("full", "small3", "two_player")
RULESETS = ("rules", "18xx.games")
EDGE_OFFSETS = {0: (1, -1), 1: (0, -2), 2: (-1, -1), 3: (-1, 1), 4: (0, 2), 5: (1, 1)}
"""Edge -> (row offset, column offset) of the neighbour (README: double-width coordinates)."""


class DataError(TramwaysError):
    """The packaged 1840 data is inconsistent (a bug in the data files)."""


def _read(name: str) -> Any:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


# ---------------------------------------------------------------- parsing helpers


def _end(text: str, where: str) -> End:
    try:
        if text.startswith("e"):
            if ":" in text:
                edge, lane = text[1:].split(":")
                index, of = lane.split("/")
                return End(edge=int(edge), lane=(int(of), int(index)))
            return End(edge=int(text[1:]))
        if text.startswith("l"):
            return End(location=int(text[1:]))
    except ValueError as exc:
        raise DataError(f"{where}: bad path end {text!r} ({exc})") from None
    raise DataError(f"{where}: bad path end {text!r}")


def _path(text: str, where: str) -> PathDef:
    words = text.split()
    if len(words) < 3 or words[2] not in TRACKS:
        raise DataError(f"{where}: bad path {text!r}")
    terminal = False
    lanes = 1
    for word in words[3:]:
        if word == "terminal":
            terminal = True
        elif word.startswith("x") and word[1:].isdigit():
            lanes = int(word[1:])
        else:
            raise DataError(f"{where}: bad path flag {word!r} in {text!r}")
    return PathDef(_end(words[0], where), _end(words[1], where), words[2], terminal, lanes)


def _revenue(value: Any, where: str) -> int | Mapping[str, int]:
    if isinstance(value, int):
        return value
    if isinstance(value, dict) and value and set(value) <= set(PHASES):
        if not all(isinstance(v, int) for v in value.values()):
            raise DataError(f"{where}: revenue values must be ints: {value}")
        return FrozenDict(dict(value))
    raise DataError(f"{where}: bad revenue {value!r}")


def _location(item: Any, where: str) -> LocationDef:
    try:
        ident, kind, revenue, slots, tracks = item
    except (TypeError, ValueError):
        raise DataError(f"{where}: bad location {item!r}") from None
    if kind not in LOCATION_KINDS:
        raise DataError(f"{where}: bad location kind {kind!r}")
    if not set(tracks) <= set(TRACKS):
        raise DataError(f"{where}: bad location tracks {tracks!r}")
    if kind == "interchange" and slots < 1:
        raise DataError(f"{where}: interchange {ident} without slots")
    return LocationDef(int(ident), kind, _revenue(revenue, where), int(slots), tuple(tracks))


def _check_paths(
    paths: tuple[PathDef, ...], locations: tuple[LocationDef, ...], where: str
) -> None:
    ids = {loc.id for loc in locations}
    if len(ids) != len(locations):
        raise DataError(f"{where}: duplicate location ids")
    for p in paths:
        for end in (p.a, p.b):
            if end.location is not None and end.location not in ids:
                raise DataError(f"{where}: path {p} points to missing location {end.location}")


# ---------------------------------------------------------------- tiles


@cache
def _tiles_file() -> dict[str, Any]:
    data = _read("tiles.json")
    if not isinstance(data, dict) or "tiles" not in data or "chart" not in data:
        raise DataError("tiles.json: expected {chart, tiles}")
    return data


@cache
def _tiles() -> Mapping[str, TileDef]:
    raw = _tiles_file()["tiles"]
    out: dict[str, TileDef] = {}
    for tid, t in raw.items():
        where = f"tiles.json {tid}"
        locations = tuple(_location(item, where) for item in t["locs"])
        paths = tuple(_path(p, where) for p in t["paths"])
        _check_paths(paths, locations, where)
        out[tid] = TileDef(
            id=tid,
            colour=t["colour"],
            orange_edged=bool(t.get("orange", False)),
            chart_id=t.get("chart", tid),
            locations=locations,
            paths=paths,
            label=t.get("label"),
            fixed_rotation=t.get("fixed_rotation"),
            only_on_hex=t.get("only_on_hex"),
            upgrades=tuple(t.get("upgrades", ())),
            tram_exits=tuple(sorted({e for p in paths if p.track == "tram" for e in p.edges})),
            stadtbahn_exits=tuple(
                sorted({e for p in paths if p.track == "stadtbahn" for e in p.edges})
            ),
        )
    for tile in out.values():
        for up in tile.upgrades:
            if up not in out:
                raise DataError(f"tiles.json {tile.id}: unknown upgrade tile {up!r}")
    chart = _tiles_file()["chart"]
    chart_ids = {tile.chart_id for tile in out.values()}
    if chart_ids != set(chart):
        raise DataError(f"tiles.json: chart ids differ from tiles: {chart_ids ^ set(chart)}")
    return FrozenDict(out)


def tiles() -> Mapping[str, TileDef]:
    """Every tile by id."""
    return _tiles()


def tile_chart() -> Mapping[str, int]:
    """The rules' Track Tile Chart: quantity per chart id (``"L30": 1``, ``"L16": 2``)."""
    _tiles()
    return FrozenDict(dict(_tiles_file()["chart"]))


def colour_availability() -> Mapping[str, str]:
    """The first Line Round in which each tile colour may be laid (IX.4, IX.5): yellow LR1a,
    green LR2a, brown LR4a, grey LR5a; red and purple from the start but only by a Stadtbahn
    bonus action, orange-edged yellow only as the Stadtbahn lay (R-LR-1, R-LR-3)."""
    return FrozenDict(_tiles_file()["colour_availability"])


def supply_key(tile_id: str, ruleset: str = "rules") -> str:
    """The supply entry a tile is taken from: its chart id with the rules (``L30a`` -> ``L30``,
    R-LR-11), its own id with the 18xx.games ruleset (X-7)."""
    if ruleset == "rules":
        return _tiles()[tile_id].chart_id
    if ruleset == "18xx.games":
        if tile_id not in _tiles():
            raise KeyError(tile_id)
        return tile_id
    raise ValueError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")


def initial_supply(ruleset: str = "rules") -> dict[str, int]:
    """All tiles before any is laid: the rules' chart (R-LR-11) or 18xx.games' list (X-7)."""
    if ruleset == "rules":
        return dict(_tiles_file()["chart"])
    if ruleset == "18xx.games":
        raw = _tiles_file()["tiles"]
        return {tid: int(t["qty_18xx"]) for tid, t in raw.items()}
    raise ValueError(f"unknown ruleset {ruleset!r} (known: {', '.join(RULESETS)})")


# ---------------------------------------------------------------- layouts


_STADTBAHN_PARTS: dict[tuple[int, str], tuple[Layout, frozenset[str], frozenset[str]]] = {}


def stadtbahn_parts(layout: Layout, ruleset: str) -> tuple[frozenset[str], frozenset[str]]:
    """What ``Board.stadtbahn_version`` follows on ``layout``: the hexes of every Stadtbahn
    line's build order (and the light-orange hexes) and the supply keys of the orange-edged
    tiles (IX.4, R-LR-11)."""
    found = _STADTBAHN_PARTS.get((id(layout), ruleset))
    if found is None or found[0] is not layout:
        hexes = {c for line in layout.stadtbahn_lines.values() for c in line.buildable}
        hexes |= {c for c, h in layout.hexes.items() if h.stadtbahn is not None}
        orange = {supply_key(t.id, ruleset) for t in _tiles().values() if t.orange_edged}
        found = (layout, frozenset(hexes), frozenset(orange))
        _STADTBAHN_PARTS[(id(layout), ruleset)] = found
    return found[1], found[2]


def _place(text: str, where: str) -> tuple[str, int]:
    coord, _, loc = text.partition(".")
    if not loc.isdigit():
        raise DataError(f"{where}: bad place {text!r}")
    return coord, int(loc)


def _hex(coord: str, h: dict[str, Any], layout: str) -> HexDef:
    where = f"map_{layout}.json {coord}"
    locations = tuple(_location(item, where) for item in h.get("locs", ()))
    paths = tuple(_path(p, where) for p in h.get("paths", ()))
    _check_paths(paths, locations, where)
    neighbours = {int(k): v for k, v in h["nb"].items()}
    for edge in neighbours:
        if edge not in range(6):
            raise DataError(f"{where}: bad neighbour edge {edge}")
    lay = h["lay"]
    stadtbahn = None
    if "stadtbahn" in h:
        s = h["stadtbahn"]
        stadtbahn = StadtbahnHex(
            company=s["company"],
            sequence_index=int(s["index"]),
            required_exits=tuple(s["exits"]),
            bonus_action=s["bonus"],
            yellow_tile_options=FrozenDict(
                {t: tuple(rs) for t, rs in s["options"].items()}
            ),
            has_interchange=bool(s["interchange"]),
        )
    markers = tuple((str(c), int(loc)) for c, loc in h.get("sb_markers", ()))
    for _, loc in markers:
        if loc not in {x.id for x in locations}:
            raise DataError(f"{where}: Stadtbahn marker on missing location {loc}")
    return HexDef(
        coord=coord,
        name=h.get("name"),
        area=h["area"],
        locations=locations,
        paths=paths,
        neighbours=FrozenDict(neighbours),
        laying_allowed=bool(lay["allowed"]),
        lay_cost=int(lay.get("cost", 0)),
        label=h.get("label"),
        impassable_edges=tuple(h.get("impassable", ())),
        home_of=tuple(h.get("home", ())),
        landmark=h.get("landmark"),
        landmark_bonus=int(h.get("landmark_bonus", 0)),
        stadtbahn=stadtbahn,
        stadtbahn_markers=markers,
        engine_colour=h.get("engine_colour", "white"),
        printed_colour=h.get("colour", ""),
        printed_colour_is_guess=bool(h.get("colour_guess", False)),
        tram_exits=tuple(h.get("tram_exits", ())),
        stadtbahn_exits=tuple(h.get("sb_exits", ())),
        same_area_as=tuple(h.get("same_area", ())),
        first_tiles=tuple(lay.get("first", ())),
        red_tile_rotations=FrozenDict(
            {t: tuple(rs) for t, rs in lay.get("red_rotations", {}).items()}
        ),
        on_stadtbahn_routes=tuple(h.get("sb_routes", ())),
        notes=h.get("notes", ""),
    )


def _neighbour_coord(coord: str, edge: int) -> str:
    dr, dc = EDGE_OFFSETS[edge]
    return f"{chr(ord(coord[0]) + dr)}{int(coord[1:]) + dc}"


def _validate_layout(layout: Layout) -> None:
    """Check a layout's cross references (raising :class:`DataError` at the first fault): the
    hexes' neighbours and tiles, the home bases, the landmarks, the Stadtbahn lines."""
    known_tiles = _tiles()
    for coord, h in layout.hexes.items():
        where = f"map_{layout.name}.json {coord}"
        _validate_neighbours(layout, coord, h, where)
        _validate_hex_tiles(h, known_tiles, where)
    _validate_places(layout)
    for company, line in layout.stadtbahn_lines.items():
        _validate_stadtbahn_line(layout, company, line)


def _validate_neighbours(layout: Layout, coord: str, h: HexDef, where: str) -> None:
    for edge, nb in h.neighbours.items():
        if nb not in layout.hexes:
            raise DataError(f"{where}: neighbour {nb} is not on the map")
        if _neighbour_coord(coord, edge) != nb:
            raise DataError(f"{where}: edge {edge} neighbour {nb} contradicts the grid")
        if layout.hexes[nb].neighbours.get(opposite(edge)) != coord:
            raise DataError(f"{where}: neighbour {nb} is not symmetric")


def _validate_hex_tiles(h: HexDef, known_tiles: Mapping[str, TileDef], where: str) -> None:
    for tid in h.first_tiles:
        if tid not in known_tiles:
            raise DataError(f"{where}: unknown tile {tid!r}")
    if h.stadtbahn is not None:
        for tid in h.stadtbahn.yellow_tile_options:
            if tid not in known_tiles:
                raise DataError(f"{where}: unknown Stadtbahn tile {tid!r}")
    for tid in h.red_tile_rotations:
        if tid not in known_tiles:
            raise DataError(f"{where}: unknown red tile {tid!r}")


def _validate_places(layout: Layout) -> None:
    name = layout.name
    for line_no, coord in layout.home_bases.items():
        if coord not in layout.hexes:
            raise DataError(f"map_{name}.json: home base of line {line_no} ({coord}) missing")
        if line_no not in layout.hexes[coord].home_of:
            raise DataError(f"map_{name}.json: {coord} does not list line {line_no} as home")
    for coord in layout.landmarks:
        if coord not in layout.hexes:
            raise DataError(f"map_{name}.json: landmark hex {coord} missing")


def _validate_stadtbahn_line(layout: Layout, company: str, line: StadtbahnLine) -> None:
    name = layout.name
    for coord in (*line.route, *line.buildable):
        if coord not in layout.hexes:
            raise DataError(f"map_{name}.json: Stadtbahn {company} hex {coord} missing")
    for index, coord in enumerate(line.buildable):
        sb = layout.hexes[coord].stadtbahn
        if sb is None or sb.company != company or sb.sequence_index != index:
            raise DataError(f"map_{name}.json: {coord} is not {company}'s hex {index}")
    for coord, loc in (*line.termini, *line.markers_at_start):
        layout.hexes[coord].location(loc)


@cache
def load_layout(name: str) -> Layout:
    """The layout ``"full"``, ``"small3"`` or ``"two_player"`` (validated, cached)."""
    if name not in LAYOUTS:
        raise ValueError(f"unknown layout {name!r} (known: {', '.join(LAYOUTS)})")
    raw = _read(f"map_{name}.json")
    hexes = {coord: _hex(coord, h, name) for coord, h in raw["hexes"].items()}
    lines = {}
    for company, s in raw["stadtbahn_lines"].items():
        where = f"map_{name}.json Stadtbahn {company}"
        lines[company] = StadtbahnLine(
            company=company,
            termini=tuple(_place(t, where) for t in s["termini"]),
            route=tuple(s["route"]),
            buildable=tuple(s["buildable"]),
            markers_at_start=tuple(_place(t, where) for t in s["markers"]),
            revenue_before_any_tile=int(s["revenue_before_any_tile"]),
        )
    layout = Layout(
        name=name,
        hexes=FrozenDict(hexes),
        home_bases=FrozenDict({int(k): v for k, v in raw["home_bases"].items()}),
        landmarks=FrozenDict(dict(raw["landmarks"])),
        lines_in_game=tuple(raw["lines_in_game"]),
        stadtbahn_companies=tuple(raw["stadtbahn_companies"]),
        privates_in_game=tuple(raw["privates_in_game"]),
        stadtbahn_lines=FrozenDict(lines),
        description=raw.get("description", ""),
        player_counts=tuple(raw.get("player_counts", ())),
        lines_removed=tuple(raw.get("lines_removed", ())),
        stadtbahn_removed=tuple(raw.get("stadtbahn_removed", ())),
        privates_removed=tuple(raw.get("privates_removed", ())),
        areas=tuple(Area(a["name"], tuple(a["hexes"])) for a in raw.get("areas", ())),
    )
    _validate_layout(layout)
    return layout


def layout_for(players: int, small_map: bool = False) -> Layout:
    """The map for a player count (R-SETUP-3): 2 -> two_player, 3 + small map -> small3."""
    if players == 2:
        return load_layout("two_player")
    if players == 3 and small_map:
        return load_layout("small3")
    return load_layout("full")


__all__ = [
    "DataError",
    "LAYOUTS",
    "RULESETS",
    "colour_availability",
    "initial_supply",
    "layout_for",
    "load_layout",
    "supply_key",
    "tile_chart",
    "tiles",
]
