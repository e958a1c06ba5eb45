"""Stadtbahn tiles and their bonus actions (IX.4; R-LR-1, R-LR-3, R-LR-4).

A line may lay one yellow orange-edged Stadtbahn tile per turn for 20: only on a light-orange
hex, only at either open end of its Stadtbahn line's built sequence (the first or the last
still-unbuilt hex of the line's build order), covering the printed dotted route; no tram
connection is needed (R-LR-3). Right after it the line may take the bonus action printed on
that hex (R-LR-1):

* ``lay_additional_yellow_tile``: a yellow tile by the normal rules, reachable, not a Stadtbahn
  tile, Danube 40 (R-LR-3, R-LR-10) - see :func:`legal_bonus_lays`;
* ``upgrade_yellow_tile_to_green``: from LR2a, normal upgrade rules, reachable, yellow
  Stadtbahn tiles included;
* ``lay_red_inner_city_tile``: a red tile on D20, E19 or E21 in the single orientation whose
  arrows point only at existing hexes and at no inner-city hex or red tile, with an arrow
  towards the line's network; the hex's landmark token goes on it;
* ``lay_purple_railway_station_tile``: L24-L29 in any orientation on an empty ordinary station
  hex; on F24 and G11 only the special tiles L30/L31 in the printed orientation (F24: the W
  and D terminus markers move onto the tile);
* ``place_additional_station_marker``: the cheapest marker left, free (R-LR-4) - see
  :func:`tramways.g1840.legality.stations.legal_station_placements` with ``free=True``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cache
from typing import TypeVar

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board, Reach
from tramways.g1840.data import tiles
from tramways.g1840.entities import entities
from tramways.g1840.legality.connection import Connection
from tramways.g1840.legality.context import BuildState
from tramways.g1840.legality.listing import legal_tile_lays
from tramways.g1840.legality.tiles import (
    check_tile_lay,
    in_supply,
    printed_map,
)
from tramways.g1840.legality.types import TileLay
from tramways.g1840.model import HexDef, Layout, TileDef

BONUS_YELLOW = "lay_additional_yellow_tile"
BONUS_UPGRADE = "upgrade_yellow_tile_to_green"
BONUS_RED = "lay_red_inner_city_tile"
BONUS_PURPLE = "lay_purple_railway_station_tile"
BONUS_STATION = "place_additional_station_marker"
BONUS_ACTIONS = (BONUS_YELLOW, BONUS_UPGRADE, BONUS_RED, BONUS_PURPLE, BONUS_STATION)
TILE_BONUSES = (BONUS_YELLOW, BONUS_UPGRADE, BONUS_RED, BONUS_PURPLE)

STADTBAHN_TILE_COST: int = entities().stadtbahn_tile_cost
"""IX.4: a yellow Stadtbahn tile costs 20."""


# ---------------------------------------------------------------- the Stadtbahn tile


def stadtbahn_frontier(board: Board, company: str) -> tuple[str, ...]:
    """The hexes where ``company``'s line may be extended: the first and the last still-unbuilt
    hex of its build order (IX.4 "uninterrupted sequence" from either terminus, R-LR-3)."""
    line = board.layout.stadtbahn_lines.get(company)
    if line is None:
        return ()
    unbuilt = [c for c in line.buildable if board.tile(c) is None]
    if not unbuilt:
        return ()
    return tuple(dict.fromkeys((unbuilt[0], unbuilt[-1])))


def check_stadtbahn_lay(
    pos: BuildState, line: int, coord: str, tile_id: str, rotation: int
) -> TileLay:
    """The line's Stadtbahn tile lay if legal (IX.4, R-LR-3), else ``IllegalAction``."""
    return _stadtbahn_lay(pos.board, coord, tile_id, rotation)


