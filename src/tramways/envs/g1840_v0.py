"""1840 Vienna Tramways as a PettingZoo AEC environment (2-6 agents, everything public).

``env(render_mode=None, max_steps=10_000, players=4, small_map=False, names=None)``; agents
``player_1`` ... ``player_N`` (seats); the turn order is the engine's (a director acts for
their companies and lines, so an agent often acts several times in a row).  Actions:
:mod:`tramways.envs.g1840_catalogue` (49,183).

The observation (16,184 float32 values, built from the agent's ``view(seat)``; seats are
relative, the agent first, then the next seats in seat order; money / 1000, prices / 100)
holds, in order:

* the game: finished, players (one-hot 2..6), round of the Round Bar (one-hot 23), round
  type (PRE, SR, CR, LR), phase (yellow, green, brown, grey), company round step (d, post, e,
  final, mandatory, other), who acts (relative seat, company, line), the line turn (first
  turn, tile laid, Stadtbahn tile laid, station placed, offer pending, home circle pending, the
  pending Stadtbahn bonus one-hot 5 + other), the auction (private or line, high bid, high
  bidder seat or company), lines on display and the deck size, trams on sale per colour and
  the newest colour, whether it is the agent's turn: :data:`GLOBAL` values;
* per seat (6 slots, empty past the player count): present, cash, loans, pre-emptive right,
  percent of each of the 10 companies, the 6 privates held, certificates, wealth, position in
  the playing order: 23 values each;
* per tram company (WT, DT, SJE, BBG, WKB, GW): started, director seat (one-hot 6), par,
  price, treasury, revenue, lines / 3, trams per colour, privates held, IPO and pool
  percent, market row / 5 and column / 20: 27 each;
* per line (1..18): owning company (one-hot 6), its tram colour (one-hot 5), station
  markers / 6, on display: 13 each;
* per Stadtbahn company (W, V, G, D): price, IPO, pool, last run, markers / 6, market row
  and column: 7 each;
* per private: unsold or gone, owner seat (one-hot 6), owner company (one-hot 6): 13 each;
* per hex of the three maps (148): the tile (one-hot 58), its rotation (one-hot 6), and for
  location 0..3 the owner of a station marker there (6 tram companies + 4 Stadtbahn
  companies): 104 each.

Rewards at the end: places from +1 (first) to -1 (last) by final wealth (XI, R-END-1),
equal wealth shares a place; ``infos``: ``wealth`` and ``rank``.  Rendering: ``"ansi"`` (the
text view) and ``"rgb_array"`` (the board drawn from the view, needs cairosvg and libcairo).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from tramways.core.actions import Action
from tramways.core.game import Outcome
from tramways.envs.base import TramwaysEnv, wrap
from tramways.envs.g1840_catalogue import BLOCKS, CATALOGUE, MAX_LOCATION
from tramways.envs.g1840_fast import Observer
from tramways.envs.g1840_layout import (  # noqa: F401 (the layout, re-exported)
    _I,
    BONUSES,
    COMPANIES,
    CORPS,
    CR_STEPS,
    GLOBAL,
    HEXES,
    LINES,
    OBS_SIZE,
    PHASES,
    PRIVATES,
    ROUND_TYPES,
    ROUNDS,
    SEATS,
    STADTBAHN,
    TILES,
    L,
)
from tramways.envs.legal_map import legal_map_parts
from tramways.g1840.engine import State1840
from tramways.g1840.entities import TRAM_COLOURS
from tramways.g1840.position import Position
from tramways.g1840.view_types import PrivateAuctionView, View1840, as_view1840


def encode(view: View1840, seat: int) -> np.ndarray:
    """The observation of ``seat`` from its view (see the module docstring).

    Features are gathered as (index, value) pairs and summed by one weighted ``bincount``.
    """
    idx: list[int] = []
    val: list[float] = []
    put_i, put_v = idx.append, val.append

    def put(i: int, v: float = 1.0) -> None:
        put_i(i)
        put_v(v)

    _encode_round(view, seat, put)
    _encode_players(view, seat, put)
    _encode_companies(view, seat, put)
    _encode_privates_and_tiles(view, seat, put)
    return np.bincount(idx, weights=val, minlength=OBS_SIZE).astype(np.float32)


Put = Callable[..., None]
"""``put(index, value=1.0)``: one feature of the observation."""


def _encode_round(view: View1840, seat: int, put: Put) -> None:
    """The game block: the round, whose turn, the line turn, an auction, lines and trams."""
    n = len(view.players)

    def rel(s: int) -> int:
        return (s - seat) % n

    company_i, private_i = _I["company"], _I["private"]
    line_i, colour_i = _I["line"], _I["colour"]
    if view.finished:
        put(L.finished)
    put(L.players + n - 2)
    put(L.round + _I["round"][view.round])
    info = view.round_info
    put(L.type + _I["type"][info.type])
    put(L.phase + _I["phase"][info.phase])
    if info.step is not None:
        put(L.step + _I["step"].get(info.step, len(CR_STEPS)))
    turn = view.turn
    if turn is not None:
        put(L.actor + rel(turn.player))
        if turn.player == seat:
            put(L.my_turn)
        if turn.company in company_i:
            put(L.company + company_i[turn.company])
        if turn.line in line_i:
            put(L.line + line_i[turn.line])
    lt = info.line_turn
    if lt is not None:
        for k, flag in enumerate((lt.first, lt.tile_laid, lt.stadtbahn_tile_laid,
                                  lt.station_placed, lt.offer, lt.home_choice)):
            if flag:
                put(L.line_turn + k)
        if lt.bonus:
            put(L.bonus + _I["bonus"].get(lt.bonus, len(BONUSES)))
    auction = info.auction
    if isinstance(auction, PrivateAuctionView):  # R-PRE-1
        put(L.auction_private + private_i[auction.private])
        put(L.auction_high, auction.high / 100)
        put(L.auction_seat + rel(auction.high_bidder))
    elif auction is not None:  # VIII.6
        put(L.auction_line + line_i[auction.line])
        put(L.auction_high, auction.high / 100)
        put(L.auction_company + company_i[auction.high_company])
    for line in view.line_display:
        put(L.display + line_i[line])
    put(L.deck, view.line_deck / 18)
    for t in view.trams.on_sale:
        put(L.on_sale + colour_i[t.colour], t.count / 10)
    if view.trams.newest in colour_i:
        put(L.newest + colour_i[view.trams.newest])


def _encode_players(view: View1840, seat: int, put: Put) -> None:
    """The seat blocks, the agent's first."""
    n = len(view.players)
    corp_i, private_i = _I["corp"], _I["private"]
    order = view.playing_order
    for p in view.players:
        s = p.seat
        at = L.seat + (s - seat) % n * L.seat_size
        put(at)
        put(at + 1, p.cash / 1000)
        put(at + 2, p.loans / 5)
        put(at + 3, p.pre_emptive_right / 100)
        for corp, pct in p.shares.items():
            put(at + 4 + corp_i[corp], pct / 100)
        for priv in p.privates:
            put(at + 4 + len(CORPS) + private_i[priv])
        at += 4 + len(CORPS) + len(PRIVATES)
        put(at, p.certificates / 20)
        put(at + 1, p.value / 1000)
        if s in order:
            put(at + 2, order.index(s) / SEATS)


