"""Legal tile lays listed from per-hex memos (IX.4, IX.5; R-LR-2, R-LR-3, R-LR-11).

:func:`legal_tile_lays` returns exactly what the evaluator of :mod:`.tiles` finds over every
hex the line reaches (:func:`~tramways.g1840.legality.tiles.scratch_tile_lays`, the reference a
property test compares it with), without evaluating a hex again while nothing it depends on
has changed. What the lays on one hex depend on is local:

* the hex and its tile (``Placed`` or none), the mode (R-LR-1), whether its tile was laid
  this turn (R-LR-3) and whether the line is held to its home (R-LR-2);
* of the phase only whether the tile's next colour is available yet (IX.5: a phase decides
  nothing else about a hex's lays, and nothing at all on an empty hex, whose first tile is
  yellow);
* where the line's track arrives at the hex: the edges entered and the locations reached
  (IX.4/IX.5 connection), one int of the reach's per-hex masks
  (:attr:`~tramways.g1840.reach.Reach.bits`);
* the track of the neighbours that are not open hexes (IX.4 dead ends (1)-(5): an exit may
  point at a fixed, red, park, inner-city or station hex only where it has track);
* on an untiled OO hex, its markers and the laying line (IX.4: the line's own circle is put on
  the track).

Those make the memo key; the memo holds the hex's legal lays grouped by tile, as if every tile
were in the supply; the supply (R-LR-11) is applied per call, once per tile. A lay changes
the key of its own hex and its neighbours only (and of every hex whose reach part grows), so
after a lay the other hexes' lays come from the memo: the listing is incremental across board
versions, lines, turns and copies of the board (the search bot's play-outs).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import Any

from tramways.g1840.board import Board
from tramways.g1840.data import supply_key, tiles
from tramways.g1840.legality.context import NEXT_COLOUR, BuildState, colour_available
from tramways.g1840.legality.tiles import (
    OPEN_AREAS,
    LayContext,
    _own_circle_on_track,
    _upgrades,
    first_tiles,
    hex_candidates,
    lay_ctx,
    listing_key,
    printed_map,
    remember_listing,
    upgrade_map,
)
from tramways.g1840.legality.types import TileLay, listed_lay
from tramways.g1840.model import Layout
from tramways.g1840.reach import EDGE_BITS, KEY_BITS, L0

Groups = tuple[tuple[str, tuple[TileLay, ...]], ...]
"""A hex's lays grouped by tile id, in the evaluator's order."""

_MEMO: dict[Hashable, Groups] = {}
_MEMO_LIMIT = 200_000
"""Memo entries kept (cleared when full: a miss only costs one evaluation of the hex)."""

_CLOSED: dict[int, tuple[Layout, dict[str, tuple[str, ...]]]] = {}


def _closed_neighbours(layout: Layout, board: Board) -> dict[str, tuple[str, ...]]:
    """Per hex, its neighbours outside the open areas (IX.4 (1)-(5)): the only ones whose
    track decides whether an exit is refused (off-map and open neighbours never change)."""
    found = _CLOSED.get(id(layout))
    if found is None or found[0] is not layout:
        table: dict[str, tuple[str, ...]] = {}
        for coord in layout.hexes:
            nbs = (board.neighbour(coord, edge) for edge in range(6))
            table[coord] = tuple(nb for nb in nbs
                                 if nb is not None and layout.hexes[nb].area not in OPEN_AREAS)
        found = (layout, table)
        _CLOSED[id(layout)] = found
    return found[1]


_UPGRADABLE: dict[str, dict[str, bool]] = {}
"""Per phase, per tile id: whether the colour the tile is upgraded to is available and the
tile has an upgrade at all (:func:`_upgradable`)."""


def _upgradable(tile_id: str, phase: str) -> bool:
    """IX.5: whether the colour a tile is upgraded to is available in ``phase`` (the only
    thing a phase decides about a tiled hex's lays: :func:`~.tiles.hex_candidates` and the
    evaluator's colour check) and some tile upgrades it: if not, the hex has no candidate
    and so no lay."""
    nxt = NEXT_COLOUR.get(tiles()[tile_id].colour)
    return nxt is not None and colour_available(nxt, phase) and bool(_upgrades(tile_id))


_FERTILE: dict[int, tuple[Layout, frozenset[str]]] = {}


def _fertile(layout: Layout) -> frozenset[str]:
    """The hexes of ``layout`` where a first tile may go (IX.4: laying allowed, and some tile
    fits the hex's area, :func:`~.tiles.first_tiles`): an untiled hex elsewhere (an
    off-board area, an inner-city or station placeholder) has no candidate and so no lay."""
    found = _FERTILE.get(id(layout))
    if found is None or found[0] is not layout:
        found = _FERTILE[id(layout)] = (layout, frozenset(
            c for c, h in layout.hexes.items() if h.laying_allowed and first_tiles(h.area)))
    return found[1]


_SUPPLY_KEYS: dict[str, dict[str, str]] = {}
"""Per ruleset, per tile id: its supply entry (:func:`tramways.g1840.data.supply_key`)."""


def _supply_keys(ruleset: str) -> dict[str, str]:
    found = _SUPPLY_KEYS.get(ruleset)
    if found is None:
        found = _SUPPLY_KEYS[ruleset] = {t: supply_key(t, ruleset) for t in tiles()}
    return found


_LAYS: dict[tuple[Any, ...], TileLay] = {}
"""Each lay the listing has made, once per value (by layout, hex, tile, rotation, mode, the
replaced tile and the location map: what its fields are made of), so the memo's entries share
them: a lay is an object the collector tracks (and so is a tuple holding one), and a lay
listed again under another key costs neither a new object nor its construction."""

_SHARED: dict[tuple[int, ...], Groups] = {}
"""Each hex's groups, once per list of (shared) lays, keyed by their identities: many memo
keys of one hex list the same lays, and their entries hold the same groups."""


def _groups(lays: list[TileLay]) -> Groups:
    """``lays`` grouped by tile id, shared by every memo entry listing the same lays."""
    key = tuple(map(id, lays))
    found = _SHARED.get(key)
    if found is not None:
        return found
    out: list[tuple[str, list[TileLay]]] = []
    for lay in lays:
        if out and out[-1][0] == lay.tile_id:
            out[-1][1].append(lay)
        else:
            out.append((lay.tile_id, [lay]))
    groups = _SHARED[key] = tuple((tile_id, tuple(group)) for tile_id, group in out)
    return groups


_EXIT_MASKS: dict[str, tuple[int, ...]] = {}


def _exit_masks(tile_id: str) -> tuple[int, ...]:
    """Per rotation, the edges where tram track leaves the tile as a 6-bit mask (cached by
    tile id), read from its tram paths (``TileDef.exits_at``) without indexing its track."""
    found = _EXIT_MASKS.get(tile_id)
    if found is None:
        tile = tiles()[tile_id]
        found = _EXIT_MASKS[tile_id] = tuple(
            sum(1 << edge for edge in tile.exits_at(rotation)) for rotation in range(6))
    return found


_EDGE_TABLES: dict[int, tuple[Layout, dict[str, tuple[int, tuple[tuple[int, str, int], ...]]]]] = {}


def _edge_table(layout: Layout, board: Board
                ) -> dict[str, tuple[int, tuple[tuple[int, str, int], ...]]]:
    """Per hex: the edges leading off the map (always refused, IX.4) as a mask, and each edge
    into a closed neighbour (not an open area) with that neighbour and the edge back: the only
    edges whose refusal depends on the board (:func:`~.tiles.edge_refusal`)."""
    found = _EDGE_TABLES.get(id(layout))
    if found is None or found[0] is not layout:
        table = {}
        for coord in layout.hexes:
            off, closed = 0, []
            for edge in range(6):
                nb = board.neighbour(coord, edge)
                if nb is None:
                    off |= 1 << edge
                elif layout.hexes[nb].area not in OPEN_AREAS:
                    closed.append((edge, nb, (edge + 3) % 6))
            table[coord] = (off, tuple(closed))
        found = _EDGE_TABLES[id(layout)] = (layout, table)
    return found[1]


def _refused_edges(board: Board, coord: str) -> int:
    """The edges of ``coord`` a tram exit may not use (:func:`~.tiles.edge_refusal`: off the
    map, or into a closed hex without track there, IX.4 (1)-(5)) as a 6-bit mask."""
    mask, closed = _edge_table(board.layout, board)[coord]
    for edge, nb, back in closed:
        if back not in board.track(nb).by_edge:
            mask |= 1 << edge
    return mask


def listed_hex_lays(ctx: LayContext, coord: str, mode: str,
                    laid_this_turn: Collection[str]) -> list[TileLay]:
    """:func:`~tramways.g1840.legality.tiles.hex_lays` with ``supply=False``, for the listing: the same lays in the same
    order, without the evaluator's checks that :func:`hex_candidates` already passed (IX.4:
    a first tile fits the hex's area, is yellow and not orange-edged; IX.5: an upgrade is of
    the next colour, available in the phase, of the same orange edge and label, and keeps
    the old track at that rotation; R-LR-1, R-LR-3: the mode and the tiles laid this turn).
    What is left per candidate: the printed track a first tile keeps (IX.4), the dead ends
    (IX.4 (1)-(5)) and the connection (IX.4, IX.5), as the evaluator decides them.  Each lay
    is made once per value and then shared (``_LAYS``)."""
    if ctx.forced_home and coord != ctx.home:
        return []  # R-LR-2: every candidate is refused
    board, layout = ctx.board, ctx.layout
    hexdef = layout.hexes.get(coord)
    if hexdef is None:
        return []
    all_tiles = tiles()
    home_ok = ctx.forced_home
    here = ctx.conn.reach.bits.get(coord, 0)
    entered, reached = here & EDGE_BITS, here >> L0 & 0xFF
    refused = -1  # the edges a tram exit may not use (IX.4 (1)-(5)), when first needed
    exit_masks = _EXIT_MASKS.get
    placed = board.tile(coord)
    replaced = None if placed is None else placed.tile_id
    layout_id, made = id(layout), _LAYS.get
    result = []
    for tile_id, rotation in hex_candidates(ctx, coord, mode, laid_this_turn):
        exits = (exit_masks(tile_id) or _exit_masks(tile_id))[rotation]
        if not home_ok and not reached and not exits & entered:
            continue  # cannot be connected (IX.4/IX.5)
        tile = all_tiles[tile_id]
        if placed is None:
            location_map = printed_map(layout, coord, tile, rotation)
            if location_map is None:
                continue  # IX.4: the printed track is not kept
            if hexdef.area == "interchange_OO":
                location_map = _own_circle_on_track(ctx, coord, tile, rotation, location_map)
        else:
            found = upgrade_map(placed.tile_id, tile_id, (rotation - placed.rotation) % 6)
            if found is None:  # pragma: no cover - hex_candidates yields kept track only
                continue
            location_map = found
        if refused < 0:
            refused = _refused_edges(board, coord)
        if exits & refused:
            continue  # IX.4 (1)-(5)
        if not home_ok and not exits & entered and not any(
                reached >> old & 1 for old, _ in location_map):
            continue  # IX.4/IX.5: not connected to the line's track
        key = (layout_id, coord, tile_id, rotation, mode, replaced, location_map)
        lay = made(key)
        if lay is None:
            if placed is None:
                lay = listed_lay(coord, tile_id, rotation, hexdef.lay_cost, False, None,
                                 location_map, mode)
            else:
                lay = listed_lay(coord, tile_id, rotation, 0, True, replaced, location_map,
                                 mode)
            _LAYS[key] = lay
        result.append(lay)
    return result


def legal_tile_lays(
    pos: BuildState, line: int, *, first_turn: bool = False,
    laid_this_turn: Collection[str] = (), mode: str = "normal",
) -> list[TileLay]:
    """Every legal lay or upgrade for ``line`` now (IX.4, IX.5; R-LR-2 when ``first_turn``).

    ``laid_this_turn``: hexes whose tile was laid in this turn (not upgradable: R-LR-3).
    ``mode``: ``"normal"``, ``"bonus_yellow"`` or ``"bonus_upgrade"`` (R-LR-1).
    The same list as :func:`~tramways.g1840.legality.tiles.scratch_tile_lays`, from the
    per-hex memo (see the module docstring).
    """
    ctx = lay_ctx(pos, line, first_turn, mode)
    board = ctx.board
    reach = ctx.conn.reach
    if ctx.forced_home and ctx.home is not None:
        coords: tuple[str, ...] = (ctx.home,)
    else:
        coords = reach.sorted_hexes()
    layout = ctx.layout
    closed = _closed_neighbours(layout, board)
    supply = board.supply.get
    supply_keys = _supply_keys(board.ruleset)
    upgradable_in = _UPGRADABLE.setdefault(ctx.phase, {})
    in_supply: dict[str, bool] = {}
    result: list[TileLay] = []
    # each hex's memo key (the module docstring): the reach's edges and locations on the hex
    # are one int of its per-hex masks; the tiles from the board
    reached = reach.bits.get
    tile_at, hexes, phase, forced = board.placed().get, layout.hexes, ctx.phase, ctx.forced_home
    layout_id, fertile = id(layout), _fertile(layout)
    for coord in coords:
        placed = tile_at(coord)
        own_circle: Any = None
        if placed is None:
            if coord not in fertile:
                continue  # no first tile goes here (IX.4): no candidate, no lay
            upgradable = None
            if hexes[coord].area == "interchange_OO":
                own_circle = (board.markers(coord), ctx.line)
        else:
            upgradable = upgradable_in.get(placed.tile_id)
            if upgradable is None:
                upgradable = upgradable_in[placed.tile_id] = _upgradable(placed.tile_id, phase)
            if not upgradable:
                continue  # no upgrade of this tile now (IX.5): no candidate, no lay
        around = closed.get(coord)
        key = (layout_id, coord, placed, upgradable, mode, coord in laid_this_turn, forced,
               reached(coord, 0) & KEY_BITS,
               tuple(map(tile_at, around)) if around else (), own_circle)
        groups = _MEMO.get(key)
        if groups is None:
            if len(_MEMO) >= _MEMO_LIMIT:
                _MEMO.clear()
                _LAYS.clear()
                _SHARED.clear()
            groups = _groups(listed_hex_lays(ctx, coord, mode, laid_this_turn))
            _MEMO[key] = groups
        for tile_id, lays in groups:
            ok = in_supply.get(tile_id)
            if ok is None:
                ok = in_supply[tile_id] = supply(supply_keys[tile_id], 0) > 0
            if ok:
                result.extend(lays)
    remember_listing(listing_key(pos, line, first_turn, mode, laid_this_turn), tuple(result))
    return result
