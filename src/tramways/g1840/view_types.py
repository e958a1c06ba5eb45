"""The shape of an 1840 view: frozen dataclasses, and their one JSON form.

Everything in 1840 is public (the view is the position, less the order of the line deck), so
:class:`View1840` is what every consumer reads: the text view, the web table, the environment's
encoder, the bots and the trace comparison.  They read attributes (mypy checks them); only the
server and ``tramways show --json`` need JSON, from :meth:`View1840.to_json`, and the pages read
a view the service sent back with :meth:`View1840.from_json`.  ``from_json(to_json())`` gives
the view back unchanged.

The JSON is the wire format the server and ``tramways show --json`` have always sent: keys a
round does not use are left out (a Company Round has ``company_order`` and ``step``; a Line
Round the ``line_turn``; an auction only while one runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from tramways.core.game import View

JSONObject = dict[str, Any]
"""A JSON object, as :func:`json.dumps` takes it."""

Owner = int | str
"""Who owns a private: a player seat, or a tram company id (IV.2)."""


def place_of(text: str) -> tuple[str, int]:
    """A station marker's place ``"F24.2"`` as (hex, location)."""
    coord, loc = text.split(".")
    return coord, int(loc)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player's holdings (III.3) and wealth (XI)."""

    seat: int
    name: str
    cash: int
    loans: int
    pre_emptive_right: int  # the Pre-emptive Right card's value, 0 once used (VII.5)
    shares: Mapping[str, int]  # company -> percent, by company id
    privates: tuple[str, ...]
    certificates: int  # counted against the limit (VII.3)
    value: int  # cash, shares at their price and privates at face value, less loans (XI)

    def to_json(self) -> JSONObject:
        return {"seat": self.seat, "name": self.name, "cash": self.cash, "loans": self.loans,
                "pre_emptive_right": self.pre_emptive_right, "shares": dict(self.shares),
                "privates": list(self.privates), "certificates": self.certificates,
                "value": self.value}

    @classmethod
    def from_json(cls, d: JSONObject) -> PlayerView:
        return cls(seat=d["seat"], name=d["name"], cash=d["cash"], loans=d["loans"],
                   pre_emptive_right=d["pre_emptive_right"], shares=dict(d["shares"]),
                   privates=tuple(d["privates"]), certificates=d["certificates"],
                   value=d["value"])


@dataclass(frozen=True, slots=True)
class CompanyView:
    """A tram company in the game (IV.1.2): its charter, its lines with their trams and
    station markers, its shares."""

    id: str
    name: str
    director: int
    par: int
    price: int
    treasury: int
    revenue: int
    lines: tuple[int, ...]
    trams: tuple[str | None, ...]  # trams[i] runs lines[i]; None: that line has no tram
    privates: tuple[str, ...]
    markers: Mapping[int, tuple[str, ...]]  # line -> its station markers as "hex.location"
    ipo: int  # percent still unsold (VII)
    pool: int  # percent in the share pool

    def tram_of(self, line: int) -> str | None:
        """The colour of the tram running ``line`` (None: none, or not the company's line)."""
        if line not in self.lines:
            return None
        i = self.lines.index(line)
        return self.trams[i] if i < len(self.trams) else None

    def to_json(self) -> JSONObject:
        return {"name": self.name, "director": self.director, "par": self.par,
                "price": self.price, "treasury": self.treasury, "revenue": self.revenue,
                "lines": list(self.lines), "trams": list(self.trams),
                "privates": list(self.privates),
                "markers": {str(line): list(m) for line, m in self.markers.items()},
                "ipo": self.ipo, "pool": self.pool}

    @classmethod
    def from_json(cls, cid: str, d: JSONObject) -> CompanyView:
        return cls(id=cid, name=d["name"], director=d["director"], par=d["par"],
                   price=d["price"], treasury=d["treasury"], revenue=d["revenue"],
                   lines=tuple(d["lines"]), trams=tuple(d["trams"]),
                   privates=tuple(d["privates"]),
                   markers={int(line): tuple(m) for line, m in d["markers"].items()},
                   ipo=d["ipo"], pool=d["pool"])


@dataclass(frozen=True, slots=True)
class StadtbahnView:
    """A Stadtbahn company (IV.1.3): no director, ten 10% shares, its last run (VIII.5.2)."""

    id: str
    price: int
    ipo: int
    pool: int
    last_run: int
    markers: tuple[str, ...]  # "hex.location"

    def to_json(self) -> JSONObject:
        return {"price": self.price, "ipo": self.ipo, "pool": self.pool,
                "last_run": self.last_run, "markers": list(self.markers)}

    @classmethod
    def from_json(cls, sid: str, d: JSONObject) -> StadtbahnView:
        return cls(id=sid, price=d["price"], ipo=d["ipo"], pool=d["pool"],
                   last_run=d["last_run"], markers=tuple(d["markers"]))


