"""The :mod:`g1840_v0` observation built straight from the engine's position.

:func:`g1840_v0.encode` reads the agent's ``view(seat)``: building that typed view (every
player, company, marker and tile as frozen dataclasses) and then gathering its features costs
about as much as a step.  1840 has no hidden information (the view is the same for every seat
but its ``viewer``), so :func:`observe` reads the same figures from the position itself and
writes them into a float32 buffer: the same array, value for value (a test compares the two
over thousands of random positions), in a fraction of the time.

What only the board decides (the per-hex block: tiles and station markers, and each line's and
Stadtbahn company's marker count) changes only on a lay or a marker; it is kept per board
version (:attr:`tramways.g1840.board.Board.version`, never reused) and the lines each company
owns, and copied under the rest of the observation.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable

import numpy as np

from tramways.envs.g1840_catalogue import MAX_LOCATION
from tramways.envs.g1840_layout import (
    _I,
    BONUSES,
    COMPANIES,
    CORPS,
    CR_STEPS,
    OBS_SIZE,
    PRIVATES,
    SEATS,
    TILES,
    L,
)
from tramways.g1840.position import Position
from tramways.g1840.view_types import PrivateAuctionView

_ZEROS = array("f", bytes(4 * OBS_SIZE))
_BOARDS: dict[Hashable, array] = {}
_BOARDS_LIMIT = 256
"""Board parts kept (a miss only costs building one again)."""

_N_COMPANIES, _N_CORPS, _N_PRIVATES, _N_TILES = len(COMPANIES), len(CORPS), len(PRIVATES), len(TILES)
_COLOURS = len(_I["colour"])


def observe(state: Position, seat: int) -> np.ndarray:
    """The observation of ``seat`` (exactly ``g1840_v0.encode(state.view(seat), seat)``)."""
    out = array("f", _board_part(state))
    _round(state, seat, out)
    _players(state, seat, out)
    _companies(state, seat, out)
    _privates(state, seat, out)
    return np.frombuffer(out, dtype=np.float32)


def _board_part(state: Position) -> array:
    """The per-hex block and the marker counts, per board version and line ownership."""
    board = state.board
    key = (board.version, tuple((cid, tuple(c.lines)) for cid, c in state.companies.items()),
           tuple(state.stadtbahn))
    found = _BOARDS.get(key)
    if found is not None:
        return found
    out = array("f", _ZEROS)
    hex_i, tile_i, corp_i, line_i = _I["hex"], _I["tile"], _I["corp"], _I["line"]
    hexes, size = L.hexes, L.hex_size
    for coord, placed in board.placed().items():
        at = hexes + hex_i[coord] * size
        out[at + tile_i[placed.tile_id]] += 1.0
        out[at + _N_TILES + placed.rotation] += 1.0
    markers = L.hexes + _N_TILES + 6

    def mark(places: list[tuple[str, int]], owner: int) -> None:
        for coord, loc in places:
            slot = min(loc, MAX_LOCATION)
            out[markers + hex_i[coord] * size + slot * _N_CORPS + owner] += 1.0

    count_at = _N_COMPANIES + _COLOURS
    for cid, c in state.companies.items():
        for line in c.lines:
            places = board.line_markers(line)
            out[L.lines + line_i[line] * L.line_size + count_at] += len(places) / 6
            mark(places, corp_i[cid])
    for sid in state.stadtbahn:
        places = board.line_markers(sid)
        out[L.stadtbahns + _I["stadtbahn"][sid] * L.stadtbahn_size + 4] += len(places) / 6
        mark(places, corp_i[sid])
    if len(_BOARDS) >= _BOARDS_LIMIT:
        _BOARDS.clear()
    _BOARDS[key] = out
    return out


def _round(state: Position, seat: int, out: array) -> None:
    """The game block (as ``g1840_v0._encode_round``)."""
    n = state.n
    company_i, private_i, line_i, colour_i = (_I["company"], _I["private"], _I["line"],
                                              _I["colour"])
    if state.finished:
        out[L.finished] += 1.0
    out[L.players + n - 2] += 1.0
    rnd = state.round
    out[L.round + _I["round"][rnd.name]] += 1.0
    out[L.type + _I["type"][rnd.type]] += 1.0
    out[L.phase + _I["phase"][rnd.phase]] += 1.0
    detail = state.current_round.view(state)
    if detail.step is not None:
        out[L.step + _I["step"].get(detail.step, len(CR_STEPS))] += 1.0
    if not state.finished:
        player = state.current_round.acting(state)
        turn = state.current_round.turn_view(state)
        out[L.actor + (player - seat) % n] += 1.0
        if player == seat:
            out[L.my_turn] += 1.0
        if turn.company in company_i:
            out[L.company + company_i[turn.company]] += 1.0
        if turn.line in line_i:
            out[L.line + line_i[turn.line]] += 1.0
    lt = detail.line_turn
    if lt is not None:
        for k, flag in enumerate((lt.first, lt.tile_laid, lt.stadtbahn_tile_laid,
                                  lt.station_placed, lt.offer, lt.home_choice)):
            if flag:
                out[L.line_turn + k] += 1.0
        if lt.bonus:
            out[L.bonus + _I["bonus"].get(lt.bonus, len(BONUSES))] += 1.0
    auction = detail.auction
    if isinstance(auction, PrivateAuctionView):  # R-PRE-1
        out[L.auction_private + private_i[auction.private]] += 1.0
        out[L.auction_high] += auction.high / 100
        out[L.auction_seat + (auction.high_bidder - seat) % n] += 1.0
    elif auction is not None:  # VIII.6
        out[L.auction_line + line_i[auction.line]] += 1.0
        out[L.auction_high] += auction.high / 100
        out[L.auction_company + company_i[auction.high_company]] += 1.0
    display_at = L.lines + L.line_size - 1
    for line in state.line_display:
        out[L.display + line_i[line]] += 1.0
        out[display_at + line_i[line] * L.line_size] += 1.0  # the line block's "on display"
    out[L.deck] += len(state.line_deck) / 18
    for _space, colour, count in state.trams.on_sale():
        out[L.on_sale + colour_i[colour]] += count / 10
    if state.trams.newest in colour_i:
        out[L.newest + colour_i[state.trams.newest]] += 1.0


def _players(state: Position, seat: int, out: array) -> None:
    """The seat blocks, the agent's first (as ``g1840_v0._encode_players``)."""
    n = state.n
    corp_i, private_i = _I["corp"], _I["private"]
    order = state.order
    privates_at = 4 + _N_CORPS
    rest_at = privates_at + _N_PRIVATES
    for s, p in enumerate(state.players):
        at = L.seat + (s - seat) % n * L.seat_size
        out[at] += 1.0
        out[at + 1] += p.cash / 1000
        out[at + 2] += p.loans / 5
        out[at + 3] += p.pre_emptive / 100
        for corp, pct in p.shares.items():
            out[at + 4 + corp_i[corp]] += pct / 100
        for priv in p.privates:
            out[at + privates_at + private_i[priv]] += 1.0
        at += rest_at
        out[at] += state.certificates(s) / 20
        out[at + 1] += state.wealth(s) / 1000
        if s in order:
            out[at + 2] += order.index(s) / SEATS


