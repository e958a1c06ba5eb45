"""Laying and upgrading tiles: rules IX.4 and IX.5 (with R-LR-2, R-LR-3, R-LR-10, R-LR-11).

One evaluator decides every (hex, tile, rotation) triple; :func:`hex_lays` runs it over the
candidates of one hex (:func:`scratch_tile_lays` over every hex the line reaches, the reference
the memoised :func:`tramways.g1840.legality.listing.legal_tile_lays` is tested against) and
:func:`check_tile_lay` runs it once and raises the refusal, so the list and the check can never
disagree.

``mode`` says which lay is meant (R-LR-1): the line's ``"normal"`` lay or upgrade, the
``"bonus_yellow"`` tile of a Stadtbahn bonus (a yellow tile on an empty hex, never a Stadtbahn
tile: R-LR-3) or the ``"bonus_upgrade"`` (yellow to green, from LR2a).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from functools import cache

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board
from tramways.g1840.data import tiles
from tramways.g1840.hexgrid import tile_track
from tramways.g1840.legality.connection import Connection
from tramways.g1840.legality.context import (
    NEXT_COLOUR,
    PHASE_ORDER,
    BuildState,
    colour_available,
)
from tramways.g1840.legality.matching import LocationMap, edges_kept, match_locations
from tramways.g1840.legality.types import TileLay
from tramways.g1840.model import HexDef, Layout, TileDef, opposite

OPEN_AREAS = frozenset({"plain", "danube", "interchange", "interchange_OO", "stadtbahn"})
"""Hexes track may point at freely (IX.4 (5)); any other hex (grey/fixed, park, red area,
inner city, railway station) must have a black arrow or track at that edge (IX.4 (1)-(3))."""

NORMAL_AREAS = frozenset({"plain", "danube", "interchange", "interchange_OO"})
"""White hexes that take a line's normal yellow tile (IX.4)."""

NEVER_UPGRADED = frozenset({"grey", "red", "purple"})
"""IX.5: grey, red and purple tiles are never upgraded."""

MODES = ("normal", "bonus_yellow", "bonus_upgrade")


@dataclass(slots=True)
class LayContext:
    board: Board
    layout: Layout
    phase: str
    line: int
    conn: Connection
    home: str | None
    forced_home: bool
    edge_refusals: dict[tuple[str, int], str | None] = field(default_factory=dict)


def _ctx(pos: BuildState, line: int, first_turn: bool, mode: str) -> LayContext:
    board = pos.board
    layout = board.layout
    home = layout.home_bases.get(line)
    forced = (
        mode == "normal"
        and first_turn
        and home is not None
        and board.tile(home) is None
        and layout.hexes[home].laying_allowed
    )
    return LayContext(board, layout, pos.phase, line, Connection(board, line), home, forced)


# ---------------------------------------------------------------- tile fit (data questions)


def fits_empty_hex(area: str, tile: TileDef) -> str | None:
    """Why ``tile`` cannot be a line's first tile on an empty white hex of ``area`` (IX.4), or
    None.

    Halt tiles (black bar) on plain and Danube hexes, one-interchange tiles on interchange
    hexes, the OO tile on OO hexes; only yellow, never orange-edged.
    """
    if tile.colour != "yellow" or tile.orange_edged:
        return "only a yellow tile without orange edge can be laid on an empty white hex"
    kinds = sorted(loc.kind for loc in tile.locations)
    if area == "interchange_OO":
        return None if tile.label == "OO" else "only the OO tile may be laid on an OO hex"
    if tile.label is not None:
        return f"the {tile.label} tile only goes on {tile.label} hexes"
    if area in ("plain", "danube"):
        return None if kinds == ["halt"] else "only tiles with a halt may be laid on open hexes"
    if area == "interchange":
        return (
            None if kinds == ["interchange"]
            else "only tiles with an interchange may be laid on interchange hexes"
        )
    return "no line tile may be laid on this hex"


_FITS: dict[tuple[str, str], str | None] = {}


def _fits_empty_hex(area: str, tile: TileDef) -> str | None:
    """:func:`fits_empty_hex`, cached by area and tile id."""
    key = (area, tile.id)
    if key not in _FITS:
        _FITS[key] = fits_empty_hex(area, tile)
    return _FITS[key]


