"""Precomputed per-layout and per-tile tables for fast board queries.

* :func:`neighbour_table` ``(layout)``: coord -> 6-tuple of neighbour coords (``None`` off the
  map or across an impassable edge, e.g. between the three inner-city hexes).
* :class:`HexTrack`: the tram track of one hex (a placed tile at a rotation, or the printed
  hex) indexed for walking: ``by_edge[e]`` / ``by_location[l]`` list the tram paths touching that
  edge / location as :class:`Link` (path index, the other end, terminal flag).
  :func:`tile_track` and :func:`printed_track` build them once and cache them.

Only ``tram`` track is indexed: dotted Stadtbahn track (``stadtbahn``, ``stadtbahn_planned``)
never carries trams (IX.7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tramways.g1840.model import HexDef, Layout, LocationDef, PathDef, TileDef

_LAYOUT_TABLES: dict[int, tuple[Layout, Mapping[str, tuple[str | None, ...]], dict]] = {}
"""id(layout) -> (layout, neighbour table, printed tracks); the layout is kept alive so that its
id is never reused while the entry exists."""


def _tables(layout: Layout) -> tuple[Layout, Mapping[str, tuple[str | None, ...]], dict]:
    entry = _LAYOUT_TABLES.get(id(layout))
    if entry is None or entry[0] is not layout:
        built: dict[str, tuple[str | None, ...]] = {}
        for coord, h in layout.hexes.items():
            row: list[str | None] = []
            for edge in range(6):
                nb = h.neighbours.get(edge)
                if nb is not None and edge in h.impassable_edges:
                    nb = None
                if nb is not None and (edge + 3) % 6 in layout.hexes[nb].impassable_edges:
                    nb = None
                row.append(nb)
            built[coord] = tuple(row)
        entry = (layout, MappingProxyType(built), {})
        _LAYOUT_TABLES[id(layout)] = entry
    return entry


def neighbour_table(layout: Layout) -> Mapping[str, tuple[str | None, ...]]:
    """coord -> neighbours by edge 0-5, ``None`` off the map or across an impassable edge."""
    return _tables(layout)[1]


@dataclass(frozen=True, slots=True)
class Link:
    """A tram path seen from one of its ends: ``path`` (index into ``HexTrack.paths``), where
    it leads (``to_edge`` or ``to_location``, exactly one set) and whether it is terminal."""

    path: int
    to_edge: int | None
    to_location: int | None
    terminal: bool


@dataclass(frozen=True, slots=True)
class HexTrack:
    """Tram track of a hex in absolute edges, indexed by edge and by location.

    ``tram_edges``: the edges with tram track; ``slots``: interchange location -> its number of
    marker circles; ``placeholders``: the placeholder locations (untiled inner-city/station);
    ``steps_by_edge`` / ``steps_by_location``: the links of ``by_edge`` / ``by_location`` as
    plain ``(to_edge, to_location, terminal)`` tuples (for the board's walk)."""

    paths: tuple[PathDef, ...]
    by_edge: Mapping[int, tuple[Link, ...]]
    by_location: Mapping[int, tuple[Link, ...]]
    tram_edges: frozenset[int]
    slots: Mapping[int, int]
    placeholders: frozenset[int]
    steps_by_edge: Mapping[int, tuple[tuple[int | None, int | None, bool], ...]]
    steps_by_location: Mapping[int, tuple[tuple[int | None, int | None, bool], ...]]


def _index(paths: tuple[PathDef, ...], locations: tuple[LocationDef, ...]) -> HexTrack:
    by_edge: dict[int, list[Link]] = {}
    by_loc: dict[int, list[Link]] = {}
    for i, p in enumerate(paths):
        if p.track != "tram":
            continue
        for here, there in ((p.a, p.b), (p.b, p.a)):
            link = Link(i, there.edge, there.location, p.terminal)
            if here.edge is not None:
                by_edge.setdefault(here.edge, []).append(link)
            else:
                assert here.location is not None
                by_loc.setdefault(here.location, []).append(link)
    return HexTrack(
        paths,
        MappingProxyType({k: tuple(v) for k, v in by_edge.items()}),
        MappingProxyType({k: tuple(v) for k, v in by_loc.items()}),
        frozenset(by_edge),
        MappingProxyType({loc.id: loc.slots for loc in locations if loc.is_interchange}),
        frozenset(loc.id for loc in locations if loc.kind == "placeholder"),
        MappingProxyType({k: tuple((x.to_edge, x.to_location, x.terminal) for x in v)
                          for k, v in by_edge.items()}),
        MappingProxyType({k: tuple((x.to_edge, x.to_location, x.terminal) for x in v)
                          for k, v in by_loc.items()}),
    )


_TILES: dict[tuple[str, int], HexTrack] = {}


def tile_track(tile: TileDef, rotation: int) -> HexTrack:
    """The indexed tram track of ``tile`` laid at ``rotation`` (cached by tile id)."""
    key = (tile.id, rotation % 6)
    track = _TILES.get(key)
    if track is None:
        track = _index(tile.paths_at(rotation), tile.locations)
        _TILES[key] = track
    return track


def printed_track(layout: Layout, hexdef: HexDef) -> HexTrack:
    """The indexed tram track printed on an empty hex (cached per layout and hex)."""
    printed = _tables(layout)[2]
    track = printed.get(hexdef.coord)
    if track is None:
        track = _index(hexdef.paths, hexdef.locations)
        printed[hexdef.coord] = track
    return track
