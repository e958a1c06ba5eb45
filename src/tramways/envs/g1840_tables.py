"""The tables of the :mod:`g1840_v0` observation written from the position (the game, seat,
company, line, Stadtbahn and private blocks; :mod:`g1840_fast` adds the per-hex block).

:func:`write_tables` writes, into a buffer holding zeros (and the marker counts, which are the
board part's), the values ``g1840_v0.encode(view(seat), seat)`` gives, value for value (tests
compare them over random games of 2-6 players and every map).  It runs once an observation, so
its offsets are module constants: each name (a round, a company, a line, ...) maps straight to
the absolute index of its value, and the share prices are read once (:func:`prices`).  The
buffer is written through a ``memoryview``: a float written through it skips the argument
parsing ``array``'s own item assignment does (about 10 ns of some 50 a value).
"""

from __future__ import annotations

from array import array
from typing import Any

from tramways.envs.g1840_layout import (
    _I,
    BONUSES,
    COMPANIES,
    CORPS,
    CR_STEPS,
    PRIVATES,
    SEATS,
    L,
)
from tramways.g1840.position import Position
from tramways.g1840.view_types import PrivateAuctionView

_N_COMPANIES, _N_CORPS, _N_PRIVATES = len(COMPANIES), len(CORPS), len(PRIVATES)
_COLOURS = len(_I["colour"])
_COLOUR_I, _PRIVATE_I = _I["colour"], _I["private"]
_LINE_SIZE, _SEAT_SIZE, _COMPANY_SIZE = L.line_size, L.seat_size, L.company_size


def _at(first: int, names: dict[Any, int], size: int = 1) -> dict[Any, int]:
    """Name -> the absolute index of its slot in the block at ``first`` (slots of ``size``)."""
    return {name: first + k * size for name, k in names.items()}


# the game block (g1840_v0._encode_round)
_FINISHED, _PLAYERS, _ACTOR, _MY_TURN = L.finished, L.players - 2, L.actor, L.my_turn
_ROUND_AT, _TYPE_AT, _PHASE_AT = (_at(L.round, _I["round"]), _at(L.type, _I["type"]),
                                  _at(L.phase, _I["phase"]))
_STEP_AT, _OTHER_STEP = _at(L.step, _I["step"]), L.step + len(CR_STEPS)
_BONUS_AT, _OTHER_BONUS = _at(L.bonus, _I["bonus"]), L.bonus + len(BONUSES)
_TURN_COMPANY_AT, _TURN_LINE_AT = _at(L.company, _I["company"]), _at(L.line, _I["line"])
_LINE_TURN = L.line_turn
_HIGH, _HIGH_SEAT = L.auction_high, L.auction_seat
_AUCTION_PRIVATE_AT, _AUCTION_LINE_AT, _AUCTION_COMPANY_AT = (
    _at(L.auction_private, _PRIVATE_I), _at(L.auction_line, _I["line"]),
    _at(L.auction_company, _I["company"]))
_DISPLAY_AT = _at(L.display, _I["line"])
_ON_DISPLAY_AT = _at(L.lines + _LINE_SIZE - 1, _I["line"], _LINE_SIZE)
"""A displayed line's flag in its line block (the block's last value)."""
_DECK, _ON_SALE_AT, _NEWEST_AT = L.deck, _at(L.on_sale, _COLOUR_I), _at(L.newest, _COLOUR_I)

# the seat blocks
_SEAT_AT = [L.seat + r * _SEAT_SIZE for r in range(SEATS)]
_SEAT_CORP = {corp: 4 + k for corp, k in _I["corp"].items()}
_SEAT_PRIVATE = {priv: 4 + _N_CORPS + k for priv, k in _PRIVATE_I.items()}
_SEAT_REST = 4 + _N_CORPS + _N_PRIVATES

# the company, line, Stadtbahn and private blocks
_COMPANY_AT = {cid: (k, L.companies + k * _COMPANY_SIZE) for cid, k in _I["company"].items()}
_COMPANY_PRIVATE = {priv: 1 + SEATS + 5 + _COLOURS + k for priv, k in _PRIVATE_I.items()}
_COMPANY_REST = 1 + SEATS + 5 + _COLOURS + _N_PRIVATES
_LINE_AT = _at(L.lines, _I["line"], _LINE_SIZE)
_LINE_COLOUR_AT = {colour: _N_COMPANIES + k for colour, k in _COLOUR_I.items()}
_STADTBAHN_AT = _at(L.stadtbahns, _I["stadtbahn"], L.stadtbahn_size)
_PRIVATE_AT = [(priv, L.privates + _PRIVATE_I[priv] * L.private_size) for priv in PRIVATES]
_COMPANY_OWNER = {cid: 1 + SEATS + k for cid, k in _I["company"].items()}
"""A private's owner company flag in its block."""


def prices(state: Position) -> dict[str, int]:
    """Every placed company's share price (X), as :meth:`Position.price` reads it."""
    rows = state.market.rows
    return {corp: rows[row][col] for corp, (row, col) in state.market.where.items()}