@cache
def upgrade_map(old_id: str, new_id: str, turn: int) -> LocationMap | None:
    """The location map if ``new_id`` turned by ``turn`` relative to ``old_id`` keeps all its
    track and revenue locations (IX.5), else None. OO tiles may merge circles (L17)."""
    all_tiles = tiles()
    old, new = all_tiles[old_id], all_tiles[new_id]
    return match_locations(
        old.paths_at(0), old.locations, new.paths_at(turn), new.locations,
        merge=old.label == "OO" and new.label == "OO",
    )


def upgrade_turns(old_id: str, new_id: str) -> tuple[int, ...]:
    """Relative rotations at which ``new_id`` may replace ``old_id`` by track (IX.5); a turn
    leaving an old edge without its track is refused before the locations are matched."""
    return tuple([t for t in range(6)
                  if edges_kept(old_id, new_id, t) and upgrade_map(old_id, new_id, t) is not None])


_PRINTED_MAPS: dict[tuple[str, str, str, int], LocationMap | None] = {}


def printed_map(layout: Layout, coord: str, tile: TileDef, rotation: int) -> LocationMap | None:
    """The location map from the printed hex to ``tile`` at ``rotation`` keeping printed track."""
    key = (layout.name, coord, tile.id, rotation)
    if key not in _PRINTED_MAPS:
        h = layout.hexes[coord]
        _PRINTED_MAPS[key] = match_locations(
            h.paths, h.locations, tile.paths_at(rotation), tile.locations
        )
    return _PRINTED_MAPS[key]


def in_supply(board: Board, tile_id: str) -> bool:
    """R-LR-11: the tile (or its chart entry, e.g. L30 for L30a) is still in the supply."""
    return board.available(tile_id) > 0


def tram_exits(tile: TileDef, rotation: int) -> frozenset[int]:
    """Edges where tram track leaves ``tile`` at ``rotation`` (cached)."""
    return tile_track(tile, rotation).tram_edges


def edge_refusal(board: Board, coord: str, edge: int) -> str | None:
    """IX.4: why tram track may not leave ``coord`` at ``edge``: off the map, or into a
    fixed/red/park/station hex without a black arrow or track there (allowed dead ends
    (1)-(5)); None if it may."""
    nb = board.neighbour(coord, edge)
    if nb is None:
        return f"track at edge {edge} of {coord} would lead off the map"
    if board.layout.hexes[nb].area in OPEN_AREAS:
        return None
    if opposite(edge) not in board.track(nb).by_edge:
        return f"track at edge {edge} of {coord} would run into {nb}, which has no connection there"
    return None


_SORTED_EXITS: dict[tuple[str, int], tuple[int, ...]] = {}


def _sorted_exits(tile: TileDef, rotation: int) -> tuple[int, ...]:
    """:func:`tram_exits` in edge order (cached by tile id and rotation)."""
    key = (tile.id, rotation)
    found = _SORTED_EXITS.get(key)
    if found is None:
        found = _SORTED_EXITS[key] = tuple(sorted(tram_exits(tile, rotation)))
    return found


def exits_refusal(board: Board, coord: str, tile: TileDef, rotation: int,
                  cache: dict[tuple[str, int], str | None] | None = None) -> str | None:
    """The first :func:`edge_refusal` among the tile's tram exits, or None."""
    for edge in _sorted_exits(tile, rotation):
        if cache is None:
            why = edge_refusal(board, coord, edge)
        else:
            key = (coord, edge)
            if key in cache:
                why = cache[key]
            else:
                why = cache[key] = edge_refusal(board, coord, edge)
        if why:
            return why
    return None


def connected(conn: Connection, coord: str, tile: TileDef, rotation: int,
              location_map: LocationMap) -> bool:
    """IX.4/IX.5: some track of the tile at ``coord`` joins the line's reach (permissive:
    old track that was reached counts, new track need not be usable).  Once the reach is at
    hand (a listing indexed it) it answers directly; before, the board's floor of it
    (:meth:`Connection.surely_joins`) may answer yes without walking (a single check)."""
    exits = tram_exits(tile, rotation)
    olds = [old for old, _ in location_map]
    if not conn.indexed and conn.surely_joins(coord, exits, olds):
        return True
    if exits & conn.entered_edges(coord):
        return True
    reached = conn.reached_locations(coord)
    return any(old in reached for old in olds)


# ---------------------------------------------------------------- the evaluator