@dataclass(frozen=True, slots=True)
class PrivateAuctionView:
    """A private being auctioned in the Pre-Share Round (R-PRE-1)."""

    private: str
    high: int
    high_bidder: int  # seat
    opener_pos: int  # the opener's place in the playing order
    turn: int  # the seat to bid or pass

    def to_json(self) -> JSONObject:
        return {"private": self.private, "high": self.high, "high_bidder": self.high_bidder,
                "opener_pos": self.opener_pos, "turn": self.turn}


@dataclass(frozen=True, slots=True)
class LineAuctionView:
    """A line being auctioned among the tram companies in a Company Round (VIII.6)."""

    line: int
    high: int
    high_company: str
    turn: str  # the company to bid or pass

    def to_json(self) -> JSONObject:
        return {"line": self.line, "high": self.high, "high_company": self.high_company,
                "turn": self.turn}


AuctionView = PrivateAuctionView | LineAuctionView


def _auction_from_json(d: JSONObject) -> AuctionView:
    if "private" in d:
        return PrivateAuctionView(private=d["private"], high=d["high"],
                                  high_bidder=d["high_bidder"], opener_pos=d["opener_pos"],
                                  turn=d["turn"])
    return LineAuctionView(line=d["line"], high=d["high"], high_company=d["high_company"],
                           turn=d["turn"])


@dataclass(frozen=True, slots=True)
class LineTurn:
    """What the line in turn has done this turn (R-LR-1)."""

    line: int
    first: bool  # its first turn: it places its home marker (IX.6)
    tile_laid: bool
    stadtbahn_tile_laid: bool
    station_placed: bool
    bonus: str | None  # the pending Stadtbahn bonus (IX.4), e.g. "lay_red_inner_city_tile"
    offer: tuple[str, int, int] | None  # (private, price, seller) awaiting an answer (IV.2)
    home_choice: bool  # the home circle awaits the director (IX.6)
    bonus_circle: str | None = None  # the bonus marker's only circle ("D12.0")

    def to_json(self) -> JSONObject:
        return {"line": self.line, "first": self.first, "tile_laid": self.tile_laid,
                "stadtbahn_tile_laid": self.stadtbahn_tile_laid,
                "station_placed": self.station_placed, "bonus": self.bonus,
                "offer": list(self.offer) if self.offer else None, "home_choice": self.home_choice,
                **({"bonus_circle": self.bonus_circle} if self.bonus_circle else {})}

    @classmethod
    def from_json(cls, d: JSONObject) -> LineTurn:
        offer = d["offer"]
        return cls(line=d["line"], first=d["first"], tile_laid=d["tile_laid"],
                   stadtbahn_tile_laid=d["stadtbahn_tile_laid"],
                   station_placed=d["station_placed"], bonus=d["bonus"],
                   offer=(offer[0], offer[1], offer[2]) if offer else None,
                   home_choice=d["home_choice"], bonus_circle=d.get("bonus_circle"))


@dataclass(frozen=True, slots=True)
class RoundDetail:
    """What the round in progress adds to the view: the Company Round's order and step
    (VIII), an auction running (R-PRE-1, VIII.6), the Line Round's turn (R-LR-1)."""

    company_order: tuple[str, ...] | None = None
    step: str | None = None  # the Company Round's step: "d", "post", "e", ...
    auction: AuctionView | None = None
    line_turn: LineTurn | None = None


NO_DETAIL = RoundDetail()


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """The round of the Round Bar in progress (V) and the phase (VIII.3)."""

    name: str  # "PRE", "SR1", "CR1", "LR1a", ...
    type: str  # "PRE", "SR", "CR", "LR"
    phase: str  # "yellow", "green", "brown", "grey"
    detail: RoundDetail = NO_DETAIL

    @property
    def company_order(self) -> tuple[str, ...] | None:
        return self.detail.company_order

    @property
    def step(self) -> str | None:
        return self.detail.step

    @property
    def auction(self) -> AuctionView | None:
        return self.detail.auction

    @property
    def line_turn(self) -> LineTurn | None:
        return self.detail.line_turn

    def to_json(self) -> JSONObject:
        d = self.detail
        out: JSONObject = {"name": self.name, "type": self.type, "phase": self.phase}
        if d.company_order is not None:
            out["company_order"] = list(d.company_order)
        if d.step is not None:
            out["step"] = d.step
        if d.auction is not None:
            out["auction"] = d.auction.to_json()
        if d.line_turn is not None:
            out["line_turn"] = d.line_turn.to_json()
        return out

    @classmethod
    def from_json(cls, d: JSONObject) -> RoundInfo:
        order, auction, lt = d.get("company_order"), d.get("auction"), d.get("line_turn")
        detail = RoundDetail(
            company_order=tuple(order) if order is not None else None, step=d.get("step"),
            auction=_auction_from_json(auction) if auction else None,
            line_turn=LineTurn.from_json(lt) if lt else None)
        return cls(name=d["name"], type=d["type"], phase=d["phase"], detail=detail)


