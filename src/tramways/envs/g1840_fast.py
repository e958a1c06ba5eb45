"""The :mod:`g1840_v0` observation built straight from the engine's position.

:func:`g1840_v0.encode` reads the agent's ``view(seat)``: building that typed view (every
player, company, marker and tile as frozen dataclasses) and then gathering its features costs
about as much as a step.  1840 has no hidden information (the view is the same for every seat
but its ``viewer``), so an :class:`Observer` reads the same figures from the position itself:
the same array, value for value (tests compare the two over thousands of random positions of
every player count and map), in a fraction of the time.

The observation is two parts (:mod:`g1840_layout`):

* the **tables** (the first :data:`TABLES` values: the game, seats, companies, lines,
  Stadtbahn companies, privates), written afresh for every observation into a small buffer;
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
    BONUSES,
    COMPANIES,
    CORPS,
    CR_STEPS,
    HEXES,
    OBS_SIZE,
    PRIVATES,
    SEATS,
    TILES,
    L,
)
from tramways.envs.g1840_seats import between
from tramways.g1840.position import Position
from tramways.g1840.view_types import PrivateAuctionView

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

    __slots__ = ("_version", "_owners_key", "_owners", "_tiles", "_markers", "_hexes",
                 "_counts", "_template", "_position", "_kept")

    def __init__(self) -> None:
        self._version: int | None = None
        self._owners_key: Any = None
        self._owners: dict[Any, int] = {}
        """Marker owner (a line of a company, a Stadtbahn company) -> its company's index."""
        self._tiles: Snapshot = {}
        self._markers: Snapshot = {}
        self._hexes = array("f", bytes(4 * (OBS_SIZE - TABLES)))
        self._counts: dict[Any, int] = {}
        """Owner -> its marker places ((hex, location) pairs) on the board part."""
        self._template = array("f", _TABLE_ZEROS)
        """The tables' starting values: zeros but the marker counts."""
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
        out[TABLES:] = np.frombuffer(self._hexes, dtype=np.float32)
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
        _round(state, seat, out)
        _players(state, seat, out)
        _companies(state, seat, out)
        _privates(state, seat, out)
        values = np.frombuffer(out, dtype=np.float32)
        values.flags.writeable = False
        self._position, self._kept = position, (state, seat, values)
        return values

    # --- the board part -------------------------------------------------------------------
    def _update(self, state: Position) -> None:
        board = state.board
        key = owners_key(state)
        if board.version == self._version and key == self._owners_key:
            return
        if key != self._owners_key:  # another owner: every marker's company may differ
            self._owners, self._owners_key = marker_owners(state), key
            self._tiles, self._markers, self._counts = {}, {}, {}
            self._hexes[:] = array("f", bytes(4 * (OBS_SIZE - TABLES)))
        tiles, markers = board.placed(), board.all_markers()
        changed = changed_hexes(self._tiles, tiles) | changed_hexes(self._markers, markers)
        for coord in changed:
            self._rewrite(coord, tiles.get(coord), markers.get(coord))
        self._tiles, self._markers = dict(tiles), dict(markers)
        self._version = board.version
        if changed:
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


# Offsets and index maps as module constants: the table writers below run once an observation.
_ROUND_I, _TYPE_I, _PHASE_I, _STEP_I, _BONUS_I = (_I["round"], _I["type"], _I["phase"],
                                                  _I["step"], _I["bonus"])
_COMPANY_I, _CORP_I, _PRIVATE_I, _LINE_I, _COLOUR_I, _STADTBAHN_I = (
    _I["company"], _I["corp"], _I["private"], _I["line"], _I["colour"], _I["stadtbahn"])
_OTHER_STEP, _OTHER_BONUS = len(CR_STEPS), len(BONUSES)
_LINE_SIZE, _SEAT_SIZE, _COMPANY_SIZE = L.line_size, L.seat_size, L.company_size
_SEAT_PRIVATES, _SEAT_REST = 4 + _N_CORPS, 4 + _N_CORPS + _N_PRIVATES


def _round(state: Position, seat: int, out: array) -> None:
    """The game block (as ``g1840_v0._encode_round``; R-PRE-1, VIII.6, R-LR-1)."""
    n = state.n
    finished = state.finished
    if finished:
        out[L.finished] = 1.0
    out[L.players + n - 2] = 1.0
    rnd = state.round
    out[L.round + _ROUND_I[rnd.name]] = 1.0
    out[L.type + _TYPE_I[rnd.type]] = 1.0
    out[L.phase + _PHASE_I[rnd.phase]] = 1.0
    current = state.current_round
    detail = current.view(state)
    if detail.step is not None:
        out[L.step + _STEP_I.get(detail.step, _OTHER_STEP)] = 1.0
    if not finished:
        player = current.acting(state)
        turn = current.turn_view(state)
        out[L.actor + (player - seat) % n] = 1.0
        if player == seat:
            out[L.my_turn] = 1.0
        k = _COMPANY_I.get(turn.company)
        if k is not None:
            out[L.company + k] = 1.0
        k = _LINE_I.get(turn.line)
        if k is not None:
            out[L.line + k] = 1.0
    lt = detail.line_turn
    if lt is not None:
        at = L.line_turn
        for flag in (lt.first, lt.tile_laid, lt.stadtbahn_tile_laid, lt.station_placed,
                     lt.offer, lt.home_choice):
            if flag:
                out[at] = 1.0
            at += 1
        if lt.bonus:
            out[L.bonus + _BONUS_I.get(lt.bonus, _OTHER_BONUS)] = 1.0
    auction = detail.auction
    if auction is not None:
        out[L.auction_high] = auction.high / 100
        if isinstance(auction, PrivateAuctionView):  # R-PRE-1
            out[L.auction_private + _PRIVATE_I[auction.private]] = 1.0
            out[L.auction_seat + (auction.high_bidder - seat) % n] = 1.0
        else:  # VIII.6
            out[L.auction_line + _LINE_I[auction.line]] = 1.0
            out[L.auction_company + _COMPANY_I[auction.high_company]] = 1.0
    display, on_display = L.display, L.lines + _LINE_SIZE - 1
    for line in state.line_display:
        k = _LINE_I[line]
        out[display + k] = 1.0
        out[on_display + k * _LINE_SIZE] = 1.0  # the line block's "on display"
    out[L.deck] = len(state.line_deck) / 18
    trams = state.trams
    for _space, colour, count in trams.on_sale():
        out[L.on_sale + _COLOUR_I[colour]] += count / 10
    k = _COLOUR_I.get(trams.newest)
    if k is not None:
        out[L.newest + k] = 1.0


