"""The :mod:`g1840_v0` observation built straight from the engine's position.

:func:`g1840_v0.encode` reads the agent's ``view(seat)``: building that typed view (every
player, company, marker and tile as frozen dataclasses) and then gathering its features costs
about as much as a step.  1840 has no hidden information (the view is the same for every seat
but its ``viewer``), so an :class:`Observer` reads the same figures from the position itself:
the same array, value for value (tests compare the two over thousands of random positions of
every player count and map), in a fraction of the time.

The observation is two parts (:mod:`g1840_layout`):

* the **tables** (the first :data:`TABLES` values: the game, seats, companies, lines,
  Stadtbahn companies, privates), written afresh for every observation into a small buffer
  (:mod:`g1840_tables`);
* the **board** (the per-hex block: each hex's tile, rotation and station markers; and the
  marker count of each line and Stadtbahn company, which sits in the tables), which changes
  only on a lay or a marker.  An observer keeps the board part it built last with the tiles
  and markers it was built from, and after a change rewrites only the hexes whose tile or
  markers are other objects than before (the board never changes a placed tile or a hex's
  marker map in place, :class:`tramways.g1840.board.Board`): a lay touches one hex of 148.
  It rebuilds everything when the lines' owners changed (a marker's company is its line's).

:func:`observe` and :func:`tables` use one module-wide observer; each environment has its
own, so games played side by side do not undo each other's board part.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from tramways.envs.g1840_catalogue import MAX_LOCATION
from tramways.envs.g1840_layout import (
    _I,
    COMPANIES,
    CORPS,
    HEXES,
    OBS_SIZE,
    PRIVATES,
    TILES,
    L,
)
from tramways.envs.g1840_seats import between
from tramways.envs.g1840_tables import Memo, write_tables
from tramways.g1840.position import Position

TABLES = L.hexes
"""The tables' size: every value before the per-hex block."""

_N_COMPANIES, _N_CORPS, _N_PRIVATES, _N_TILES = len(COMPANIES), len(CORPS), len(PRIVATES), len(TILES)
_COLOURS = len(_I["colour"])
_HEX_SIZE = L.hex_size
_MARKERS_AT = _N_TILES + 6
"""Where a hex block's station marker slots start (after the tile and the rotation)."""
_LINE_COUNT_AT = L.lines + _N_COMPANIES + _COLOURS
"""The marker count of line 0 (line ``k``'s is ``k * L.line_size`` further)."""
_STADTBAHN_COUNT_AT = L.stadtbahns + 4
_TABLE_ZEROS = array("f", bytes(4 * TABLES))
_HEX_ZEROS = array("f", bytes(4 * _HEX_SIZE))

Snapshot = Mapping[str, Any]


