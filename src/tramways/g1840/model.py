"""The 1840 map and tile model: immutable facts (frozen dataclasses with slots).

Coordinates and edges follow ``reference/1840/README.md``: pointy-top hexes named like ``F24``
(row letter, column number), edges numbered clockwise from the lower-left one::

    0 lower-left, 1 left, 2 upper-left, 3 upper-right, 4 right, 5 lower-right

Edge ``e`` of a hex touches edge ``(e + 3) % 6`` of its neighbour; rotating a tile by ``r``
moves edge ``e`` to ``(e + r) % 6``.

* :class:`End` - one end of a track path: a hex edge or a revenue location of the hex.
* :class:`PathDef` - a piece of track: ``tram`` (solid), ``stadtbahn`` (dotted, Stadtbahn
  companies only) or ``stadtbahn_planned`` (printed dotted route nobody can use yet).
* :class:`LocationDef` - a halt (black bar), an interchange (white circle with ``slots``
  marker spaces) or a placeholder (the empty space of an untiled inner-city/station hex).
* :class:`TileDef` - a track tile; :meth:`TileDef.paths_at` gives its paths at a rotation.
* :class:`HexDef` - a printed hex of a layout; :class:`StadtbahnHex` - the light-orange hexes.
* :class:`StadtbahnLine` - one Stadtbahn company's route; :class:`Layout` - a whole map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NoReturn, TypeVar

EDGES = range(6)
TRACKS = ("tram", "stadtbahn", "stadtbahn_planned")
LOCATION_KINDS = ("halt", "interchange", "placeholder")
PHASES = ("yellow", "green", "brown", "grey")

Phase = Literal["yellow", "green", "brown", "grey"]
Owner = int | str
"""Who owns a station marker: a line number (1-18) or a Stadtbahn company ("W", "V", "G", "D")."""


K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """An immutable, hashable dict (still a ``dict``, so ``json.dumps`` accepts it). Used for
    every small mapping in the model (phase revenues, neighbours, tile options)."""

    __slots__ = ("_hash",)

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash
        except AttributeError:
            self._hash: int = hash(frozenset(self.items()))
            return self._hash

    def _immutable(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("FrozenDict is immutable")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _immutable
    __ior__ = _immutable

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict[K, V]:
        return self


def rotate_edge(edge: int, rotation: int) -> int:
    """The edge that ``edge`` of a tile at rotation 0 becomes at ``rotation``."""
    return (edge + rotation) % 6


def opposite(edge: int) -> int:
    """The neighbour's edge touching ``edge`` (README: edge e touches (e + 3) % 6)."""
    return (edge + 3) % 6


@dataclass(frozen=True, slots=True)
class End:
    """One end of a path: exactly one of ``edge`` (0-5) or ``location`` (a location id).

    ``lane`` is ``(lanes, index)`` for the two parallel tracks of a two-lane red area edge
    (K11, K17); ``None`` elsewhere.
    """

    edge: int | None = None
    location: int | None = None
    lane: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if (self.edge is None) == (self.location is None):
            raise ValueError("End needs exactly one of edge / location")
        if self.edge is not None and self.edge not in EDGES:
            raise ValueError(f"bad edge {self.edge}")

    def rotated(self, rotation: int) -> End:
        if self.edge is None or rotation % 6 == 0:
            return self
        return End(edge=rotate_edge(self.edge, rotation), lane=self.lane)

    def __str__(self) -> str:
        return f"e{self.edge}" if self.edge is not None else f"l{self.location}"


@dataclass(frozen=True, slots=True)
class PathDef:
    """A piece of track between two ends.

    ``terminal``: a route arriving here must stop at the location (red areas and red inner-city
    tiles, R-LR-6). ``lanes`` > 1 marks a double track drawn as one (two-lane red areas).
    """

    a: End
    b: End
    track: str = "tram"
    terminal: bool = False
    lanes: int = 1
    edges: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)
    """The edges its ends are at (a path is read far more often than made: kept, not
    computed on each read)."""
    locations: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)
    """The revenue locations its ends are at."""

    def __post_init__(self) -> None:
        ends = (self.a, self.b)
        object.__setattr__(self, "edges", tuple(e.edge for e in ends if e.edge is not None))
        object.__setattr__(self, "locations",
                           tuple(e.location for e in ends if e.location is not None))

    def rotated(self, rotation: int) -> PathDef:
        if rotation % 6 == 0:
            return self
        return PathDef(
            self.a.rotated(rotation), self.b.rotated(rotation), self.track, self.terminal,
            self.lanes,
        )


@dataclass(frozen=True, slots=True)
class LocationDef:
    """A revenue location (or placeholder) on a tile or hex.

    ``revenue`` is an int or a phase mapping ``{"yellow": .., "green": .., ...}``; ``slots`` is
    the number of station-marker circles of an interchange (0 for halts). ``tracks`` says which
    kinds of track serve it (``("tram",)``, ``("stadtbahn",)`` or both).
    """

    id: int
    kind: str
    revenue: int | Mapping[str, int] = 0
    slots: int = 0
    tracks: tuple[str, ...] = ("tram",)

    def value(self, phase: str = "yellow") -> int:
        """The revenue in ``phase``: the newest printed colour at or before it (R-LR-7)."""
        if isinstance(self.revenue, int):
            return self.revenue
        best = 0
        for colour in PHASES:
            if colour in self.revenue:
                best = self.revenue[colour]
            if colour == phase:
                break
        return best

    @property
    def is_interchange(self) -> bool:
        return self.kind == "interchange"

    @property
    def is_halt(self) -> bool:
        return self.kind == "halt"

    @property
    def serves_trams(self) -> bool:
        return "tram" in self.tracks