def _companies(state: Position, seat: int, out: array) -> None:
    """The tram company, line and Stadtbahn blocks but their markers (as
    ``g1840_v0._encode_companies``; the markers are the board part's)."""
    n = state.n
    company_i, private_i, line_i, colour_i = (_I["company"], _I["private"], _I["line"],
                                              _I["colour"])
    where = state.market.where
    for cid, c in state.companies.items():
        k = company_i[cid]
        at = L.companies + k * L.company_size
        out[at] += 1.0
        out[at + 1 + (c.director - seat) % n] += 1.0
        at += 1 + SEATS
        out[at] += c.par / 100
        out[at + 1] += state.price(cid) / 100
        out[at + 2] += c.treasury / 1000
        out[at + 3] += c.revenue / 1000
        out[at + 4] += len(c.lines) / 3
        at += 5
        trams = c.trams
        for t in trams:
            if t in colour_i:
                out[at + colour_i[t]] += 1.0
        at += _COLOURS
        for priv in c.privates:
            out[at + private_i[priv]] += 1.0
        at += _N_PRIVATES
        out[at] += c.ipo / 100
        out[at + 1] += c.pool / 100
        cell = where.get(cid)
        if cell:
            out[at + 2] += cell[0] / 5
            out[at + 3] += cell[1] / 20
        for j, line in enumerate(c.lines):
            la = L.lines + line_i[line] * L.line_size
            out[la + k] += 1.0
            tram = trams[j] if j < len(trams) else None
            if tram in colour_i:
                out[la + _N_COMPANIES + colour_i[tram]] += 1.0
    for sid, s in state.stadtbahn.items():
        at = L.stadtbahns + _I["stadtbahn"][sid] * L.stadtbahn_size
        out[at] += state.price(sid) / 100
        out[at + 1] += s.ipo / 100
        out[at + 2] += s.pool / 100
        out[at + 3] += s.last_run / 100
        cell = where.get(sid)
        if cell:
            out[at + 5] += cell[0] / 5
            out[at + 6] += cell[1] / 20


def _privates(state: Position, seat: int, out: array) -> None:
    """The private blocks: the owner seat or company (as ``g1840_v0``)."""
    n = state.n
    company_i, private_i = _I["company"], _I["private"]
    owners = state.private_owner
    for priv in PRIVATES:
        at = L.privates + private_i[priv] * L.private_size
        owner = owners.get(priv)
        if isinstance(owner, int):
            out[at + 1 + (owner - seat) % n] += 1.0
        elif owner in company_i:
            out[at + 1 + SEATS + company_i[owner]] += 1.0
        else:
            out[at] += 1.0