class Memo:
    """The seat and company blocks written last, each with what it was written from, so
    that an observation copies the blocks whose inputs did not change instead of writing them
    again (most steps change one player's or one company's figures, if any)."""

    __slots__ = ("ent", "shared", "players", "companies")

    def __init__(self) -> None:
        self.ent: Any = None
        """The edition's figures the blocks were written with (another game's: all again)."""
        self.shared: Any = None
        """Every share price and tram company director: a player's wealth and certificates
        depend on them, so another value writes every seat block again."""
        self.players: dict[int, tuple[Any, array]] = {}
        """Seat -> (its inputs, its block)."""
        self.companies: dict[str, tuple[Any, array]] = {}
        """Tram company -> (its inputs, its block; the line blocks are written every time):
        the inputs hold its price and its director's relative seat."""


def write_tables(state: Position, seat: int, out: array, memo: Memo | None = None) -> None:
    """Write the tables of ``seat`` (seats relative to it) into ``out`` (zeros but the marker
    counts).  ``memo``: the blocks written last, kept and used (see :class:`Memo`)."""
    price = prices(state)
    view = memoryview(out)
    if memo is None:
        memo = Memo()
    _round(state, seat, view)
    _players(state, seat, out, view, price, memo)
    _companies(state, seat, out, view, price, memo)
    _privates(state, seat, view)


def _round(state: Position, seat: int, out: Any) -> None:
    """The game block (as ``g1840_v0._encode_round``; R-PRE-1, VIII.6, R-LR-1)."""
    n = state.n
    finished = state.finished
    if finished:
        out[_FINISHED] = 1.0
    out[_PLAYERS + n] = 1.0
    rnd = state.round
    out[_ROUND_AT[rnd.name]] = 1.0
    out[_TYPE_AT[rnd.type]] = 1.0
    out[_PHASE_AT[rnd.phase]] = 1.0
    current = state.current_round
    detail = current.view(state)
    if detail.step is not None:
        out[_STEP_AT.get(detail.step, _OTHER_STEP)] = 1.0
    if not finished:
        player = current.acting(state)
        turn = current.turn_view(state)
        out[_ACTOR + (player - seat) % n] = 1.0
        if player == seat:
            out[_MY_TURN] = 1.0
        k = _TURN_COMPANY_AT.get(turn.company)
        if k is not None:
            out[k] = 1.0
        k = _TURN_LINE_AT.get(turn.line)
        if k is not None:
            out[k] = 1.0
    lt = detail.line_turn
    if lt is not None:
        at = _LINE_TURN
        for flag in (lt.first, lt.tile_laid, lt.stadtbahn_tile_laid, lt.station_placed,
                     lt.offer, lt.home_choice):
            if flag:
                out[at] = 1.0
            at += 1
        if lt.bonus:
            out[_BONUS_AT.get(lt.bonus, _OTHER_BONUS)] = 1.0
    auction = detail.auction
    if auction is not None:
        out[_HIGH] = auction.high / 100
        if isinstance(auction, PrivateAuctionView):  # R-PRE-1
            out[_AUCTION_PRIVATE_AT[auction.private]] = 1.0
            out[_HIGH_SEAT + (auction.high_bidder - seat) % n] = 1.0
        else:  # VIII.6
            out[_AUCTION_LINE_AT[auction.line]] = 1.0
            out[_AUCTION_COMPANY_AT[auction.high_company]] = 1.0
    for line in state.line_display:
        out[_DISPLAY_AT[line]] = 1.0
        out[_ON_DISPLAY_AT[line]] = 1.0
    out[_DECK] = len(state.line_deck) / 18
    trams = state.trams
    for _space, colour, count in trams.on_sale():
        out[_ON_SALE_AT[colour]] += count / 10
    k = _NEWEST_AT.get(trams.newest)
    if k is not None:
        out[k] = 1.0


def _players(state: Position, seat: int, out: array, view: Any, price: dict[str, int],
             memo: Memo) -> None:
    """The seat blocks, the agent's first (as ``g1840_v0._encode_players``): VII.3's
    certificates and R-END-1's wealth as :meth:`Position.certificates` and
    :meth:`Position.wealth` count them.  The playing order is a permutation of the seats
    (one card each).  A seat's block depends on its holdings, its place in the order, the
    prices and directors (:attr:`Memo.shared`) and the edition's figures; not on ``seat``,
    which only decides where it goes."""
    n = state.n
    ent = state.ent
    directors = {cid: c.director for cid, c in state.companies.items()}
    shared = (price, directors)
    if memo.ent is not ent:
        memo.ent = ent
        memo.players.clear()
        memo.companies.clear()
    if memo.shared != shared:
        memo.shared = shared
        memo.players.clear()
    kept = memo.players
    order = state.order
    for s, p in enumerate(state.players):
        at = _SEAT_AT[(s - seat) % n]
        key = (p.cash, p.loans, p.pre_emptive, tuple(p.shares.items()), tuple(p.privates),
               order.index(s) if s in order else None)
        was = kept.get(s)
        if was is not None and was[0] == key:
            out[at:at + _SEAT_SIZE] = was[1]
            continue
        _player(state, s, p, at, view, price, directors)
        kept[s] = (key, out[at:at + _SEAT_SIZE])