@dataclass(frozen=True, slots=True)
class TileDef:
    """A track tile (tiles.json). Paths are given at rotation 0.

    ``chart_id`` is the number in the rules' tile chart (``L30a``/``L30b`` -> ``L30``).
    ``fixed_rotation`` / ``only_on_hex`` restrict the special purple tiles; ``upgrades`` lists
    the tiles that may replace this one (computed from IX.5; the rotation must still be checked).
    """

    id: str
    colour: str
    orange_edged: bool
    chart_id: str
    locations: tuple[LocationDef, ...]
    paths: tuple[PathDef, ...]
    label: str | None = None
    fixed_rotation: int | None = None
    only_on_hex: str | None = None
    upgrades: tuple[str, ...] = ()
    tram_exits: tuple[int, ...] = ()
    stadtbahn_exits: tuple[int, ...] = ()
    _rotated: tuple[tuple[PathDef, ...], ...] = field(
        default=(), repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        rotated = tuple(tuple(p.rotated(r) for p in self.paths) for r in EDGES)
        object.__setattr__(self, "_rotated", rotated)

    def paths_at(self, rotation: int) -> tuple[PathDef, ...]:
        """The tile's paths with absolute edges when laid at ``rotation``."""
        return self._rotated[rotation % 6]

    def location(self, location_id: int) -> LocationDef:
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        raise KeyError(f"tile {self.id} has no location {location_id}")

    def exits_at(self, rotation: int, track: str = "tram") -> frozenset[int]:
        """Edges where ``track`` leaves the tile at ``rotation``."""
        return frozenset(
            e for p in self.paths_at(rotation) if p.track == track for e in p.edges
        )


@dataclass(frozen=True, slots=True)
class StadtbahnHex:
    """What a light-orange hex says: its Stadtbahn line and position in the build order, the
    exits its tile must cover, the printed bonus action and the yellow tiles (tile -> legal
    rotations) that may be laid on it (IX.4)."""

    company: str
    sequence_index: int
    required_exits: tuple[int, ...]
    bonus_action: str
    yellow_tile_options: Mapping[str, tuple[int, ...]]
    has_interchange: bool = False


@dataclass(frozen=True, slots=True)
class HexDef:
    """A hex of a layout as printed.

    ``neighbours`` lists every existing neighbour by edge (also across ``impassable_edges``;
    :meth:`tramways.g1840.board.Board.neighbour` filters those). ``first_tiles`` are the tiles
    that may be laid on the empty hex; ``red_tile_rotations`` gives the legal rotation of each red
    tile on an inner-city hex. ``same_area_as`` are edges drawn without border (one printed area).
    """

    coord: str
    name: str | None
    area: str
    locations: tuple[LocationDef, ...]
    paths: tuple[PathDef, ...]
    neighbours: Mapping[int, str]
    laying_allowed: bool
    lay_cost: int = 0
    label: str | None = None
    impassable_edges: tuple[int, ...] = ()
    home_of: tuple[int, ...] = ()
    landmark: str | None = None
    landmark_bonus: int = 0
    stadtbahn: StadtbahnHex | None = None
    stadtbahn_markers: tuple[tuple[str, int], ...] = ()
    engine_colour: str = "white"
    printed_colour: str = ""
    printed_colour_is_guess: bool = False
    tram_exits: tuple[int, ...] = ()
    stadtbahn_exits: tuple[int, ...] = ()
    same_area_as: tuple[int, ...] = ()
    first_tiles: tuple[str, ...] = ()
    red_tile_rotations: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    on_stadtbahn_routes: tuple[str, ...] = ()
    notes: str = ""

    @property
    def row(self) -> str:
        return self.coord[0]

    @property
    def column(self) -> int:
        return int(self.coord[1:])

    def location(self, location_id: int) -> LocationDef:
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        raise KeyError(f"hex {self.coord} has no location {location_id}")


@dataclass(frozen=True, slots=True)
class StadtbahnLine:
    """A Stadtbahn company's line on a layout: termini ``(hex, location)``, every hex of the
    route from terminus to terminus, the buildable light-orange hexes in build order, and the
    station markers at the start."""

    company: str
    termini: tuple[tuple[str, int], ...]
    route: tuple[str, ...]
    buildable: tuple[str, ...]
    markers_at_start: tuple[tuple[str, int], ...]
    revenue_before_any_tile: int = 0


@dataclass(frozen=True, slots=True)
class Area:
    """A printed area spanning several hexes (multi-hex red areas, Auf der Schmelz)."""

    name: str
    hexes: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """A whole map: ``full`` (3-6 players), ``small3`` (XII) or ``two_player`` (XIII).

    Layouts are loaded once and compared by identity."""

    name: str
    hexes: Mapping[str, HexDef]
    home_bases: Mapping[int, str]
    landmarks: Mapping[str, str]
    lines_in_game: tuple[int, ...]
    stadtbahn_companies: tuple[str, ...]
    privates_in_game: tuple[str, ...]
    stadtbahn_lines: Mapping[str, StadtbahnLine]
    description: str = ""
    player_counts: tuple[int, ...] = ()
    lines_removed: tuple[int, ...] = ()
    stadtbahn_removed: tuple[str, ...] = ()
    privates_removed: tuple[str, ...] = ()
    areas: tuple[Area, ...] = ()

    def hex(self, coord: str) -> HexDef:
        try:
            return self.hexes[coord]
        except KeyError:
            raise KeyError(f"{coord} is not on the {self.name} map") from None
