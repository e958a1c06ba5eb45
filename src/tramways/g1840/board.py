"""The 1840 board: tiles on the map, station markers, the tile supply and tram connectivity.

``Board(layout, ruleset="rules")`` is the printed map: no tiles, the Stadtbahn companies'
station markers at their start places (IV.1.3), the full tile supply (R-LR-11, or X-7 with
``ruleset="18xx.games"``). It is a plain mutable container: it never checks the rules (that is
the legality module's job), only its own consistency.

Queries:

* ``tile(coord) -> Placed | None``, ``placed()``, ``tile_def(coord)``, ``hex(coord)``.
* ``paths(coord)``: the hex's current track in absolute edges (the laid tile's rotated paths,
  else the printed ones); ``track(coord)``: the same tram track indexed for walking
  (:class:`tramways.g1840.hexgrid.HexTrack`).
* ``locations(coord)`` / ``location(coord, id)``: current revenue locations.
* ``markers(coord)``: location id -> owners (line numbers or Stadtbahn companies "W", "V",
  "G", "D"), in placement order; ``all_markers()``; ``line_markers(owner)``.
* ``free_slots(coord, location)``, ``is_blocked(coord, location, line)`` (IX.2).
* ``neighbour(coord, edge)``: ``None`` off the map or across an impassable edge.
* ``supply``: tiles not on the map, keyed by :func:`tramways.g1840.data.supply_key`;
  ``available(tile_id)``.
* ``reach(line) -> Reach``: where the line's station markers connect to (IX.2, IX.4, IX.6),
  cached; a change keeps the cached reach of every line whose walk never touched that hex; ``walk(starts, line)`` is the same walk from any locations.
* ``to_json()`` / ``Board.from_json(data)``: a JSON snapshot (layout, ruleset, tiles, markers).
* :func:`default_location_map`: old -> new location ids that keep each location's track.

Changes (each increments ``version``): ``lay`` (returns the replaced tile's id, which goes back
to the supply, and carries the station markers over), ``place_marker``, ``remove_marker``;
``markers_version`` changes only with the markers (placed, removed, or moved by a lay),
``stadtbahn_version`` only with what the Stadtbahn tile lays depend on.
``copy()`` is cheap (shallow dict copies; the per-hex marker maps are never mutated in place).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypedDict

from tramways.g1840.data import initial_supply, stadtbahn_parts, supply_key, tiles
from tramways.g1840.hexgrid import HexTrack, neighbour_table, printed_track, tile_track
from tramways.g1840.model import (
    FrozenDict,
    HexDef,
    Layout,
    LocationDef,
    Owner,
    PathDef,
    TileDef,
)
from tramways.g1840.reach import Reach, Reaches, Tables, floor_leaves, floor_reaches, walk

__all__ = ["Board", "BoardJSON", "MarkerAt", "Placed", "Reach", "default_location_map"]

_VERSIONS = itertools.count(1)
"""Board versions are drawn from one counter, so two diverging copies never share a version."""

MarkerAt = tuple[str, int, Owner]
"""A station marker on the board: (hex, location, owner: a line number or a Stadtbahn id)."""


class BoardJSON(TypedDict):
    """The JSON of a :class:`Board` (:meth:`Board.to_json`)."""

    layout: str
    ruleset: str
    tiles: dict[str, list[str | int]]  # hex -> [tile id, rotation]
    markers: list[list[str | int]]  # [hex, location, owner]


_EMPTY: Mapping[int, tuple[Owner, ...]] = FrozenDict()


class Placed(NamedTuple):
    """A tile on the map: its id and rotation (0-5).  A named tuple, so that it hashes and
    compares in C: the tile lay memo keys, route memos and Stadtbahn runs hash the placed
    tiles of every hex they look at (a frozen dataclass hashed through a Python
    ``__hash__``, about four times slower); the hash is the same value as before."""

    tile_id: str
    rotation: int


_PLACED: dict[tuple[str, int], Placed] = {}
"""One ``Placed`` per tile and rotation, shared by every board (a named tuple is an object the
collector tracks; the tile lay memo's keys hold them)."""

_BY_OWNER: dict[int, dict[Owner, tuple[tuple[str, int], ...]]] = {}
_BY_OWNER_LIMIT = 4096
"""Each owner's markers per markers version (:attr:`Board.markers_version`: never reused,
and a copy keeps it only while its markers are equal): :meth:`Board.line_markers`."""


class Board:
    """The mutable 1840 board (see the module docstring)."""

    __slots__ = ("layout", "ruleset", "version", "markers_version", "stadtbahn_version",
                 "_tiles", "_markers", "_supply", "_reaches", "_nb", "_tiledefs", "_trk")

    def __init__(self, layout: Layout, ruleset: str = "rules") -> None:
        self.layout = layout
        self.ruleset = ruleset
        self.version = next(_VERSIONS)
        self.markers_version = self.version
        """Changes with the station markers only (placed, removed, moved by a lay): what
        depends on the markers alone (each owner's list, the removals) is kept by it."""
        self.stadtbahn_version = self.version
        """Changes only with what the Stadtbahn tile lays depend on (IX.4, R-LR-3, R-LR-11): a
        tile laid on a hex of a Stadtbahn line's build order, and the supply of the
        orange-edged tiles (one laid or given back)."""
        self._tiles: dict[str, Placed] = {}
        self._markers: dict[str, Mapping[int, tuple[Owner, ...]]] = {}
        self._supply: dict[str, int] = initial_supply(ruleset)
        self._reaches = Reaches()
        self._nb = neighbour_table(layout)
        self._tiledefs = tiles()
        self._trk: dict[str, HexTrack] = {
            coord: printed_track(layout, h) for coord, h in layout.hexes.items()}
        for company in layout.stadtbahn_companies:
            line = layout.stadtbahn_lines.get(company)
            if line is None:
                continue
            for coord, loc in line.markers_at_start:
                self.place_marker(coord, loc, company)

    # ------------------------------------------------------------------ copying

    def copy(self) -> Board:
        """An independent copy (cheap: shallow dict copies)."""
        other = Board.__new__(Board)
        other.layout = self.layout
        other.ruleset = self.ruleset
        other.version = self.version
        other.markers_version = self.markers_version
        other.stadtbahn_version = self.stadtbahn_version
        other._tiles = dict(self._tiles)
        other._markers = dict(self._markers)
        other._supply = dict(self._supply)
        other._reaches = self._reaches.copy()
        other._nb = self._nb
        other._tiledefs = self._tiledefs
        other._trk = dict(self._trk)
        return other

    def _changed(self, coord: str, owner: Owner | None = None) -> None:
        """A new version after a change on ``coord`` (and of ``owner``'s markers); the reaches
        it may alter are dropped (:meth:`tramways.g1840.reach.Reaches.changed`)."""
        self.version = next(_VERSIONS)
        self._reaches.changed(coord, owner)

    # ------------------------------------------------------------------ hexes and tiles

    def hex(self, coord: str) -> HexDef:
        """The printed hex (``KeyError`` naming the layout if it is not on the map)."""
        return self.layout.hex(coord)

    def tile(self, coord: str) -> Placed | None:
        """The tile laid on ``coord``, or ``None`` for a hex as printed."""
        return self._tiles.get(coord)

    def placed(self) -> Mapping[str, Placed]:
        """Every laid tile by hex (a read-only view)."""
        return MappingProxyType(self._tiles)

    def tile_def(self, coord: str) -> TileDef | None:
        """The definition of the tile laid on ``coord`` (``None`` if none)."""
        placed = self._tiles.get(coord)
        return None if placed is None else self._tiledefs[placed.tile_id]

    def paths(self, coord: str) -> tuple[PathDef, ...]:
        """Current track of the hex in absolute edges: the laid tile's, else the printed one."""
        placed = self._tiles.get(coord)
        if placed is None:
            return self.layout.hex(coord).paths
        return self._tiledefs[placed.tile_id].paths_at(placed.rotation)

    def track(self, coord: str) -> HexTrack:
        """Current tram track of the hex, indexed by edge and location (for walks)."""
        found = self._trk.get(coord)
        if found is None:
            self.layout.hex(coord)  # KeyError naming the layout
            raise KeyError(coord)
        return found

    def locations(self, coord: str) -> tuple[LocationDef, ...]:
        """Current revenue locations of the hex (the laid tile's, else the printed ones)."""
        placed = self._tiles.get(coord)
        if placed is None:
            return self.layout.hex(coord).locations
        return self._tiledefs[placed.tile_id].locations

    def location(self, coord: str, location: int) -> LocationDef:
        for loc in self.locations(coord):
            if loc.id == location:
                return loc
        raise KeyError(f"{coord} has no location {location}")

    def neighbour(self, coord: str, edge: int) -> str | None:
        """The hex across ``edge``; ``None`` off the map or across an impassable edge."""
        return self._nb[coord][edge]

    # ------------------------------------------------------------------ supply

    @property
    def supply(self) -> Mapping[str, int]:
        """Tiles not on the map, by supply key (chart id with the rules, R-LR-11)."""
        return MappingProxyType(self._supply)

    def available(self, tile_id: str) -> int:
        """How many of ``tile_id`` can still be laid (``L30a`` and ``L30b`` share one L30)."""
        return self._supply.get(supply_key(tile_id, self.ruleset), 0)

    # ------------------------------------------------------------------ changes

    def lay(
        self,
        coord: str,
        tile_id: str,
        rotation: int,
        location_map: Mapping[int, int] | None = None,
        *,
        keeps_track: bool = False,
    ) -> str | None:
        """Put ``tile_id`` on ``coord`` at ``rotation`` without any rules check.

        Takes the tile from the supply and returns the replaced tile's id (or ``None``), which
        goes back to the supply (IX.5 "replaced tiles are available for re-use"). Station markers
        move to the new tile (IX.4, IX.5): old location id -> ``location_map[old]`` (identity by
        default). ``ValueError`` if the tile is not in the supply or a marker has nowhere to go.

        ``keeps_track``: the caller vouches that the tile keeps every old path and revenue
        location along ``location_map`` (a legal lay, IX.4/IX.5: what
        :meth:`tramways.g1840.legality.TileLay.apply` says); the cached reaches that touched
        the hex are then carried over the lay (:func:`tramways.g1840.reach.relaid`) instead of
        being walked again from scratch on the next question.
        """
        if coord not in self.layout.hexes:
            raise KeyError(f"{coord} is not on the {self.layout.name} map")
        tile = self._tiledefs[tile_id]
        key = supply_key(tile_id, self.ruleset)
        if self._supply.get(key, 0) <= 0:
            raise ValueError(f"no tile {tile_id} left in the supply")
        old_markers = self._markers.get(coord)
        moved: dict[int, tuple[Owner, ...]] = {}
        if old_markers:
            slots = {loc.id: loc.slots for loc in tile.locations if loc.is_interchange}
            for old, owners in old_markers.items():
                new = location_map.get(old, old) if location_map is not None else old
                if new not in slots:
                    raise ValueError(
                        f"markers on {coord} location {old} have no place on tile {tile_id}"
                    )
                moved[new] = moved.get(new, ()) + owners
            for new, owners in moved.items():
                if len(owners) > slots[new]:
                    raise ValueError(f"tile {tile_id} location {new} cannot hold {owners}")
        previous = self._tiles.get(coord)
        self._supply[key] -= 1
        if previous is not None:
            back = supply_key(previous.tile_id, self.ruleset)
            self._supply[back] = self._supply.get(back, 0) + 1
        turned = (tile_id, rotation % 6)
        placed = _PLACED.get(turned)
        if placed is None:
            placed = _PLACED[turned] = Placed(*turned)
        self._tiles[coord] = placed
        self._trk[coord] = tile_track(tile, rotation)
        if old_markers:
            self._markers[coord] = FrozenDict(moved)
            self.markers_version = next(_VERSIONS)
        if keeps_track:
            self._carry(coord, location_map)
        else:
            self._changed(coord)
        stadtbahn_hexes, stadtbahn_supply = stadtbahn_parts(self.layout, self.ruleset)
        if (coord in stadtbahn_hexes or key in stadtbahn_supply
                or (previous is not None and back in stadtbahn_supply)):
            self.stadtbahn_version = self.version
        return None if previous is None else previous.tile_id

    def _carry(self, coord: str, location_map: Mapping[int, int] | None) -> None:
        """A new version after a legal lay on ``coord``: the cached reaches that touched it
        wait to be carried over it (:meth:`tramways.g1840.reach.Reaches.carried`)."""
        self.version = next(_VERSIONS)
        self._reaches.carried(coord, location_map)

    def place_marker(self, coord: str, location: int, owner: Owner) -> None:
        """Put ``owner``'s station marker on an interchange circle (no rules check beyond a
        free slot: ``ValueError`` on a halt, a full interchange or a missing location)."""
        loc = self.location(coord, location)
        if not loc.is_interchange:
            raise ValueError(f"{coord} location {location} is not an interchange")
        current = self._markers.get(coord, _EMPTY)
        owners = current.get(location, ())
        if len(owners) >= loc.slots:
            raise ValueError(f"{coord} location {location} has no free slot")
        updated = dict(current)
        updated[location] = now = owners + (owner,)
        self._markers[coord] = FrozenDict(updated)
        self.version = next(_VERSIONS)  # the reaches it may alter: Reaches.placed
        self.markers_version = self.version
        self._reaches.placed(coord, location, owner, now if len(now) >= loc.slots else ())

    def remove_marker(self, coord: str, location: int, owner: Owner) -> None:
        """Take ``owner``'s marker off (e.g. a Stadtbahn marker, R-LR-5)."""
        current = self._markers.get(coord, _EMPTY)
        owners = current.get(location, ())
        if owner not in owners:
            raise ValueError(f"no marker of {owner!r} on {coord} location {location}")
        rest = list(owners)
        rest.remove(owner)
        updated = dict(current)
        if rest:
            updated[location] = tuple(rest)
        else:
            del updated[location]
        if updated:
            self._markers[coord] = FrozenDict(updated)
        else:
            del self._markers[coord]
        self._changed(coord, owner)
        self.markers_version = self.version

    # ------------------------------------------------------------------ markers

    def markers(self, coord: str) -> Mapping[int, tuple[Owner, ...]]:
        """Location id -> station markers there (placement order)."""
        return self._markers.get(coord, _EMPTY)

    def all_markers(self) -> Mapping[str, Mapping[int, tuple[Owner, ...]]]:
        """Every hex with markers -> its location map (a read-only view)."""
        return MappingProxyType(self._markers)

    def line_markers(self, line: Owner) -> list[tuple[str, int]]:
        """Every ``(coord, location)`` holding a marker of ``line`` (a line or a company), in
        placement order of the hexes (every owner's list is made in one pass per markers
        version)."""
        by_owner = _BY_OWNER.get(self.markers_version)
        if by_owner is None:
            lists: dict[Owner, list[tuple[str, int]]] = {}
            for coord, by_loc in self._markers.items():
                for loc, owners in by_loc.items():
                    for owner in dict.fromkeys(owners):
                        lists.setdefault(owner, []).append((coord, loc))
            by_owner = {owner: tuple(places) for owner, places in lists.items()}
            if len(_BY_OWNER) >= _BY_OWNER_LIMIT:
                _BY_OWNER.clear()
            _BY_OWNER[self.markers_version] = by_owner
        return list(by_owner.get(line, ()))

    def free_slots(self, coord: str, location: int) -> int:
        """Unoccupied circles of an interchange (0 for a halt)."""
        loc = self.location(coord, location)
        if not loc.is_interchange:
            return 0
        return loc.slots - len(self._markers.get(coord, _EMPTY).get(location, ()))

    def is_blocked(self, coord: str, location: int, line: Owner) -> bool:
        """True if ``line`` may not pass through this location: an interchange with no free
        circle and no marker of ``line`` (IX.2). Halts never block."""
        loc = self.location(coord, location)
        if not loc.is_interchange:
            return False
        owners = self._markers.get(coord, _EMPTY).get(location, ())
        return len(owners) >= loc.slots and line not in owners

    # ------------------------------------------------------------------ connectivity

    def reach(self, line: Owner) -> Reach:
        """Where ``line``'s station markers connect to over tram track (IX.2; the walk:
        :mod:`tramways.g1840.reach`), cached (see :meth:`_changed`; a lay that keeps the old
        track carries the cached reaches over it, :meth:`lay`, and a line's own marker adds a
        start to its reach: :class:`tramways.g1840.reach.Reaches`)."""
        return self._reaches.get(self._walk_tables(), line, lambda: self.line_markers(line))

    def reach_floor(self, line: Owner) -> tuple[Reach, frozenset[str]] | None:
        """A reach that :meth:`reach` ``(line)`` contains, known without walking
        (:meth:`tramways.g1840.reach.Reaches.floor`)."""
        return self._reaches.floor(line)

    def reaches_location(self, line: Owner, coord: str, location: int) -> bool:
        """Whether ``(coord, location)`` is among :meth:`reach` ``(line)``'s locations (IX.6),
        without walking where :meth:`surely_reaches` knows it."""
        return (self.surely_reaches(line, coord, location)
                or self.reach(line).has_location(coord, location))

    def surely_reaches(self, line: Owner, coord: str, location: int) -> bool:
        """True if :meth:`reach_floor` shows, without walking, that ``line`` reaches
        ``(coord, location)`` (:func:`tramways.g1840.reach.floor_reaches`); False: walk and
        see."""
        floor = self.reach_floor(line)
        return floor is not None and floor_reaches(self._walk_tables(), *floor, coord, location)

    def surely_leaves(self, line: Owner, coord: str, edge: int) -> bool:
        """True if :meth:`reach_floor` shows, without walking, that ``line``'s walk leaves
        ``coord`` by ``edge`` (:func:`tramways.g1840.reach.floor_leaves`); False: walk and
        see."""
        floor = self.reach_floor(line)
        return floor is not None and floor_leaves(self._walk_tables(), *floor, coord, edge, line)

    def walk(self, starts: Iterable[tuple[str, int]], line: Owner) -> Reach:
        """The walk of :meth:`reach` from arbitrary start locations (not cached)."""
        return walk(self._walk_tables(), list(starts), line)

    def _walk_tables(self) -> Tables:
        return self._nb, self._trk, self._markers

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> BoardJSON:
        """The board as JSON: layout, ruleset, tiles ``{coord: [tile, rotation]}`` and markers
        ``[[coord, location, owner], ...]`` in placement order (the supply follows from them)."""
        return {
            "layout": self.layout.name,
            "ruleset": self.ruleset,
            "tiles": {c: [p.tile_id, p.rotation] for c, p in sorted(self._tiles.items())},
            "markers": [
                [coord, loc, owner]
                for coord, by_loc in sorted(self._markers.items())
                for loc, owners in sorted(by_loc.items())
                for owner in owners
            ],
        }

    @classmethod
    def of(cls, layout: str, ruleset: str, tiles: Mapping[str, tuple[str, int]],
           markers: Iterable[MarkerAt]) -> Board:
        """A board of ``layout`` with ``tiles`` laid (hex -> (tile id, rotation)) and then the
        station ``markers`` placed (``ValueError`` / ``KeyError`` if inconsistent): the board a
        public position shows (:func:`tramways.g1840.analysis.board_from_view`)."""
        from tramways.g1840.data import load_layout

        board = cls(load_layout(layout), ruleset)
        for coord, by_loc in list(board._markers.items()):
            for loc, owners in list(by_loc.items()):
                for owner in owners:
                    board.remove_marker(coord, loc, owner)
        for coord, (tile_id, rotation) in tiles.items():
            board.lay(coord, tile_id, int(rotation))
        for coord, loc, owner in markers:
            board.place_marker(coord, int(loc), owner)
        return board

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Board:
        """The board :meth:`to_json` wrote (``ValueError`` / ``KeyError`` if inconsistent)."""
        return cls.of(data["layout"], data.get("ruleset", "rules"),
                      {c: (t[0], int(t[1])) for c, t in data.get("tiles", {}).items()},
                      [(c, int(loc), owner) for c, loc, owner in data.get("markers", ())])

    # ------------------------------------------------------------------ misc

    def __repr__(self) -> str:
        return (
            f"Board({self.layout.name!r}, tiles={len(self._tiles)}, "
            f"markers={sum(len(o) for m in self._markers.values() for o in m.values())}, "
            f"version={self.version})"
        )


def default_location_map(board: Board, coord: str, tile_id: str, rotation: int) -> dict[int, int]:
    """Old location id -> new for replacing the hex's current track by ``tile_id`` at
    ``rotation``: each old location goes to the new location whose track covers all of the
    old one's edges and is of the same kind (IX.4/IX.5 "same orientation"), preferring distinct
    targets and the same id; two circles may merge into one (OO -> L17). Locations that match
    nothing are left out (a caller that needs them must decide)."""
    new_tile = tiles()[tile_id]
    new_paths = new_tile.paths_at(rotation)
    new_edges: dict[int, set[int]] = {loc.id: set() for loc in new_tile.locations}
    for p in new_paths:
        for loc_id in p.locations:
            new_edges[loc_id].update(p.edges)
    old_edges: dict[int, set[int]] = {loc.id: set() for loc in board.locations(coord)}
    for p in board.paths(coord):
        for loc_id in p.locations:
            old_edges[loc_id].update(p.edges)
    result: dict[int, int] = {}
    used: set[int] = set()
    olds = [loc for loc in board.locations(coord) if loc.kind != "placeholder"]
    olds.sort(key=lambda loc: -len(old_edges[loc.id]))
    for old in olds:
        candidates = [
            new.id
            for new in new_tile.locations
            if new.kind == old.kind and old_edges[old.id] <= new_edges[new.id]
        ]
        if not candidates:
            continue
        fresh = [c for c in candidates if c not in used] or candidates  # OO -> L17 merges
        choice = old.id if old.id in fresh else fresh[0]
        result[old.id] = choice
        used.add(choice)
    return result