@dataclass(frozen=True, slots=True)
class TurnDetail:
    """Who acts for the player in turn: a company and its Company Round step, or a line."""

    company: str | None = None
    step: str | None = None
    line: int | None = None


@dataclass(frozen=True, slots=True)
class TurnView:
    """The player to act and, in a Company or Line Round, the company or line they act for."""

    player: int
    name: str
    detail: TurnDetail = TurnDetail()

    @property
    def company(self) -> str | None:
        return self.detail.company

    @property
    def step(self) -> str | None:
        return self.detail.step

    @property
    def line(self) -> int | None:
        return self.detail.line

    def to_json(self) -> JSONObject:
        out: JSONObject = {"player": self.player, "name": self.name}
        d = self.detail
        if d.company is not None:
            out["company"] = d.company
            out["step"] = d.step
        if d.line is not None:
            out["line"] = d.line
        return out

    @classmethod
    def from_json(cls, d: JSONObject) -> TurnView:
        return cls(player=d["player"], name=d["name"],
                   detail=TurnDetail(company=d.get("company"), step=d.get("step"),
                                     line=d.get("line")))


@dataclass(frozen=True, slots=True)
class TramOnSale:
    """A space of the tram buying section (VIII.3): its colour, how many, the price there."""

    space: int
    colour: str
    count: int
    price: int | None  # None: no price printed on that space

    def to_json(self) -> JSONObject:
        return {"space": self.space, "colour": self.colour, "count": self.count,
                "price": self.price}


@dataclass(frozen=True, slots=True)
class TramsView:
    """The tram buying section (III.5, VIII.3)."""

    on_sale: tuple[TramOnSale, ...]
    to_come: tuple[str, ...]  # colours still to come, next first
    newest: str | None  # the newest colour ever bought (Table 7)

    def to_json(self) -> JSONObject:
        return {"on_sale": [t.to_json() for t in self.on_sale], "to_come": list(self.to_come),
                "newest": self.newest}

    @classmethod
    def from_json(cls, d: JSONObject) -> TramsView:
        return cls(on_sale=tuple(TramOnSale(space=t["space"], colour=t["colour"],
                                            count=t["count"], price=t["price"])
                                 for t in d["on_sale"]),
                   to_come=tuple(d["to_come"]), newest=d["newest"])


@dataclass(frozen=True, slots=True)
class TileView:
    """A tile on the map: its id and rotation (0-5)."""

    tile: str
    rotation: int


class ResultJSON(TypedDict):
    """The JSON of a :class:`Result` (``State1840.outcome().to_json()``, also
    ``State1840.result()``)."""

    wealth: list[int]
    rank: list[int]
    winners: list[int]
    resigned: NotRequired[int]


@dataclass(frozen=True, slots=True)
class Result:
    """XI / R-END-1: wealth per seat and the ranking (equal wealth shares a place); the core's
    :class:`~tramways.core.game.Outcome` (``scores`` the wealth, ``places`` the rank)."""

    wealth: tuple[int, ...]
    rank: tuple[int, ...]
    winners: tuple[int, ...]
    resigned: int | None = None  # the seat whose resignation ended the game (docs/async.md)

    @property
    def scores(self) -> tuple[int, ...]:
        """XI: the game is ranked by wealth."""
        return self.wealth

    @property
    def places(self) -> tuple[int, ...]:
        """R-END-1: the rank (1 = the most wealth; equal wealth shares a place)."""
        return self.rank

    def to_json(self) -> ResultJSON:
        out = ResultJSON(wealth=list(self.wealth), rank=list(self.rank), winners=list(self.winners))
        return out if self.resigned is None else ResultJSON(**out, resigned=self.resigned)

    @classmethod
    def from_json(cls, d: JSONObject) -> Result:
        return cls(wealth=tuple(d["wealth"]), rank=tuple(d["rank"]),
                   winners=tuple(d["winners"]), resigned=d.get("resigned"))