class Observer:
    """Builds observations (:meth:`observe`, :meth:`tables`) and keeps the board part it built
    last, to bring it up to date with a later position by rewriting the hexes that changed."""

    __slots__ = ("_version", "_markers_version", "_owners_key", "_owners", "_tiles", "_markers",
                 "_hexes", "_hex_values", "_counts", "_template", "_position", "_kept", "_memo")

    def __init__(self) -> None:
        self._version: int | None = None
        self._markers_version: int | None = None
        self._owners_key: Any = None
        self._owners: dict[Any, int] = {}
        """Marker owner (a line of a company, a Stadtbahn company) -> its company's index."""
        self._tiles: Snapshot = {}
        self._markers: Snapshot = {}
        self._hexes = array("f", bytes(4 * (OBS_SIZE - TABLES)))
        self._hex_values = np.frombuffer(self._hexes, dtype=np.float32)
        """The board part as numpy sees it (the same memory: it is only written in place)."""
        self._counts: dict[Any, int] = {}
        """Owner -> its marker places ((hex, location) pairs) on the board part."""
        self._template = array("f", _TABLE_ZEROS)
        """The tables' starting values: zeros but the marker counts."""
        self._memo = Memo()
        """The seat and company blocks written last (:class:`g1840_tables.Memo`)."""
        self._position: Hashable = None
        self._kept: tuple[Position, int, np.ndarray] | None = None
        """(position, seat, tables) of the last tables written, for :attr:`_position`."""

    def observe(self, state: Position, seat: int, position: Hashable = None) -> np.ndarray:
        """The observation of ``seat`` (exactly ``g1840_v0.encode(state.view(seat), seat)``).

        ``position``: a key the caller changes whenever ``state`` changes (``None``: none);
        another seat's observation of the same position (the same key and the very same
        ``state`` object) moves the kept tables' seat-relative values instead of reading the
        position again (:mod:`g1840_seats`)."""
        out = np.empty(OBS_SIZE, dtype=np.float32)
        out[:TABLES] = self.tables(state, seat, position)
        out[TABLES:] = self._hex_values
        return out

    def tables(self, state: Position, seat: int, position: Hashable = None) -> np.ndarray:
        """The observation's first :data:`TABLES` values (the board part brought up to date
        first: the marker counts are in them); read-only.  ``position`` as in
        :meth:`observe`."""
        kept = self._kept
        if position is not None and position == self._position and kept is not None \
                and kept[0] is state:
            _, first, values = kept
            return values if seat == first else values[between(state.n, first, seat)]
        self._update(state)
        out = array("f", self._template)
        write_tables(state, seat, out, self._memo)
        values = np.frombuffer(out, dtype=np.float32)
        values.flags.writeable = False
        self._position, self._kept = position, (state, seat, values)
        return values

    # --- the board part -------------------------------------------------------------------
    def _update(self, state: Position) -> None:
        """Bring the board part up to date with ``state``'s board: the hexes whose tile or
        markers are other objects than those it was built from are written again; the markers
        are compared only when the board's ``markers_version`` moved (it changes with every
        change of the markers, :class:`tramways.g1840.board.Board`), and the marker counts
        are written again only then."""
        board = state.board
        key = owners_key(state)
        if board.version == self._version and key == self._owners_key:
            return
        if key != self._owners_key:  # another owner: every marker's company may differ
            self._owners, self._owners_key = marker_owners(state), key
            self._tiles, self._markers, self._counts = {}, {}, {}
            self._markers_version = None
            self._hexes[:] = array("f", bytes(4 * (OBS_SIZE - TABLES)))
        tiles = board.placed()
        changed = changed_hexes(self._tiles, tiles)
        markers_version = board.markers_version
        moved = markers_version != self._markers_version
        markers = board.all_markers() if moved else self._markers
        if moved:
            changed |= changed_hexes(self._markers, markers)
        for coord in changed:
            self._rewrite(coord, tiles.get(coord), markers.get(coord))
        self._tiles = dict(tiles)
        self._version = board.version
        if moved:
            self._markers, self._markers_version = dict(markers), markers_version
            self._write_counts()

    def _rewrite(self, coord: str, placed: Any, markers: Any) -> None:
        """The block of hex ``coord`` from its tile and its markers (``None``: none); the
        owners' marker counts follow."""
        at = _I["hex"][coord] * _HEX_SIZE
        hexes = self._hexes
        hexes[at:at + _HEX_SIZE] = _HEX_ZEROS
        if placed is not None:
            hexes[at + _I["tile"][placed.tile_id]] = 1.0
            hexes[at + _N_TILES + placed.rotation] = 1.0
        owners, counts = self._owners, self._counts
        old = self._markers.get(coord)
        if old:
            for _loc, owner in owner_places(old):
                if owner in owners:
                    counts[owner] -= 1
        if markers:
            at += _MARKERS_AT
            for loc, owner in owner_places(markers):
                corp = owners.get(owner)
                if corp is not None:
                    counts[owner] = counts.get(owner, 0) + 1
                    hexes[at + min(loc, MAX_LOCATION) * _N_CORPS + corp] += 1.0

    def _write_counts(self) -> None:
        """Each owned line's and Stadtbahn company's marker count / 6 into the template."""
        template = array("f", _TABLE_ZEROS)
        counts, line_i, stadtbahn_i = self._counts, _I["line"], _I["stadtbahn"]
        for owner in self._owners:
            if owner in stadtbahn_i:
                template[_STADTBAHN_COUNT_AT + stadtbahn_i[owner] * L.stadtbahn_size] = \
                    counts.get(owner, 0) / 6
            else:
                template[_LINE_COUNT_AT + line_i[owner] * L.line_size] = counts.get(owner, 0) / 6
        self._template = template


def owners_key(state: Position) -> Any:
    """What decides :func:`marker_owners`: each company's lines, the Stadtbahn companies."""
    return (tuple((cid, tuple(c.lines)) for cid, c in state.companies.items()),
            tuple(state.stadtbahn))


def marker_owners(state: Position) -> dict[Any, int]:
    """Station marker owner (a line of a tram company, a Stadtbahn company) -> the index of
    its company among :data:`CORPS` (IV.1.2: a line's markers are its company's)."""
    corp_i = _I["corp"]
    owners: dict[Any, int] = {line: corp_i[cid] for cid, c in state.companies.items()
                              for line in c.lines}
    owners.update((sid, corp_i[sid]) for sid in state.stadtbahn)
    return owners


def changed_hexes(before: Snapshot, now: Snapshot) -> set[str]:
    """The hexes whose entry in ``now`` is not the very object of ``before`` (or is gone)."""
    out = {coord for coord, value in now.items() if before.get(coord) is not value}
    if len(before) > len(now) - len(out):
        out.update(before.keys() - now.keys())
    return out


def owner_places(markers: Mapping[int, tuple[Any, ...]]) -> list[tuple[int, Any]]:
    """(location, owner) of a hex's markers, an owner counted once per location (as
    :meth:`tramways.g1840.board.Board.line_markers` lists it)."""
    return [(loc, owner) for loc, owners in markers.items() for owner in dict.fromkeys(owners)]


_OBSERVER = Observer()


def observe(state: Position, seat: int) -> np.ndarray:
    """The observation of ``seat`` (exactly ``g1840_v0.encode(state.view(seat), seat)``)."""
    return _OBSERVER.observe(state, seat)


def tables(state: Position, seat: int) -> np.ndarray:
    """The first :data:`TABLES` values of :func:`observe`."""
    return _OBSERVER.tables(state, seat)


assert len(HEXES) * _HEX_SIZE == OBS_SIZE - TABLES
