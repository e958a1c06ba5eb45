"""The values the legality functions return: tile lays, station placements, marker removals."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from tramways.g1840.board import Board

LAY_KINDS = ("normal", "stadtbahn", "bonus_yellow", "bonus_upgrade", "red", "purple")
"""Why a tile goes down: the line's one normal lay or upgrade (IX.4/IX.5), its Stadtbahn tile
(IX.4, R-LR-3) or one of the tile-laying bonus actions of that Stadtbahn tile (R-LR-1)."""


@dataclass(frozen=True, slots=True)
class TileLay:
    """One legal tile lay or upgrade.

    ``location_map`` pairs each old location id (printed hex or replaced tile) with the new
    tile's location that takes over its station markers (IX.4, IX.5: markers keep their place).
    ``cost`` is what the line's treasury pays (Danube 40, Stadtbahn tile 20, else 0: R-LR-10);
    whether it can pay is the engine's check. ``landmark`` names the private whose token goes on
    a red inner-city tile (IX.4).
    """

    coord: str
    tile_id: str
    rotation: int
    cost: int = 0
    upgrade: bool = False
    replaced: str | None = None
    location_map: tuple[tuple[int, int], ...] = ()
    kind: str = "normal"
    landmark: str | None = None

    @property
    def mapping(self) -> dict[int, int]:
        """``location_map`` as a dict, as :meth:`Board.lay` takes it."""
        return dict(self.location_map)

    def apply(self, board: Board) -> str | None:
        """Put the tile on ``board`` (no checks); returns the replaced tile id.  The lay keeps
        the old track along ``location_map`` (IX.4, IX.5), so the board carries its cached
        reaches over it (``keeps_track``)."""
        return board.lay(self.coord, self.tile_id, self.rotation, self.mapping,
                         keeps_track=True)


_FIELDS = ("coord", "tile_id", "rotation", "cost", "upgrade", "replaced", "location_map", "kind",
           "landmark")
if tuple(f.name for f in fields(TileLay)) != _FIELDS:  # pragma: no cover - a new field
    raise TypeError("listed_lay must set every field of TileLay")
_SET: tuple[Any, ...] = tuple(getattr(TileLay, name).__set__ for name in _FIELDS)
"""Each field's slot setter (the slot's own descriptor: no ``object.__setattr__`` call)."""


def listed_lay(coord: str, tile_id: str, rotation: int, cost: int, upgrade: bool,
               replaced: str | None, location_map: tuple[tuple[int, int], ...],
               kind: str) -> TileLay:
    """``TileLay(coord, tile_id, rotation, cost=cost, upgrade=upgrade, replaced=replaced,
    location_map=location_map, kind=kind)`` (no landmark), the same value (equal, the same
    hash and repr), its fields set through the slots' setters instead of the frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` call per field): the tile lay
    listing (IX.4, IX.5) makes thousands, where that ``__init__`` was a tenth of a memo
    miss's instructions."""
    lay: TileLay = object.__new__(TileLay)
    s_coord, s_tile, s_rotation, s_cost, s_upgrade, s_replaced, s_map, s_kind, s_landmark = _SET
    s_coord(lay, coord)
    s_tile(lay, tile_id)
    s_rotation(lay, rotation)
    s_cost(lay, cost)
    s_upgrade(lay, upgrade)
    s_replaced(lay, replaced)
    s_map(lay, location_map)
    s_kind(lay, kind)
    s_landmark(lay, None)
    return lay


@dataclass(frozen=True, slots=True)
class StationPlacement:
    """A legal station marker placement (IX.6): ``home`` for the free home base marker."""

    coord: str
    location: int
    cost: int
    home: bool = False


@dataclass(frozen=True, slots=True)
class MarkerRemoval:
    """Removing a Stadtbahn company's station marker (IX.6, R-LR-5: 40, from the data)."""

    coord: str
    location: int
    company: str
    cost: int