@dataclass(frozen=True, slots=True)
class View1840:
    """The whole public position of a game of 1840, as seen by ``viewer`` (None: a
    spectator; everything is public, so only ``viewer`` differs between seats)."""

    ruleset: str
    edition: int  # of the rulings the game is played under (R-VERSION-1)
    viewer: int | None
    round_info: RoundInfo
    finished: bool
    turn: TurnView | None  # None once the game is over
    playing_order: tuple[int, ...]  # seats (VII.2)
    players: tuple[PlayerView, ...]  # by seat
    companies: Mapping[str, CompanyView]  # the tram companies in the game, by id
    stadtbahn: Mapping[str, StadtbahnView]
    market: Mapping[str, tuple[int, int]]  # company -> (row, column) of the share chart
    market_stacks: Mapping[tuple[int, int], tuple[str, ...]]  # X.1: top marker first
    privates: Mapping[str, Owner | None]  # private -> owner, None while unsold
    line_display: tuple[int, ...]
    line_deck: int  # the number of line cards left (their order is hidden)
    trams: TramsView
    tiles: Mapping[str, TileView]  # hex -> the tile laid there
    result: Result | None  # once finished
    programs: Mapping[str, str] = field(default_factory=dict)
    """The viewer's programmed actions, kind -> in words (games with programs only)."""

    @property
    def round(self) -> str:
        """The name of the round in progress ("PRE", "SR1", "CR1", "LR1a", ...)."""
        return self.round_info.name

    def price(self, corp: str) -> int:
        """The share price of a tram or Stadtbahn company."""
        company = self.companies.get(corp)
        return company.price if company is not None else self.stadtbahn[corp].price

    def company_of_line(self, line: int) -> str | None:
        """The tram company owning ``line`` (None: on display, in the deck)."""
        for cid, c in self.companies.items():
            if line in c.lines:
                return cid
        return None

    def to_json(self) -> JSONObject:
        """The JSON the server and ``tramways show --json`` send (the one place it is made)."""
        return {
            "game": "1840",
            "ruleset": self.ruleset,
            "edition": self.edition,
            "viewer": self.viewer,
            "round": self.round_info.name,
            "round_info": self.round_info.to_json(),
            "finished": self.finished,
            "turn": self.turn.to_json() if self.turn is not None else None,
            "playing_order": list(self.playing_order),
            "players": [p.to_json() for p in self.players],
            "companies": {cid: c.to_json() for cid, c in self.companies.items()},
            "stadtbahn": {sid: s.to_json() for sid, s in self.stadtbahn.items()},
            "market": {c: list(cell) for c, cell in self.market.items()},
            "market_stacks": {f"{r},{c}": list(s) for (r, c), s in self.market_stacks.items()},
            "privates": dict(self.privates),
            "line_display": list(self.line_display),
            "line_deck": self.line_deck,
            "trams": self.trams.to_json(),
            "tiles": {h: [t.tile, t.rotation] for h, t in self.tiles.items()},
            "result": self.result.to_json() if self.result is not None else None,
            **({"programs": dict(self.programs)} if self.programs else {}),
        }

    @classmethod
    def from_json(cls, d: JSONObject) -> View1840:
        """The view back from its JSON (what the service sent, a stored ``--json``)."""
        stacks = {}
        for key, stack in d.get("market_stacks", {}).items():
            row, col = key.split(",")
            stacks[(int(row), int(col))] = tuple(stack)
        return cls(
            ruleset=d["ruleset"], edition=d["edition"], viewer=d["viewer"],
            round_info=RoundInfo.from_json(d["round_info"]), finished=d["finished"],
            turn=TurnView.from_json(d["turn"]) if d["turn"] else None,
            playing_order=tuple(d["playing_order"]),
            players=tuple(PlayerView.from_json(p) for p in d["players"]),
            companies={cid: CompanyView.from_json(cid, c) for cid, c in d["companies"].items()},
            stadtbahn={sid: StadtbahnView.from_json(sid, s)
                       for sid, s in d["stadtbahn"].items()},
            market={c: (cell[0], cell[1]) for c, cell in d["market"].items()},
            market_stacks=stacks, privates=dict(d["privates"]),
            line_display=tuple(d["line_display"]), line_deck=d["line_deck"],
            trams=TramsView.from_json(d["trams"]),
            tiles={h: TileView(tile=t[0], rotation=t[1]) for h, t in d["tiles"].items()},
            result=Result.from_json(d["result"]) if d["result"] else None,
            programs=dict(d.get("programs", {})))


def as_view1840(view: View1840 | Mapping[str, Any] | View) -> View1840:
    """The typed view of ``view``, or of its JSON (what the service sends and the pages and
    their tests hold): the one door through which a JSON view becomes typed again.  A view
    of another game is a ``TypeError``."""
    if isinstance(view, View1840):
        return view
    if isinstance(view, Mapping):
        return View1840.from_json(dict(view))
    raise TypeError(f"not an 1840 view: {type(view).__name__}")


__all__ = ["AuctionView", "CompanyView", "LineAuctionView", "LineTurn", "NO_DETAIL",
           "PlayerView", "PrivateAuctionView", "Result", "ResultJSON", "RoundDetail", "RoundInfo",
           "StadtbahnView", "TileView", "TramOnSale", "TramsView", "TurnDetail", "TurnView",
           "View1840", "as_view1840", "place_of"]