def _players(state: Position, seat: int, out: array) -> None:
    """The seat blocks, the agent's first (as ``g1840_v0._encode_players``): VII.3's
    certificates and R-END-1's wealth as :meth:`Position.certificates` and
    :meth:`Position.wealth` count them, with each price looked up once."""
    n = state.n
    order = state.order
    companies = state.companies
    ent = state.ent
    unit, director_pct, loan_value = ent.share_percent, ent.director_percent, ent.loan_end_value
    face = ent.privates
    price = state.price
    for s, p in enumerate(state.players):
        at = L.seat + (s - seat) % n * _SEAT_SIZE
        out[at] = 1.0
        out[at + 1] = p.cash / 1000
        out[at + 2] = p.loans / 5
        out[at + 3] = p.pre_emptive / 100
        certificates = len(p.privates)
        wealth = p.cash + p.loans * loan_value
        for corp, pct in p.shares.items():
            out[at + 4 + _CORP_I[corp]] = pct / 100
            tram = companies.get(corp)
            if tram is not None and tram.director == s:
                certificates += 1 + (pct - director_pct) // unit
            else:
                certificates += pct // unit
            wealth += pct // unit * price(corp)
        for priv in p.privates:
            out[at + _SEAT_PRIVATES + _PRIVATE_I[priv]] = 1.0
            wealth += face[priv].face_value
        at += _SEAT_REST
        out[at] = certificates / 20
        out[at + 1] = wealth / 1000
        if s in order:
            out[at + 2] = order.index(s) / SEATS


def _companies(state: Position, seat: int, out: array) -> None:
    """The tram company, line and Stadtbahn blocks but their markers (as
    ``g1840_v0._encode_companies``; the marker counts are the board part's)."""
    n = state.n
    where = state.market.where
    price = state.price
    for cid, c in state.companies.items():
        k = _COMPANY_I[cid]
        at = L.companies + k * _COMPANY_SIZE
        out[at] = 1.0
        out[at + 1 + (c.director - seat) % n] = 1.0
        at += 1 + SEATS
        lines = c.lines
        out[at] = c.par / 100
        out[at + 1] = price(cid) / 100
        out[at + 2] = c.treasury / 1000
        out[at + 3] = c.revenue / 1000
        out[at + 4] = len(lines) / 3
        at += 5
        trams = c.trams
        for t in trams:
            j = _COLOUR_I.get(t)
            if j is not None:
                out[at + j] += 1.0  # two trams of a colour count 2
        at += _COLOURS
        for priv in c.privates:
            out[at + _PRIVATE_I[priv]] = 1.0
        at += _N_PRIVATES
        out[at] = c.ipo / 100
        out[at + 1] = c.pool / 100
        cell = where.get(cid)
        if cell:
            out[at + 2] = cell[0] / 5
            out[at + 3] = cell[1] / 20
        for j, line in enumerate(lines):
            la = L.lines + _LINE_I[line] * _LINE_SIZE
            out[la + k] = 1.0
            if j < len(trams):
                colour = _COLOUR_I.get(trams[j])
                if colour is not None:
                    out[la + _N_COMPANIES + colour] = 1.0
    for sid, s in state.stadtbahn.items():
        at = L.stadtbahns + _STADTBAHN_I[sid] * L.stadtbahn_size
        out[at] = price(sid) / 100
        out[at + 1] = s.ipo / 100
        out[at + 2] = s.pool / 100
        out[at + 3] = s.last_run / 100
        cell = where.get(sid)
        if cell:
            out[at + 5] = cell[0] / 5
            out[at + 6] = cell[1] / 20


def _privates(state: Position, seat: int, out: array) -> None:
    """The private blocks: the owner seat or company (as ``g1840_v0``; IV.2)."""
    n = state.n
    owners = state.private_owner
    for priv in PRIVATES:
        at = L.privates + _PRIVATE_I[priv] * L.private_size
        owner = owners.get(priv)
        if isinstance(owner, int):
            out[at + 1 + (owner - seat) % n] = 1.0
        elif owner in _COMPANY_I:
            out[at + 1 + SEATS + _COMPANY_I[owner]] = 1.0
        else:
            out[at] = 1.0

assert len(HEXES) * _HEX_SIZE == OBS_SIZE - TABLES