def _stadtbahn_lay(board: Board, coord: str, tile_id: str, rotation: int,
                   supply: bool = True) -> TileLay:
    """:func:`check_stadtbahn_lay`; ``supply=False`` leaves out the R-LR-11 supply check."""
    layout = board.layout
    hexdef = layout.hexes.get(coord)
    if hexdef is None:
        raise IllegalAction("IX.4", f"{coord} is not on the map")
    all_tiles = tiles()
    tile = all_tiles.get(tile_id)
    if tile is None:
        raise IllegalAction("IX.4", f"there is no tile {tile_id}")
    if not (tile.orange_edged and tile.colour == "yellow"):
        raise IllegalAction("IX.4", "the Stadtbahn tile is a yellow orange-edged tile")
    sb = hexdef.stadtbahn
    if sb is None:
        raise IllegalAction("IX.4", f"{coord} is not a light-orange Stadtbahn hex")
    if board.tile(coord) is not None:
        raise IllegalAction("IX.4", f"{coord} already has a tile")
    if coord not in stadtbahn_frontier(board, sb.company):
        raise IllegalAction(
            "R-LR-3", f"Stadtbahn {sb.company} must be built in an unbroken sequence from a "
            f"terminus: next hexes are {', '.join(stadtbahn_frontier(board, sb.company))}",
        )
    if rotation not in sb.yellow_tile_options.get(tile_id, ()):
        raise IllegalAction(
            "IX.4", f"tile {tile_id} at rotation {rotation} does not cover the printed "
            f"dotted route of {coord}",
        )
    if supply and not in_supply(board, tile_id):
        raise IllegalAction("R-LR-11", f"no tile {tile_id} is left in the supply")
    location_map = printed_map(layout, coord, tile, rotation)
    if location_map is None:  # pragma: no cover - the data guarantees a match
        raise IllegalAction("IX.4", f"tile {tile_id} does not keep the printed route")
    return TileLay(coord, tile_id, rotation, cost=hexdef.lay_cost or STADTBAHN_TILE_COST,
                   location_map=location_map, kind="stadtbahn")


_FRONTIER_LAYS: dict[tuple[int, str], tuple[Layout, tuple[tuple[str, tuple[TileLay, ...]], ...]]] = {}


def _frontier_lays(board: Board, coord: str) -> tuple[tuple[str, tuple[TileLay, ...]], ...]:
    """The Stadtbahn lays on the open end ``coord`` by tile, as if every tile were in the
    supply: nothing else on the board decides them (IX.4, R-LR-3), so they are kept per hex."""
    layout = board.layout
    key = (id(layout), coord)
    found = _FRONTIER_LAYS.get(key)
    if found is None or found[0] is not layout:
        sb = layout.hexes[coord].stadtbahn
        assert sb is not None
        groups = []
        for tile_id, rotations in sorted(sb.yellow_tile_options.items()):
            lays = []
            for rotation in rotations:
                try:
                    lays.append(_stadtbahn_lay(board, coord, tile_id, rotation, supply=False))
                except IllegalAction:
                    continue
            groups.append((tile_id, tuple(lays)))
        found = _FRONTIER_LAYS[key] = (layout, tuple(groups))
    return found[1]


def _checked_lays(board: Board, coord: str) -> list[TileLay]:
    sb = board.layout.hexes[coord].stadtbahn
    options = sorted(sb.yellow_tile_options.items()) if sb is not None else []
    result = []
    for tile_id, rotations in options:
        for rotation in rotations:
            try:
                result.append(_stadtbahn_lay(board, coord, tile_id, rotation))
            except IllegalAction:
                continue
    return result


_BY_VERSION: dict[tuple[int, int | None, str], tuple[TileLay, ...]] = {}
_BY_VERSION_LIMIT = 20_000
"""Listings kept per board version (never reused; a copy keeps it only while equal): the
Stadtbahn lays (the same for every line) and the red and purple bonus lays of a line."""


_K = TypeVar("_K")
_V = TypeVar("_V")


def _memo(store: dict[_K, _V], key: _K, compute: Callable[[], _V]) -> _V:
    """``store[key]``, computed on a miss; a store at :data:`_BY_VERSION_LIMIT` entries is
    emptied first (its keys are versions, never met again once the board has moved on)."""
    found = store.get(key)
    if found is None:
        if len(store) >= _BY_VERSION_LIMIT:
            store.clear()
        found = store[key] = compute()
    return found


def _kept(board: Board, line: int | None, what: str, compute: Callable[[], list[TileLay]]
          ) -> list[TileLay]:
    found: tuple[TileLay, ...] = _memo(_BY_VERSION, (board.version, line, what),
                                       lambda: tuple(compute()))
    return list(found)