def _evaluate(ctx: LayContext, coord: str, tile_id: str, rotation: int, mode: str,
              laid_this_turn: Collection[str], supply: bool = True) -> TileLay:
    """The lay if legal, else ``IllegalAction`` naming the rule; ``supply=False`` leaves out
    the R-LR-11 supply check (the per-hex memo of :mod:`.listing` applies it afterwards)."""
    board, layout = ctx.board, ctx.layout
    if coord not in layout.hexes:
        raise IllegalAction("IX.4", f"{coord} is not on the map")
    all_tiles = tiles()
    if tile_id not in all_tiles:
        raise IllegalAction("IX.4", f"there is no tile {tile_id}")
    if not 0 <= rotation < 6:
        raise IllegalAction("IX.4", f"rotation {rotation} is not 0-5")
    tile = all_tiles[tile_id]
    hexdef = layout.hexes[coord]
    if tile.colour in ("red", "purple"):
        raise IllegalAction(
            "IX.4", f"{tile.colour} tiles are laid only by a Stadtbahn bonus action"
        )
    if tile.orange_edged and tile.colour == "yellow":
        raise IllegalAction(
            "R-LR-3" if mode == "bonus_yellow" else "IX.4",
            "yellow Stadtbahn tiles are laid only as the line's Stadtbahn tile (20)",
        )
    if ctx.forced_home and coord != ctx.home:
        raise IllegalAction(
            "R-LR-2", f"in its first turn line {ctx.line} must lay its tile on its home "
            f"base {ctx.home}",
        )
    placed = board.tile(coord)
    if placed is None:
        lay = _first_tile(ctx, hexdef, tile, rotation, mode)
    else:
        lay = _upgrade(ctx, coord, placed.tile_id, placed.rotation, tile, rotation, mode,
                       laid_this_turn)
    if supply and not in_supply(board, tile_id):
        raise IllegalAction("R-LR-11", f"no tile {tile_id} is left in the supply")
    refusal = exits_refusal(board, coord, tile, rotation, ctx.edge_refusals)
    if refusal:
        raise IllegalAction("IX.4", refusal)
    home_ok = ctx.forced_home and coord == ctx.home
    if not home_ok and not connected(ctx.conn, coord, tile, rotation, lay.location_map):
        raise IllegalAction(
            "IX.5" if lay.upgrade else "IX.4",
            f"{coord} is not reachable from line {ctx.line}'s station markers",
        )
    return lay


def _first_tile(ctx: LayContext, hexdef: HexDef, tile: TileDef, rotation: int,
                mode: str) -> TileLay:
    if mode == "bonus_upgrade":
        raise IllegalAction("R-LR-1", "this bonus upgrades a yellow tile; the hex is empty")
    if not hexdef.laying_allowed:
        raise IllegalAction("IX.4", f"no tile may be laid on {hexdef.coord}")
    if hexdef.area not in NORMAL_AREAS:
        raise IllegalAction("IX.4", f"only special tiles may be laid on {hexdef.coord}")
    why = _fits_empty_hex(hexdef.area, tile)
    if why:
        raise IllegalAction("IX.4", why)
    location_map = printed_map(ctx.layout, hexdef.coord, tile, rotation)
    if location_map is None:
        raise IllegalAction("IX.4", f"tile {tile.id} does not keep the printed track of "
                            f"{hexdef.coord}")
    if hexdef.area == "interchange_OO":
        location_map = _own_circle_on_track(ctx, hexdef.coord, tile, rotation, location_map)
    return TileLay(
        hexdef.coord, tile.id, rotation, cost=hexdef.lay_cost, upgrade=False,
        location_map=location_map, kind=mode,
    )


def _own_circle_on_track(ctx: LayContext, coord: str, tile: TileDef, rotation: int,
                         location_map: LocationMap) -> LocationMap:
    """IX.4 on an OO hex: the printed circles have no drawn position in the data, so the laying
    line orients the OO tile so that its own marker sits on the circle the track serves (235
    has track to one circle only); the other circle's markers take the other circle."""
    own = [loc for loc, owners in ctx.board.markers(coord).items() if ctx.line in owners]
    mapping = dict(location_map)
    if not own or own[0] not in mapping:
        return location_map
    served = {loc for p in tile.paths_at(rotation) if p.track == "tram" for loc in p.locations}
    if mapping[own[0]] in served:
        return location_map
    for other, target in mapping.items():
        if other != own[0] and target in served:
            mapping[other], mapping[own[0]] = mapping[own[0]], target
            return tuple(sorted(mapping.items()))
    return location_map