def _encode_companies(view: View1840, seat: int, put: Put) -> None:
    """The tram company, line and Stadtbahn blocks."""
    n = len(view.players)
    company_i, corp_i, private_i = _I["company"], _I["corp"], _I["private"]
    line_i, colour_i = _I["line"], _I["colour"]
    market = view.market
    tiles_at, colours = L.company_size, len(TRAM_COLOURS)
    for cid, c in view.companies.items():
        k = company_i[cid]
        at = L.companies + k * tiles_at
        put(at)
        put(at + 1 + (c.director - seat) % n)
        at += 1 + SEATS
        for j, v in enumerate((c.par / 100, c.price / 100, c.treasury / 1000,
                               c.revenue / 1000, len(c.lines) / 3)):
            put(at + j, v)
        at += 5
        for t in c.trams:
            if t in colour_i:
                put(at + colour_i[t])
        at += colours
        for priv in c.privates:
            put(at + private_i[priv])
        at += len(PRIVATES)
        put(at, c.ipo / 100)
        put(at + 1, c.pool / 100)
        cell = market.get(cid)
        if cell:
            put(at + 2, cell[0] / 5)
            put(at + 3, cell[1] / 20)
        trams = c.trams
        for j, line in enumerate(c.lines):
            la = L.lines + line_i[line] * L.line_size
            put(la + k)
            tram = trams[j] if j < len(trams) else None
            if tram in colour_i:
                put(la + len(COMPANIES) + colour_i[tram])
            put(la + len(COMPANIES) + colours, len(c.markers.get(line, ())) / 6)
        for places in c.markers.values():
            for place in places:
                _marker(put, place, corp_i[cid])
    for line in view.line_display:
        put(L.lines + line_i[line] * L.line_size + L.line_size - 1)
    for sid, s in view.stadtbahn.items():
        at = L.stadtbahns + _I["stadtbahn"][sid] * L.stadtbahn_size
        put(at, s.price / 100)
        put(at + 1, s.ipo / 100)
        put(at + 2, s.pool / 100)
        put(at + 3, s.last_run / 100)
        put(at + 4, len(s.markers) / 6)
        cell = market.get(sid)
        if cell:
            put(at + 5, cell[0] / 5)
            put(at + 6, cell[1] / 20)
        for place in s.markers:
            _marker(put, place, corp_i[sid])