def legal_stadtbahn_lays(pos: BuildState, line: int) -> list[TileLay]:
    """Every legal Stadtbahn tile lay for ``line`` (IX.4, R-LR-3; no connection needed): the
    kept lays of each open end (:func:`_frontier_lays`) whose tile is in the supply
    (R-LR-11); the same for every line, kept per :attr:`Board.stadtbahn_version` (the
    tiles of the build orders and the orange-edged tiles' supply: all they depend on)."""
    board = pos.board
    found: tuple[TileLay, ...] = _memo(_BY_VERSION, (board.stadtbahn_version, None, "stadtbahn"),
                                       lambda: tuple(_stadtbahn_lays(board)))
    return list(found)


_DISTINCT: dict[int, tuple[tuple[TileLay, ...], int]] = {}
"""The distinct Stadtbahn lays and the dearest one's cost, per :attr:`Board.stadtbahn_version`
(emptied at :data:`_BY_VERSION`'s limit)."""


def distinct_stadtbahn_lays(pos: BuildState, line: int) -> tuple[tuple[TileLay, ...], int]:
    """:func:`legal_stadtbahn_lays` with each hex, tile and rotation once (the first), and
    the highest cost among them (0 if none) (IX.4, R-LR-3; R-LR-10 is the caller's: a lay's
    cost depends on its hex alone, so a repeat costs what the first costs); kept per
    :attr:`Board.stadtbahn_version` like the lays themselves."""
    return _memo(_DISTINCT, pos.board.stadtbahn_version,
                 lambda: _distinct(legal_stadtbahn_lays(pos, line)))


def _distinct(lays: list[TileLay]) -> tuple[tuple[TileLay, ...], int]:
    seen: set[tuple[str, str, int]] = set()
    distinct = []
    for lay in lays:
        key = (lay.coord, lay.tile_id, lay.rotation)
        if key not in seen:
            seen.add(key)
            distinct.append(lay)
    return tuple(distinct), max([lay.cost for lay in distinct], default=0)


def _stadtbahn_lays(board: Board) -> list[TileLay]:
    result = []
    for company in board.layout.stadtbahn_lines:
        for coord in stadtbahn_frontier(board, company):
            sb = board.layout.hexes[coord].stadtbahn
            if sb is None or sb.company != company:  # not in the data: check each lay
                result.extend(_checked_lays(board, coord))
                continue
            for tile_id, lays in _frontier_lays(board, coord):
                if lays and in_supply(board, tile_id):
                    result.extend(lays)
    return result


def bonus_action(board_or_pos: Board | BuildState, coord: str) -> str | None:
    """The bonus action printed on the Stadtbahn hex ``coord`` (R-LR-1), or None."""
    board = board_or_pos if isinstance(board_or_pos, Board) else board_or_pos.board
    hexdef = board.layout.hexes.get(coord)
    if hexdef is None or hexdef.stadtbahn is None:
        return None
    return hexdef.stadtbahn.bonus_action


# ---------------------------------------------------------------- red inner-city tiles


@cache
def _tram_exits(tile_id: str, rotation: int) -> frozenset[int]:
    """The edges where a tile's tram track leaves it at ``rotation`` (the tile data's
    ``exits_at``, kept: the bonus listings ask it for every tile and rotation again)."""
    return tiles()[tile_id].exits_at(rotation, "tram")


def _entered(reach: Reach, coord: str) -> bool:
    """Whether the line's track arrives at ``coord`` at some edge (of ``reach``, the line's),
    as a red or purple bonus tile needs at one of its exits (R-LR-3)."""
    return reach.edge_mask(coord) != 0


@cache
def _tiles_of_colour(colour: str) -> tuple[str, ...]:
    """The ids of the tiles of ``colour``, in data order."""
    return tuple(t.id for t in tiles().values() if t.colour == colour)


def _hex_and_tile(board: Board, coord: str, tile_id: str) -> tuple[HexDef, TileDef]:
    """The hex and the tile of a bonus lay, or ``IllegalAction`` (IX.4) for unknown ones."""
    hexdef = board.layout.hexes.get(coord)
    if hexdef is None:
        raise IllegalAction("IX.4", f"{coord} is not on the map")
    tile = tiles().get(tile_id)
    if tile is None:
        raise IllegalAction("IX.4", f"there is no tile {tile_id}")
    return hexdef, tile