def _upgrade(ctx: LayContext, coord: str, old_id: str, old_rot: int, tile: TileDef, rotation: int,
             mode: str, laid_this_turn: Collection[str]) -> TileLay:
    if mode == "bonus_yellow":
        raise IllegalAction("R-LR-1", "the bonus yellow tile goes on an empty hex")
    old = tiles()[old_id]
    if coord in laid_this_turn:
        raise IllegalAction("R-LR-3", f"the tile on {coord} was laid this turn")
    if old.colour in NEVER_UPGRADED:
        raise IllegalAction("IX.5", f"{old.colour} tiles are never upgraded")
    if tile.colour != NEXT_COLOUR.get(old.colour):
        raise IllegalAction(
            "IX.5", f"a {old.colour} tile is upgraded to {NEXT_COLOUR[old.colour]}, "
            f"not {tile.colour}",
        )
    if mode == "bonus_upgrade" and old.colour != "yellow":
        raise IllegalAction("R-LR-1", "this bonus upgrades a yellow tile to green")
    if not colour_available(tile.colour, ctx.phase):
        raise IllegalAction("IX.5", f"{tile.colour} tiles are not available yet")
    if old.orange_edged != tile.orange_edged:
        raise IllegalAction(
            "IX.5", "orange-edged tiles are upgraded only with orange-edged tiles"
        )
    if old.label != tile.label:
        raise IllegalAction("IX.5", "OO tiles are upgraded only by OO tiles")
    location_map = upgrade_map(old_id, tile.id, (rotation - old_rot) % 6)
    if location_map is None:
        raise IllegalAction(
            "IX.5", f"tile {tile.id} at rotation {rotation} does not keep the track and "
            f"revenue locations of {old_id}",
        )
    return TileLay(coord, tile.id, rotation, cost=0, upgrade=True, replaced=old_id,
                   location_map=location_map, kind=mode)


# ---------------------------------------------------------------- candidates and API


@cache
def first_tiles(area: str) -> tuple[str, ...]:
    """The tiles :func:`fits_empty_hex` allows on an empty hex of ``area`` (IX.4)."""
    if area not in NORMAL_AREAS:
        return ()
    return tuple(t.id for t in tiles().values() if fits_empty_hex(area, t) is None)


@cache
def _upgrade_candidates(old_id: str) -> tuple[str, ...]:
    all_tiles = tiles()
    old = all_tiles[old_id]
    nxt = NEXT_COLOUR.get(old.colour)
    if nxt is None or old.colour in NEVER_UPGRADED:
        return ()
    return tuple(
        t.id for t in all_tiles.values()
        if t.colour == nxt and t.orange_edged == old.orange_edged and t.label == old.label
        and upgrade_turns(old_id, t.id)
    )