def _encode_privates_and_tiles(view: View1840, seat: int, put: Put) -> None:
    """The private blocks (owner seat or company) and the hex blocks (tile, rotation)."""
    n = len(view.players)
    company_i, private_i = _I["company"], _I["private"]
    owners = view.privates
    for priv in PRIVATES:
        at = L.privates + private_i[priv] * L.private_size
        owner = owners.get(priv)
        if isinstance(owner, int):
            put(at + 1 + (owner - seat) % n)
        elif owner in company_i:
            put(at + 1 + SEATS + company_i[owner])
        else:
            put(at)
    hex_i, tile_i = _I["hex"], _I["tile"]
    for coord, placed in view.tiles.items():
        at = L.hexes + hex_i[coord] * L.hex_size
        put(at + tile_i[placed.tile])
        put(at + len(TILES) + placed.rotation)


def _marker(put: Any, place: str, owner: int) -> None:
    coord, loc = place.split(".")
    slot = min(int(loc), MAX_LOCATION)
    put(L.hexes + _I["hex"][coord] * L.hex_size + len(TILES) + 6 + slot * len(CORPS) + owner)


def picture(view: View1840) -> np.ndarray:
    """The board of ``view`` as an H x W x 3 uint8 array (drawn by the board renderer,
    rasterised by cairosvg into memory)."""
    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    from tramways.bots.g1840_model import board_of
    from tramways.g1840.render.svg import render_svg

    svg = render_svg(board_of(view), phase=view.round_info.phase)
    surface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96)
    image = surface.cairo
    image.flush()
    h, w, stride = image.get_height(), image.get_width(), image.get_stride()
    bgra = np.frombuffer(bytes(image.get_data()), dtype=np.uint8).reshape(h, stride // 4, 4)
    bgra = bgra[:, :w]
    alpha = bgra[:, :, 3:4].astype(np.uint16)
    rgb = bgra[:, :, 2::-1].astype(np.uint16) + (255 - alpha)  # premultiplied, on white
    return np.minimum(rgb, 255).astype(np.uint8)


class raw_env(TramwaysEnv):  # noqa: N801 (PettingZoo's name)
    """1840 (see the module docstring); ``env()`` is the wrapped form."""

    game_name = "1840"
    catalogue = CATALOGUE
    obs_size = OBS_SIZE
    obs_low = -np.inf  # a company's revenue may be negative (maintenance, Table 7)
    default_max_steps = 10_000
    """Truncation: games take a few hundred actions, but uniformly random play can pass
    forever in the Pre-Share Round when every private left costs more than anybody has
    (R-PRE-3 pays dividends only to owners)."""
    metadata = {**TramwaysEnv.metadata, "name": "g1840_v0"}

    def __init__(self, render_mode: str | None = None, max_steps: int | None = -1,
                 **settings: Any) -> None:
        super().__init__(render_mode=render_mode, max_steps=max_steps, **settings)
        self.observer = Observer()
        """Builds the observations; keeps this game's board part between them."""

    def encode(self, view: View1840, seat: int) -> np.ndarray:
        return encode(view, seat)

    def _list_legal(self, seat: int) -> Mapping[int, Action]:
        """The engine's listing in parts (:meth:`State1840.legal_parts
        <tramways.g1840.engine.State1840.legal_parts>`): a line's tile lays and the auction
        amounts are mapped to their indices without making their actions; the action played
        is made when looked up (:mod:`tramways.envs.legal_map`)."""
        state = self.state
        assert isinstance(state, State1840)
        return legal_map_parts(CATALOGUE, state.legal_parts(seat), BLOCKS)

    def observation_array(self, seat: int) -> np.ndarray:
        """``encode(view(seat), seat)``, read from the position itself
        (:mod:`tramways.envs.g1840_fast`: 1840 has no hidden information); the seats of one
        position share its tables (:attr:`position`)."""
        assert isinstance(self.state, Position)
        return self.observer.observe(self.state, seat, self.position)

    def final_infos(self, result: Outcome) -> list[dict[str, Any]]:
        """XI / R-END-1: each seat's wealth and place."""
        return [{"wealth": w, "rank": r} for w, r in zip(result.scores, result.places,
                                                         strict=True)]

    def render_rgb(self) -> np.ndarray:
        assert self.state is not None
        return picture(as_view1840(self.state.view(None)))


def env(**kwargs: Any) -> Any:
    """The 1840 environment (PettingZoo's order-enforcing wrapper around ``raw_env``)."""
    return wrap(raw_env(**kwargs))