def check_red_lay(pos: BuildState, line: int, coord: str, tile_id: str,
                  rotation: int) -> TileLay:
    """The bonus red inner-city tile if legal (IX.4 bonus "lay a red inner city tile")."""
    board = pos.board
    hexdef, tile = _hex_and_tile(board, coord, tile_id)
    if hexdef.area != "inner_city":
        raise IllegalAction("IX.4", "red tiles go only on the red-edged inner-city hexes")
    if tile.colour != "red":
        raise IllegalAction("IX.4", "only red tiles may be laid on inner-city hexes")
    if board.tile(coord) is not None:
        raise IllegalAction("IX.5", f"{coord} already has a red tile; red tiles never upgrade")
    if not 0 <= rotation < 6:
        raise IllegalAction("IX.4", f"rotation {rotation} is not 0-5")
    for edge in sorted(_tram_exits(tile_id, rotation)):
        nb = board.neighbour(coord, edge)
        if nb is None:
            raise IllegalAction(
                "IX.4", f"the arrow at edge {edge} would point off the map or at an "
                "inner-city hex",
            )
        nb_tile = board.tile_def(nb)
        if board.layout.hexes[nb].area == "inner_city" or (
            nb_tile is not None and nb_tile.colour == "red"
        ):
            raise IllegalAction("IX.4", f"the arrow at edge {edge} would point at {nb}")
    if not in_supply(board, tile_id):
        raise IllegalAction("R-LR-11", f"no tile {tile_id} is left in the supply")
    conn = Connection(board, line)
    if not any(conn.enters(coord, e) for e in _tram_exits(tile_id, rotation)):
        raise IllegalAction(
            "R-LR-3", f"no arrow of the red tile on {coord} points towards line {line}'s "
            "network",
        )
    location_map = printed_map(board.layout, coord, tile, rotation) or ()
    return TileLay(coord, tile_id, rotation, cost=0, location_map=location_map, kind="red",
                   landmark=hexdef.landmark)


def legal_red_lays(pos: BuildState, line: int) -> list[TileLay]:
    """Every legal bonus red tile for ``line`` (kept per board version)."""
    return _kept(pos.board, line, "red", lambda: _red_lays(pos, line))


def _red_lays(pos: BuildState, line: int) -> list[TileLay]:
    """What :func:`check_red_lay` accepts on every empty inner-city hex, in hex, tile and
    rotation order; a hex the line's track arrives at at no edge is skipped without asking
    it (R-LR-3: an arrow must point towards the line's network)."""
    board = pos.board
    red = _tiles_of_colour("red")
    result = []
    reach = Connection(board, line).reach
    for coord, hexdef in sorted(board.layout.hexes.items()):
        if hexdef.area != "inner_city" or board.tile(coord) is not None:
            continue
        if not _entered(reach, coord):
            continue  # R-LR-3: no arrow can point towards the line's network
        for tile_id in red:
            for rotation in range(6):
                try:
                    result.append(check_red_lay(pos, line, coord, tile_id, rotation))
                except IllegalAction:
                    continue
    return result


# ---------------------------------------------------------------- purple station tiles


@cache
def special_station_tiles(coord: str) -> tuple[str, ...]:
    """The special purple tiles reserved for ``coord`` (F24, G11), R-LR-11; empty otherwise
    (kept per hex: the tile data never changes)."""
    return tuple(t.id for t in tiles().values() if t.only_on_hex == coord)


def check_purple_lay(pos: BuildState, line: int, coord: str, tile_id: str,
                     rotation: int) -> TileLay:
    """The bonus purple railway station tile if legal (IX.4, R-LR-3, R-LR-11)."""
    board = pos.board
    hexdef, tile = _hex_and_tile(board, coord, tile_id)
    if hexdef.area != "railway_station":
        raise IllegalAction("IX.4", "purple tiles go only on purple railway station hexes")
    if tile.colour != "purple":
        raise IllegalAction("IX.4", "only purple tiles may be laid on railway station hexes")
    if board.tile(coord) is not None:
        raise IllegalAction("IX.5", f"{coord} already has a purple tile; purple never upgrades")
    special = special_station_tiles(coord)
    if special and tile_id not in special:
        raise IllegalAction("IX.4", f"only {' or '.join(special)} may be laid on {coord}")
    if tile.only_on_hex is not None and tile.only_on_hex != coord:
        raise IllegalAction("IX.4", f"tile {tile_id} is reserved for {tile.only_on_hex}")
    if tile.fixed_rotation is not None and rotation != tile.fixed_rotation:
        raise IllegalAction(
            "IX.4", f"tile {tile_id} is laid in its printed orientation ({tile.fixed_rotation})"
        )
    if not 0 <= rotation < 6:
        raise IllegalAction("IX.4", f"rotation {rotation} is not 0-5")
    if not in_supply(board, tile_id):
        raise IllegalAction("R-LR-11", f"no tile {tile_id} is left in the supply")
    location_map = printed_map(board.layout, coord, tile, rotation)
    if location_map is None:
        raise IllegalAction("IX.4", f"tile {tile_id} does not keep the printed track of {coord}")
    conn = Connection(board, line)
    if not any(conn.enters(coord, e) for e in _tram_exits(tile_id, rotation)):
        raise IllegalAction("R-LR-3", f"{coord} is not reachable from line {line}'s markers")
    return TileLay(coord, tile_id, rotation, cost=0, location_map=location_map, kind="purple")