def _player(state: Position, s: int, p: Any, at: int, out: Any, price: dict[str, int],
            directors: dict[str, int]) -> None:
    """Seat ``s``'s block at ``at``."""
    ent = state.ent
    unit, director_pct = ent.share_percent, ent.director_percent
    face = ent.privates
    out[at] = 1.0
    out[at + 1] = p.cash / 1000
    out[at + 2] = p.loans / 5
    out[at + 3] = p.pre_emptive / 100
    privates = p.privates
    certificates = len(privates)
    wealth = p.cash + p.loans * ent.loan_end_value
    for corp, pct in p.shares.items():
        out[at + _SEAT_CORP[corp]] = pct / 100
        held = pct // unit
        if directors.get(corp) == s:
            certificates += 1 + (pct - director_pct) // unit
        else:
            certificates += held
        wealth += held * price[corp]
    for priv in privates:
        out[at + _SEAT_PRIVATE[priv]] = 1.0
        wealth += face[priv].face_value
    at += _SEAT_REST
    out[at] = certificates / 20
    out[at + 1] = wealth / 1000
    order = state.order
    if s in order:
        out[at + 2] = order.index(s) / SEATS


def _companies(state: Position, seat: int, out: array, view: Any, price: dict[str, int],
               memo: Memo) -> None:
    """The tram company, line and Stadtbahn blocks but their markers (as
    ``g1840_v0._encode_companies``; the marker counts are the board part's).  A company's
    block is copied when its inputs are those it was last written from; the line blocks are
    written every time."""
    n = state.n
    where = state.market.where
    kept = memo.companies
    for cid, c in state.companies.items():
        k, at = _COMPANY_AT[cid]
        lines, trams = c.lines, c.trams
        cell = where.get(cid)
        key = ((c.director - seat) % n, c.par, price[cid], c.treasury, c.revenue, len(lines),
               tuple(trams), tuple(c.privates), c.ipo, c.pool, cell)
        was = kept.get(cid)
        if was is not None and was[0] == key:
            out[at:at + _COMPANY_SIZE] = was[1]
        else:
            _company(c, at, key[0], price[cid], cell, view)
            kept[cid] = (key, out[at:at + _COMPANY_SIZE])
        for j, line in enumerate(lines):
            la = _LINE_AT[line]
            view[la + k] = 1.0
            if j < len(trams):
                colour = _LINE_COLOUR_AT.get(trams[j])
                if colour is not None:
                    view[la + colour] = 1.0
    for sid, s in state.stadtbahn.items():
        at = _STADTBAHN_AT[sid]
        view[at] = price[sid] / 100
        view[at + 1] = s.ipo / 100
        view[at + 2] = s.pool / 100
        view[at + 3] = s.last_run / 100
        cell = where.get(sid)
        if cell:
            view[at + 5] = cell[0] / 5
            view[at + 6] = cell[1] / 20


def _company(c: Any, at: int, director: int, price: int, cell: Any, out: Any) -> None:
    """A tram company's block at ``at`` (``director``: the director's relative seat)."""
    out[at] = 1.0
    out[at + 1 + director] = 1.0
    out[at + 7] = c.par / 100  # after the flag and the director's 6 (SEATS) slots
    out[at + 8] = price / 100
    out[at + 9] = c.treasury / 1000
    out[at + 10] = c.revenue / 1000
    out[at + 11] = len(c.lines) / 3
    for t in c.trams:
        j = _COLOUR_I.get(t)
        if j is not None:
            out[at + 12 + j] += 1.0  # two trams of a colour count 2
    for priv in c.privates:
        out[at + _COMPANY_PRIVATE[priv]] = 1.0
    rest = at + _COMPANY_REST
    out[rest] = c.ipo / 100
    out[rest + 1] = c.pool / 100
    if cell:
        out[rest + 2] = cell[0] / 5
        out[rest + 3] = cell[1] / 20


def _privates(state: Position, seat: int, out: Any) -> None:
    """The private blocks: the owner seat or company (as ``g1840_v0``; IV.2)."""
    n = state.n
    owners = state.private_owner
    for priv, at in _PRIVATE_AT:
        owner = owners.get(priv)
        if isinstance(owner, int):
            out[at + 1 + (owner - seat) % n] = 1.0
        elif owner in _COMPANY_OWNER:
            out[at + _COMPANY_OWNER[owner]] = 1.0
        else:
            out[at] = 1.0


assert SEATS == 6 and _COMPANY_SIZE == _COMPANY_REST + 4  # the company block's fixed offsets