@cache
def _upgrades(old_id: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each upgrade candidate of ``old_id`` with its :func:`upgrade_turns` (IX.5)."""
    return tuple((tile_id, upgrade_turns(old_id, tile_id))
                 for tile_id in _upgrade_candidates(old_id))


def hex_candidates(ctx: LayContext, coord: str, mode: str, laid_this_turn: Collection[str]
                   ) -> Iterator[tuple[str, int]]:
    """The (tile, rotation) pairs worth evaluating on ``coord`` (IX.4 first tiles of the
    hex's area, IX.5 upgrades of its tile that keep its track, in data order)."""
    board, layout = ctx.board, ctx.layout
    hexdef = layout.hexes.get(coord)
    if hexdef is None or not hexdef.laying_allowed:
        return
    placed = board.tile(coord)
    if placed is None:
        if mode == "bonus_upgrade":
            return
        for tile_id in first_tiles(hexdef.area):
            for rotation in range(6):
                yield tile_id, rotation
        return
    if mode == "bonus_yellow" or coord in laid_this_turn:
        return
    old = tiles()[placed.tile_id]
    if PHASE_ORDER.get(NEXT_COLOUR.get(old.colour, "none"), 9) > PHASE_ORDER[ctx.phase]:
        return
    if mode == "bonus_upgrade" and old.colour != "yellow":
        return
    for tile_id, turns in _upgrades(placed.tile_id):
        for turn in turns:
            yield tile_id, (placed.rotation + turn) % 6


def hex_lays(ctx: LayContext, coord: str, mode: str, laid_this_turn: Collection[str], *,
             supply: bool = True) -> list[TileLay]:
    """Every legal lay on ``coord`` (IX.4, IX.5), in candidate order; ``supply=False``: as if
    every tile were in the supply (R-LR-11 left to the caller)."""
    all_tiles = tiles()
    conn = ctx.conn
    reached = ctx.forced_home or conn.reached_locations(coord)
    entered = conn.entered_edges(coord)
    result = []
    for tile_id, rotation in hex_candidates(ctx, coord, mode, laid_this_turn):
        if not reached and not (tram_exits(all_tiles[tile_id], rotation) & entered):
            continue  # cannot be connected (the evaluator would refuse it: IX.4/IX.5)
        try:
            result.append(_evaluate(ctx, coord, tile_id, rotation, mode, laid_this_turn,
                                    supply))
        except IllegalAction:
            continue
    return result


def lay_ctx(pos: BuildState, line: int, first_turn: bool, mode: str) -> LayContext:
    """The evaluation context of ``line``'s lays (``ValueError`` for an unknown mode)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    return _ctx(pos, line, first_turn, mode)


def scratch_tile_lays(
    pos: BuildState, line: int, *, first_turn: bool = False,
    laid_this_turn: Collection[str] = (), mode: str = "normal",
) -> list[TileLay]:
    """Every legal lay or upgrade for ``line`` now (IX.4, IX.5; R-LR-2 when ``first_turn``),
    evaluated from scratch: every candidate of every reached hex through the evaluator.

    The reference for :func:`tramways.g1840.legality.legal_tile_lays`, which lists the same
    lays from per-hex memos (:mod:`tramways.g1840.legality.listing`).
    ``laid_this_turn``: hexes whose tile was laid in this turn (not upgradable: R-LR-3).
    ``mode``: ``"normal"``, ``"bonus_yellow"`` or ``"bonus_upgrade"`` (R-LR-1).
    """
    ctx = lay_ctx(pos, line, first_turn, mode)
    coords = {ctx.home} if ctx.forced_home and ctx.home is not None else ctx.conn.candidates
    result = []
    for coord in sorted(coords):
        result.extend(hex_lays(ctx, coord, mode, laid_this_turn))
    return result


ListingKey = tuple[int, str, int, bool, str, tuple[str, ...]]
"""What a tile lay listing depends on: the board's version (its tiles, markers and supply; a
version is never reused, and a copy of a board keeps it only while they are equal), the
phase, the line, ``first_turn``, the mode and ``laid_this_turn``."""

_LISTED: dict[ListingKey, tuple[TileLay, ...]] = {}
_LISTED_LIMIT = 8
"""The last listings (cleared when full): a check right after a listing of the same position
finds its lay there."""


def listing_key(pos: BuildState, line: int, first_turn: bool, mode: str,
                laid_this_turn: Collection[str]) -> ListingKey:
    """The :data:`ListingKey` of a listing or a check of ``line``'s lays at ``pos``."""
    return (pos.board.version, pos.phase, line, first_turn, mode, tuple(laid_this_turn))


def remember_listing(key: ListingKey, lays: tuple[TileLay, ...]) -> None:
    """Keep a listing's lays (:func:`tramways.g1840.legality.listing.legal_tile_lays`) for
    :func:`check_tile_lay` at the same position."""
    if len(_LISTED) >= _LISTED_LIMIT:
        _LISTED.clear()
    _LISTED[key] = lays


def check_tile_lay(
    pos: BuildState, line: int, coord: str, tile_id: str, rotation: int, *,
    first_turn: bool = False, laid_this_turn: Collection[str] = (), mode: str = "normal",
) -> TileLay:
    """The :class:`TileLay` if legal, else raise ``IllegalAction`` naming the rule.

    A lay listed by a listing of the same position (:func:`remember_listing`: same board
    version, phase, line, mode and turn) is that listing's value, which is what the evaluator
    returns for it (the listing and the evaluator are one, IX.4/IX.5, R-LR-11); anything else
    is evaluated, so a refusal always names its rule."""
    listed = _LISTED.get(listing_key(pos, line, first_turn, mode, laid_this_turn)) \
        if _LISTED else None
    if listed is not None:
        for lay in listed:
            if lay.coord == coord and lay.tile_id == tile_id and lay.rotation == rotation:
                return lay
    ctx = lay_ctx(pos, line, first_turn, mode)
    return _evaluate(ctx, coord, tile_id, rotation, mode, laid_this_turn)