def legal_purple_lays(pos: BuildState, line: int) -> list[TileLay]:
    """Every legal bonus purple tile for ``line`` (kept per board version)."""
    return _kept(pos.board, line, "purple", lambda: _purple_lays(pos, line))


def _purple_lays(pos: BuildState, line: int) -> list[TileLay]:
    """What :func:`check_purple_lay` accepts on every empty railway station hex, in hex,
    tile and rotation order; a tile it refuses in every rotation there (reserved for another
    hex or not reserved for this one, IX.4; out of the supply, R-LR-11), the rotations a
    printed orientation excludes (IX.4) and the hexes the line's track arrives at at no edge
    (R-LR-3) are skipped without asking it."""
    board = pos.board
    purple = _tiles_of_colour("purple")
    all_tiles = tiles()
    result = []
    reach = Connection(board, line).reach
    for coord, hexdef in sorted(board.layout.hexes.items()):
        if hexdef.area != "railway_station" or board.tile(coord) is not None:
            continue
        if not _entered(reach, coord):
            continue  # R-LR-3: not reachable from the line's markers at any edge
        special = special_station_tiles(coord)
        for tile_id in purple:
            tile = all_tiles[tile_id]
            if ((special and tile_id not in special)
                    or (tile.only_on_hex is not None and tile.only_on_hex != coord)
                    or not in_supply(board, tile_id)):
                continue
            turns = range(6) if tile.fixed_rotation is None else (tile.fixed_rotation,)
            for rotation in turns:
                try:
                    result.append(check_purple_lay(pos, line, coord, tile_id, rotation))
                except IllegalAction:
                    continue
    return result


# ---------------------------------------------------------------- bonus dispatch


def legal_bonus_lays(
    pos: BuildState, line: int, bonus: str, *, laid_this_turn: Collection[str] = ()
) -> list[TileLay]:
    """Every legal tile for a tile-laying bonus action (R-LR-1, R-LR-3)."""
    if bonus == BONUS_YELLOW:
        lays = legal_tile_lays(pos, line, mode="bonus_yellow")
        return lays
    if bonus == BONUS_UPGRADE:
        return legal_tile_lays(pos, line, mode="bonus_upgrade",
                               laid_this_turn=laid_this_turn)
    if bonus == BONUS_RED:
        return legal_red_lays(pos, line)
    if bonus == BONUS_PURPLE:
        return legal_purple_lays(pos, line)
    raise ValueError(f"{bonus!r} is not a tile-laying bonus action")


def check_bonus_lay(
    pos: BuildState, line: int, bonus: str, coord: str, tile_id: str, rotation: int, *,
    laid_this_turn: Collection[str] = (),
) -> TileLay:
    """Accept one bonus tile lay or raise ``IllegalAction`` naming the rule."""
    if bonus == BONUS_YELLOW:
        return check_tile_lay(pos, line, coord, tile_id, rotation, mode="bonus_yellow")
    if bonus == BONUS_UPGRADE:
        return check_tile_lay(pos, line, coord, tile_id, rotation, mode="bonus_upgrade",
                              laid_this_turn=laid_this_turn)
    if bonus == BONUS_RED:
        return check_red_lay(pos, line, coord, tile_id, rotation)
    if bonus == BONUS_PURPLE:
        return check_purple_lay(pos, line, coord, tile_id, rotation)
    raise ValueError(f"{bonus!r} is not a tile-laying bonus action")
