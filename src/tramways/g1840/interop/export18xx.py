"""Exporting a game of ours as an 18xx.games export of 1840 (issue 22).

:func:`export_record` replays a tramways record of 1840 played under the 18xx.games ruleset
(X-1..X-20) and writes every action in the site's export format, so that the site's engine
loads it to the same figures; :func:`tramways.g1840.interop.importer.import_export` reads it
back to the same record (``import(export(g)) == g``).

What the site needs beyond our notation, kept here while replaying:

* **ids of pieces**: a player's id (seat + 1), share certificates (``WT_0`` is the director's,
  ``W_3`` a Stadtbahn share: the lowest one where the share is bought from), trams
  (``O1-2``: the colour's next copy in the depot; the variant names the price paid, ``O2`` =
  200), tiles (``57-1``: the lowest copy of that tile not on the map; a printed hex's own tile
  is ``HEX-0``) and cities (``TILE-COPY-CITY``, CITY = the interchange's index on the tile);
* **the site's steps that our engine settles without an action** (the inverse of the
  importer's mapping, docs/interop.md): the pass that ends a line's track step before its run,
  the reassignment step after a company's buying turn (``reassign_trains`` with every tram,
  automatic when one tram meets one line), the Stadtbahn runs after the last dividend (auto
  actions with the revenue our engine paid), a home marker the site asks for;
* **what the site does by itself and our record has as an action**: a player's pass when
  passing is all they can do, the last playing-order card, the consent to a sale.

A record the site would not accept is refused with one line naming the first action or the
ruling: a game under the printed rules (their rulings differ from the site's: X-1..X-20), a
set-up that is not the site's draw for the record's seed.  A sale at a recorded price (X-19, in
records imported from the site's random generator) is written with that ``share_price``, which
the site's engine pays as our import did.  Runs are written with the revenue before maintenance (the
figure the site records and trusts on loading) and the stops and track of our route.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tramways.core.errors import TramwaysError
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.interop.setup18xx import ENGINE_COMPANY_ID, compute_setup
from tramways.g1840.site_draw import M

TITLE = "1840"
SMALL_MAP_RULE = "three_player_small"
SITE_COMPANY_ID = {ours: site for site, ours in ENGINE_COMPANY_ID.items()}
"""Our tram company id -> the site's (``DT`` -> ``DT K&C``, ``GW`` -> ``GWStStB``)."""

TRAM_PREFIX = {"yellow": "Y", "orange": "O", "red": "R", "pink": "Pi", "purple": "Pu"}
"""Tram colour -> the site's train name prefix (VIII.3)."""

VARIANT_PRICES: dict[str, tuple[int, ...]] = {
    "yellow": (100, 50),
    "orange": (300, 200, 100),
    "red": (500, 400, 300),
    "pink": (600, 500, 400),
    "purple": (800, 600),
}
"""The site's price of each variant of a tram (``O1`` 300, ``O2`` 200, ``O3`` 100)."""

STADTBAHN_ORDER = ("W", "V", "G", "D")
"""The Stadtbahn companies in the order the site numbers their ``City`` trains."""

DIRECTOR_CERTIFICATE = 0
"""A tram company's director certificate is its share number 0."""


class ExportError18xx(TramwaysError):
    """A game that cannot be written for 18xx.games (one line naming the action or ruling)."""


@dataclass
class _Pieces:
    """The site's ids of the pieces in play, followed while our record replays."""

    certs: dict[str, dict[int, Any]] = field(default_factory=dict)  # company -> n -> holder
    depot: dict[str, int] = field(default_factory=dict)  # colour -> next copy
    trams: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # co -> (id, colour)
    on_line: dict[int, str] = field(default_factory=dict)  # line -> tram id
    tiles: dict[str, str] = field(default_factory=dict)  # hex -> piece id on it
    slots: dict[tuple[str, int], list[Any]] = field(default_factory=dict)


def _player_id(seat: int) -> int:
    return seat + 1


def _site_company(co: str) -> str:
    return SITE_COMPANY_ID.get(co, co)


def _variant(colour: str, price: int) -> str:
    prices = VARIANT_PRICES[colour]
    prefix = TRAM_PREFIX[colour]
    if price in prices:
        return f"{prefix}{prices.index(price) + 1}"
    return f"{prefix}1"


class Exporter:
    """Writes the site's actions for a record, one of our actions at a time."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.actions: list[dict[str, Any]] = []
        self.pieces = _Pieces()
        empty = record.model_copy(update={"actions": []})
        self.session = Session.from_record(empty)
        self.pending_arrange: set[str] = set()
        self.step_closed: set[str] = set()  # companies whose buying step the site ended
        self.site_on_line: dict[int, str] = {}  # line -> tram, as the site has them placed
        self.turn_ended_line: int | None = None  # a line whose turn the site ended (scrap)
        self.pending_home: tuple[int, int, str] | None = None  # (laying line, owner, hex)
        self.skip_next_station = False
        self.reservations: dict[tuple[str, int], list[int | None]] = {}
        self.upcoming: str | None = None  # our next action (a removal may belong to it)
        self._init_slots()

    # --- helpers ---------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.session.state

    def emit(self, type_: str, entity: Any, entity_type: str, **fields: Any) -> dict[str, Any]:
        action = {"type": type_, "entity": entity, "entity_type": entity_type,
                  "id": len(self.actions) + 1, **fields}
        self.actions.append(action)
        return action

    def auto(self, type_: str, entity: Any, entity_type: str, **fields: Any) -> None:
        """An action the site takes by itself, embedded in the last action's auto actions."""
        if not self.actions:
            raise ExportError18xx("an automatic action before any action")
        self.actions[-1].setdefault("auto_actions", []).append(
            {"type": type_, "entity": entity, "entity_type": entity_type, **fields})

    def player(self, seat: int, type_: str, **fields: Any) -> None:
        self.emit(type_, _player_id(seat), "player", **fields)

    def company(self, co: str, type_: str, **fields: Any) -> None:
        self.emit(type_, _site_company(co), "corporation", **fields)

    def line(self, line: int, type_: str, **fields: Any) -> None:
        self.emit(type_, str(line), "corporation", **fields)

    # --- share certificates ----------------------------------------------------------
    def _certs(self, co: str) -> dict[int, Any]:
        if co not in self.pieces.certs:
            if co in self.state.stadtbahn:
                self.pieces.certs[co] = {n: "ipo" for n in range(10)}
            else:
                self.pieces.certs[co] = {n: "ipo" for n in range(6)}
        return self.pieces.certs[co]

    def _share_id(self, co: str, n: int) -> str:
        return f"{_site_company(co)}_{n}"

    def _holdings(self, co: str) -> tuple[int, int]:
        if co in self.state.stadtbahn:
            s = self.state.stadtbahn[co]
            return s.ipo, s.pool
        c = self.state.companies[co]
        return c.ipo, c.pool

    # --- trams -----------------------------------------------------------------------
    def _new_tram(self, colour: str) -> str:
        k = self.pieces.depot.get(colour, 0)
        self.pieces.depot[colour] = k + 1
        return f"{TRAM_PREFIX[colour]}1-{k}"

    def _sync_trams(self, co: str) -> None:
        """Follow our company's tram places: ``on_line`` for each of its lines."""
        company = self.state.companies.get(co)
        if company is None:
            return
        owned = list(self.pieces.trams.get(co, []))
        for line in company.lines:
            self.pieces.on_line.pop(line, None)
        free = list(owned)
        placed: dict[int, str] = {}
        # keep a tram on its line when the colour still matches
        for line, colour in zip(company.lines, company.trams, strict=False):
            if colour is None:
                continue
            prev = self._prev_on_line.get(line)
            match = next((t for t in free if t[0] == prev and t[1] == colour), None)
            if match is not None:
                placed[line] = match[0]
                free.remove(match)
        for line, colour in zip(company.lines, company.trams, strict=False):
            if colour is None or line in placed:
                continue
            match = next((t for t in free if t[1] == colour), None)
            if match is None:
                raise ExportError18xx(f"{co}: no {colour} tram to put on line {line}")
            placed[line] = match[0]
            free.remove(match)
        self.pieces.on_line.update(placed)
        self._prev_on_line.update(placed)

    _prev_on_line: dict[int, str] = {}

    def _assignments(self, co: str) -> list[dict[str, str]]:
        company = self.state.companies[co]
        on_line = {t: line for line, t in self.pieces.on_line.items() if line in company.lines}
        out = []
        for tram, _ in self.pieces.trams.get(co, []):
            target = on_line.get(tram)
            out.append({"train": tram, "corporation": str(target) if target is not None
                        else _site_company(co)})
        return out

    # --- tiles and cities ------------------------------------------------------------
    def _tile_piece(self, tile: str) -> str:
        used = {p for p in self.pieces.tiles.values() if p.rpartition("-")[0] == tile}
        k = 0
        while f"{tile}-{k}" in used:
            k += 1
        return f"{tile}-{k}"

    def _piece_on(self, coord: str) -> str:
        return self.pieces.tiles.get(coord, f"{coord}-0")

    def _city(self, coord: str, location: int) -> str:
        interchanges = [loc.id for loc in self.state.board.locations(coord) if loc.is_interchange]
        if location not in interchanges:
            raise ExportError18xx(f"{coord}.{location} is not a circle of the site's map")
        return f"{self._piece_on(coord)}-{interchanges.index(location)}"

    def _slots(self, coord: str, location: int) -> list[Any]:
        """The site's token slots of a circle (owner or ``None``), as placed so far."""
        return self.pieces.slots.setdefault((coord, location), [])

    def _reserved(self, coord: str, location: int) -> list[int | None]:
        return self.reservations.get((coord, location), [])

    def _init_slots(self) -> None:
        """The site reserves a slot on each single-circle home hex for its lines (in number
        order) and puts the Stadtbahn markers in the first slots left."""
        board, ent = self.state.board, self.state.ent
        lines = sorted(set(self.state.line_display) | set(self.state.line_deck))
        for line in lines:
            coord = ent.lines[line].home_hex
            circles = self._circles(coord)
            if len(circles) == 1:
                self.reservations.setdefault((coord, circles[0]), []).append(line)
        for coord, by_loc in board.all_markers().items():
            for loc, owners in by_loc.items():
                for owner in owners:
                    self._occupy(owner, coord, loc)

    def _occupy(self, owner: Any, coord: str, location: int) -> int:
        """Put a token in the slot the site gives it (its reservation, else the first slot
        neither taken nor reserved); the slot's index."""
        slots = self._slots(coord, location)
        if owner in slots:
            return slots.index(owner)
        reserved = self._reserved(coord, location)
        slot = reserved.index(owner) if owner in reserved else next(
            (k for k in range(max(len(slots), len(reserved)) + 1)
             if (k >= len(slots) or slots[k] is None)
             and (k >= len(reserved) or reserved[k] is None)), len(slots))
        while len(slots) <= slot:
            slots.append(None)
        slots[slot] = owner
        return slot

    def _vacate(self, owner: Any, coord: str) -> None:
        for loc in self._circles(coord):
            slots = self._slots(coord, loc)
            if owner in slots:
                slots[slots.index(owner)] = None

    # --- the export ------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        self._prev_on_line = {}
        for index, text in enumerate(self.record.actions):
            self.upcoming = (self.record.actions[index + 1]
                             if index + 1 < len(self.record.actions) else None)
            try:
                self.step(index, text)
            except ExportError18xx as exc:
                raise ExportError18xx(f"action {index} ({text!r}): {exc}") from None
        self.settle_home(None)
        return self.document()

    def step(self, index: int, text: str) -> None:
        action = self.session.game.parse_action(text)
        before = self.state
        name = type(action).__name__
        if self.turn_ended_line is not None and getattr(action, "line", None) != (
                self.turn_ended_line):
            self.turn_ended_line = None
        if name not in ("Done", "Arrange", "BuyTram", "CompanyReturnPrivate"):
            self.step_closed.clear()  # the site's closed step only waits for its ``done``
        self.settle_home(action)
        line = getattr(action, "line", None)
        turn = getattr(before.sub, "turn", None)
        uses = "PlaceStation" if turn is not None and getattr(
            turn, "bonus", None) == "place_additional_station_marker" else "LayTile"
        if name == "RemoveMarker" and self._replaced(action):
            name = "PlaceStation"  # part of the station that follows (the site's removal)
        if (name not in (uses, "SkipBonus", "Run") and turn is not None
                and line is not None and getattr(turn, "line", None) == line and turn.bonus
                and not turn.ran):
            self.line(line, "pass")  # the site's bonus step blocks: the bonus is declined
        handler = _HANDLERS.get(type(action).__name__)
        if handler is None:
            raise ExportError18xx(f"no 18xx.games action for {type(action).__name__}")
        pre = handler(self, action, before)
        lines = self.session.play(text)
        post = _POST.get(type(action).__name__)
        if post is not None:
            post(self, action, pre)
        self.after(lines, action)

    def _replaced(self, action: Any) -> bool:
        """Whether a removal of a Stadtbahn marker is followed by the same line's station on
        that circle: the site's ``place_token`` removes the marker by itself (R-LR-5)."""
        return self.upcoming == f"L{action.line} station {action.hex}.{action.location}"

    def settle_home(self, action: Any) -> None:
        """The site's choice of a lifted home marker's circle (see ``_lay_post``): the next
        action moves it (a station on that hex: written here, and the action is then only the
        move), or it stays where our engine put it."""
        if self.pending_home is None:
            return
        layer, owner, coord = self.pending_home
        self.pending_home = None
        turn = getattr(self.state.sub, "turn", None)
        moving = (type(action).__name__ == "PlaceStation" and action.line == layer
                  and action.hex == coord and getattr(turn, "home_lifted", None) == coord)
        loc = action.location if moving else next(
            loc for c, loc in self.state.board.line_markers(owner) if c == coord)
        self._vacate(owner, coord)
        slot = self._occupy(owner, coord, loc)
        self.line(layer, "place_token", city=self._city(coord, loc), slot=slot,
                  tokener=str(layer))
        if moving:
            self.skip_next_station = True

    def _home_choice(self, line: int, where: str) -> None:
        """The site asks the circle of a home marker on a tiled home hex printed with two
        circles or more (its HomeToken step, as R-LR-13; it reserved no circle there); our
        engine placed it by itself."""
        coord, loc = where.split(".")
        board = self.state.board
        if board.tile(coord) is None:
            if len(self._circles(coord)) == 1:
                self._occupy(line, coord, int(loc))  # the site places it by itself
            return
        printed = [k for k in board.hex(coord).locations if k.is_interchange]
        if len(printed) < 2:
            self._occupy(line, coord, int(loc))  # the site places it by itself
            return  # (on a hex printed with two circles the site reserved no circle: it asks)
        slot = self._occupy(line, coord, int(loc))
        self.line(line, "place_token", city=self._city(coord, int(loc)), slot=slot,
                  tokener=str(line))

    def _circles(self, coord: str) -> list[int]:
        return [loc.id for loc in self.state.board.locations(coord) if loc.is_interchange]

    def after(self, lines: Iterable[str], action: Any = None) -> None:
        """The site's actions for what our engine did by itself: a company that cannot open
        a line auction is asked and passes (X-17), the Stadtbahn companies run (auto
        actions)."""
        for ln in lines:
            if ln.endswith(" cannot open an auction and passes"):
                self.company(ln.split()[0], "pass")
            if ln.startswith("Line ") and " places its home marker on " in ln:
                line = int(ln.split()[1])
                if not (type(action).__name__ == "PlaceStation" and action.line == line):
                    self._home_choice(line, ln.rsplit(" ", 1)[1])
                else:
                    coord, loc = ln.rsplit(" ", 1)[1].split(".")
                    self._occupy(line, coord, int(loc))
        runs = [ln for ln in lines if ln.startswith("Stadtbahn ") and " runs for " in ln]
        for ln in runs:
            company = ln.split()[1]
            total = self._stadtbahn_revenue(company)
            if total <= 0:
                continue
            n = [s for s in STADTBAHN_ORDER if s in self.state.stadtbahn].index(company)
            self.auto("run_routes", company, "corporation", routes=[
                {"train": f"City-{n}", "connections": [], "hexes": [], "revenue": total,
                 "nodes": []}],
                extra_revenue=0, subsidy=0)

    def _stadtbahn_revenue(self, company: str) -> int:
        from tramways.g1840.stadtbahn_runs import stadtbahn_run

        # the site records the run unmultiplied and multiplies it when paying (VIII.5.2)
        return int(stadtbahn_run(self.state.board, company, self.state.phase, 1).revenue)

    def document(self) -> dict[str, Any]:
        settings = self.record.settings
        names = list(settings["names"])
        small = bool(settings.get("small_map"))
        finished = bool(self.state.finished)
        doc: dict[str, Any] = {
            "id": self.record.meta.get("game_id", 1) if self.record.meta else 1,
            "description": "exported from tramways",
            "players": [{"id": _player_id(i), "name": n} for i, n in enumerate(names)],
            "min_players": 2, "max_players": 6, "title": TITLE,
            "settings": {"seed": self.record.seed, "optional_rules":
                         [SMALL_MAP_RULE] if small else []},
            "status": "finished" if finished else "active",
            "actions": self.actions,
            "loaded": True,
        }
        if finished:
            result = self.state.result()
            wealth = result.get("wealth") if isinstance(result, dict) else None
            if wealth is not None:
                doc["result"] = {str(_player_id(i)): w for i, w in enumerate(wealth)}
        return doc


# --- handlers: our action -> the site's (before our engine plays it) ------------------


def _bid(ex: Exporter, a: Any, s: Any) -> None:
    ex.player(a.player, "bid", company=a.private, price=a.amount)


def _pass(ex: Exporter, a: Any, s: Any) -> None:
    seat = a.player
    legal = ex.session.legal_notation(seat)
    me = f"P{seat + 1}"
    turn = s.sub.turn_view(s)
    if (turn.company is None and turn.line is None
            and all(t == f"{me} pass" or " return " in t or " scrap " in t for t in legal)):
        return  # the site passes by itself: "has no valid actions and passes"
    ex.player(seat, "pass")


def _order(ex: Exporter, a: Any, s: Any) -> None:
    options = [t for t in ex.session.legal_notation(a.player) if " order " in t]
    if len(options) <= 1:
        return  # the site gives the last card by itself
    ex.player(a.player, "choose", choice=a.card - 1)


def _par(ex: Exporter, a: Any, s: Any) -> Any:
    return a


def _par_post(ex: Exporter, a: Any, pre: Any) -> None:
    row, col = ex.state.market.where[a.company]
    certs = ex._certs(a.company)
    certs[DIRECTOR_CERTIFICATE] = a.player
    ex.player(a.player, "par", corporation=_site_company(a.company),
              share_price=f"{a.price},{row},{col}")


def _buy_share(ex: Exporter, a: Any, s: Any) -> Any:
    return ex._holdings(a.company)


def _buy_share_post(ex: Exporter, a: Any, pre: tuple[int, int]) -> None:
    ipo, pool = ex._holdings(a.company)
    where = "pool" if pool < pre[1] else "ipo"
    certs = ex._certs(a.company)
    n = min(k for k, h in certs.items() if h == where and k != DIRECTOR_CERTIFICATE
            or (h == where and a.company in ex.state.stadtbahn))
    certs[n] = a.player
    ex.player(a.player, "buy_shares", shares=[ex._share_id(a.company, n)], percent=10)


def _sell(ex: Exporter, a: Any, s: Any) -> None:
    certs = ex._certs(a.company)
    mine = sorted((k for k, h in certs.items() if h == a.player and not (
        k == DIRECTOR_CERTIFICATE and a.company not in ex.state.stadtbahn)), reverse=True)
    sold = mine[:a.count]
    if len(sold) != a.count:
        raise ExportError18xx(f"P{a.player + 1} holds no {a.count} shares of {a.company} to sell")
    for k in sold:
        certs[k] = "pool"
    price = {} if a.price is None else {"share_price": a.price}  # as it was recorded
    ex.player(a.player, "sell_shares", shares=[ex._share_id(a.company, k) for k in sold],
              percent=10 * a.count, **price)


def _return_private(ex: Exporter, a: Any, s: Any) -> None:
    ex.emit("choose_ability", a.private, "company", choice="sell")


def _accept(ex: Exporter, a: Any, s: Any) -> None:
    return  # the site's sale to a line needs no consent (IV.2)


def _dividend(ex: Exporter, a: Any, s: Any) -> None:
    ex.company(a.company, "dividend", kind="variable", amount=a.amount)


def _buy_tram(ex: Exporter, a: Any, s: Any) -> None:
    from tramways.g1840.mechanics.trams import price_of

    price = price_of(s, a.colour)
    if price is None:
        raise ExportError18xx(f"no {a.colour} tram on sale")
    tram = ex._new_tram(a.colour)
    ex.pieces.trams.setdefault(a.company, []).append((tram, a.colour))
    ex.company(a.company, "buy_train", train=tram, price=price,
               variant=_variant(a.colour, price))


def _scrap(ex: Exporter, a: Any, s: Any) -> None:
    trams = ex.pieces.trams.get(a.company, [])
    if a.line is not None:
        tram = ex.site_on_line.get(a.line, ex.pieces.on_line.get(a.line))
        entity, kind = str(a.line), "corporation"
        turn = getattr(s.sub, "turn", None)
        if turn is not None and turn.line == a.line and not turn.ran:
            ex.line(a.line, "pass")  # the site's line scraps in its Route step
    else:
        on = set(ex.pieces.on_line.values())
        spare = [t for t, c in trams if c == a.colour and t not in on]
        any_ = [t for t, c in trams if c == a.colour]
        tram = (spare or any_ or [""])[0] or None
        entity, kind = _site_company(a.company), "corporation"
    if tram is None:
        raise ExportError18xx(f"{a.company} has no {a.colour} tram to scrap")
    ex.pieces.trams[a.company] = [t for t in trams if t[0] != tram]
    for line, t in list(ex.pieces.on_line.items()):
        if t == tram:
            del ex.pieces.on_line[line]
            ex._prev_on_line.pop(line, None)
    for line, t in list(ex.site_on_line.items()):
        if t == tram:
            del ex.site_on_line[line]
    ex.emit("scrap_train", entity, kind, train=tram)
    if a.line is not None:
        ex.turn_ended_line = a.line  # the site ends the line's turn after its scrap


def _arrange(ex: Exporter, a: Any, s: Any) -> None:
    ex.pending_arrange.add(a.company)


def _done(ex: Exporter, a: Any, s: Any) -> Any:
    if a.company in ex.step_closed:
        ex.step_closed.discard(a.company)  # the site ended the buying step after the purchase
    else:
        ex.company(a.company, "pass")
    return a.company


def _bought(ex: Exporter, a: Any, pre: Any) -> None:
    """X-17: after a purchase the site ends the buying step once the company can buy no
    more tram (none affordable, or at its limit)."""
    ex._sync_trams(a.company)
    state = ex.state
    company = state.companies[a.company]
    # the site compares the treasury with the lowest price any variant of a tram on sale can
    # ever have (Y2 50, O3 100, R3 300, Pi3 400, Pu2 600), not with today's price
    left = [c for c, n in (sp for sp in state.trams.spaces if sp is not None) if n > 0]
    floor = min((min(VARIANT_PRICES[c]) for c in left), default=None)
    if (len(company.owned()) >= state.ent.max_trams or floor is None
            or company.treasury < floor):
        ex.step_closed.add(a.company)


def _after_company(ex: Exporter, a: Any, pre: Any) -> None:
    ex._sync_trams(a.company)


def _done_post(ex: Exporter, a: Any, pre: Any) -> None:
    ex._sync_trams(a.company)
    _reassign_step(ex, a.company)


def _reassign_step(ex: Exporter, co: str) -> None:
    """The site's reassignment step after a buying turn: none without a line, or when one
    line already has the company's only tram; automatic when one tram meets one line;
    otherwise the company sends where each tram goes (our engine's arrangement)."""
    company = ex.state.companies[co]
    trams = [t for t, _ in ex.pieces.trams.get(co, [])]
    lines = list(company.lines)
    if not lines:
        return
    site_on = {ln: ex.site_on_line.get(ln) for ln in lines}
    spare = [t for t in trams if t not in site_on.values()]
    if len(lines) == 1 and site_on[lines[0]] is not None and not spare:
        return
    assignments = ex._assignments(co)
    if len(lines) == 1 and len(trams) == 1:
        ex.auto("reassign_trains", _site_company(co), "corporation", assignments=assignments)
    else:
        ex.company(co, "reassign_trains", assignments=assignments)
    for ln in lines:
        ex.site_on_line.pop(ln, None)
    for item in assignments:
        if item["corporation"].isdigit():
            ex.site_on_line[int(item["corporation"])] = item["train"]


def _open_auction(ex: Exporter, a: Any, s: Any) -> None:
    ex.company(a.company, "merge", corporation=str(a.line))
    ex.company(a.company, "bid", corporation=str(a.line), price=a.amount)
    ex.auction_line = a.line  # type: ignore[attr-defined]


def _line_bid(ex: Exporter, a: Any, s: Any) -> None:
    line = getattr(s.sub, "auction", None)
    number = getattr(line, "line", None) or getattr(ex, "auction_line", None)
    ex.company(a.company, "bid", corporation=str(number), price=a.amount)


def _company_pass(ex: Exporter, a: Any, s: Any) -> None:
    legal = ex.session.legal_notation()
    if getattr(s.sub, "auction", None) is not None and not any(
            t.startswith(f"{a.company} bid ") for t in legal):
        return  # the site skips a bidder that cannot raise
    ex.company(a.company, "pass")


def _company_return(ex: Exporter, a: Any, s: Any) -> None:
    ex.emit("choose_ability", a.private, "company", choice="sell")


def _lay(ex: Exporter, a: Any, s: Any) -> Any:
    piece = ex._tile_piece(a.tile)
    untiled = s.board.tile(a.hex) is None
    ex.pieces.tiles[a.hex] = piece
    ex.line(a.line, "lay_tile", hex=a.hex, tile=piece, rotation=a.rotation)
    return untiled


def _lay_post(ex: Exporter, a: Any, untiled: Any) -> None:
    """The site places a home marker on an untiled home hex only once a tile is laid there:
    with two circles or more it asks the laying line where (the home line's own lay, R-LR-13,
    or another line's, X-21); our engine placed it earlier and may move it with the next
    action.  The site's ``place_token`` is written with that next action (:meth:`settle`)."""
    circles = [loc for loc in ex.state.board.locations(a.hex) if loc.is_interchange]
    if not untiled or len(circles) < 2:
        return  # one circle: the site places the marker there by itself
    homes = _home_markers_on(ex, a.hex)
    if homes:
        ex.pending_home = (a.line, homes[0][0], a.hex)


def _home_markers_on(ex: Exporter, coord: str) -> list[tuple[int, tuple[str, int]]]:
    out = []
    ent = ex.state.ent
    for line in sorted(ex.state.line_owner):
        if ent.lines[line].home_hex != coord:
            continue
        for c, loc in ex.state.board.line_markers(line):
            if c == coord:
                out.append((line, (c, loc)))
    return out


def _station(ex: Exporter, a: Any, s: Any) -> None:
    if ex.skip_next_station:
        ex.skip_next_station = False
        return  # the move of a lifted home marker, written by ``settle_home``
    city = ex._city(a.hex, a.location)
    slot = ex._occupy(a.line, a.hex, a.location)
    ex.line(a.line, "place_token", city=city, slot=slot, tokener=str(a.line))


def _remove(ex: Exporter, a: Any, s: Any) -> None:
    slots = ex._slots(a.hex, a.location)
    slot = next((k for k, o in enumerate(slots) if isinstance(o, str)), None)
    if slot is None:
        raise ExportError18xx(f"no Stadtbahn marker on {a.hex}.{a.location}")
    slots[slot] = None
    if ex._replaced(a):
        return  # the station that follows removes it on the site
    ex.line(a.line, "remove_token", city=ex._city(a.hex, a.location), slot=slot)


def _buy_private(ex: Exporter, a: Any, s: Any) -> None:
    ex.line(a.line, "buy_company", company=a.private, price=a.price)


def _run(ex: Exporter, a: Any, s: Any) -> None:
    from tramways.g1840.routes import best_route, check_route

    if ex.turn_ended_line == a.line:
        return  # the line scrapped its tram: the site skipped its run

    turn = getattr(s.sub, "turn", None)
    if turn is not None and turn.line == a.line and turn.bonus:
        ex.line(a.line, "pass")  # a Stadtbahn bonus declined
    ex.line(a.line, "pass")  # the end of the track and station step
    tram = ex.site_on_line.get(a.line, ex.pieces.on_line.get(a.line))
    if tram is None or s.tram_of(a.line) is None:
        return  # no tram: the site skips the run
    if a.route == "none":
        ex.line(a.line, "run_routes", routes=[], extra_revenue=0, subsidy=0)
        return
    ctx = s.route_context(a.line)
    run = check_route(ctx, a.route) if a.route else best_route(ctx)
    if run is None:
        ex.line(a.line, "run_routes", routes=[], extra_revenue=0, subsidy=0)
        return
    stops, paths = tuple(run.stops), tuple(run.paths)
    if a.route:
        from tramways.g1840.routes import parse_route

        order = tuple(stop for stop, _ in parse_route(a.route))
        if stops != order and stops == order[::-1]:  # the run as our record wrote it
            stops, paths = order, paths[::-1]
    ex.line(a.line, "run_routes", routes=[_route(s.board, tram, run, stops, paths)],
            extra_revenue=0, subsidy=0)


def _route(board: Any, tram: str, run: Any, stops: tuple[Any, ...],
           paths: tuple[Any, ...]) -> dict[str, Any]:
    """A run in the site's form: its stops as nodes (``HEX-K``, K = the site's index of the
    revenue location on the hex), the stop hexes, the track between stops hex by hex, and the
    revenue before maintenance."""
    nodes = [f"{c}-{_node_index(board, c, loc)}" for c, loc in stops]
    hexes = [c for c, _ in stops]
    connections: list[list[str]] = []
    current: list[str] = []
    following = 1  # the index of the next stop
    for coord, path in paths:
        if not current or current[-1] != coord:
            current.append(coord)
        ends = {e.location for e in (path.a, path.b) if e.location is not None}
        if following < len(stops) and stops[following][0] == coord and (
                stops[following][1] in ends):
            connections.append(current)
            current = [coord]
            following += 1
    return {"train": tram, "connections": connections, "hexes": hexes,
            "revenue": run.revenue, "revenue_str": "-".join(hexes), "nodes": nodes}


def _node_index(board: Any, coord: str, location: int) -> int:
    from tramways.g1840.interop.routes18xx import PRINTED_NODES

    if board.tile(coord) is None:
        reverse = {ours: site for site, ours in PRINTED_NODES.get(coord, {}).items()}
        ids = [loc.id for loc in board.locations(coord)]
        index = ids.index(location)
        return reverse.get(index, index)
    real = [loc.id for loc in board.locations(coord) if loc.kind != "placeholder"]
    return real.index(location)


def _end_turn(ex: Exporter, a: Any, s: Any) -> None:
    ex.turn_ended_line = None  # (after a scrap the site's BuyCompany step still asks)
    legal = ex.session.legal_notation()
    if any(t.startswith(f"L{a.line} buy ") for t in legal):
        ex.line(a.line, "pass")  # the site's private buying step


def _skip(ex: Exporter, a: Any, s: Any) -> None:
    ex.line(a.line, "pass")


_HANDLERS: dict[str, Any] = {
    "Bid": _bid, "Pass": _pass, "ChooseOrder": _order, "Par": _par, "BuyShare": _buy_share,
    "SellShares": _sell, "ReturnPrivate": _return_private, "Accept": _accept,
    "Dividend": _dividend, "BuyTram": _buy_tram, "ScrapTram": _scrap, "Arrange": _arrange,
    "Done": _done, "OpenAuction": _open_auction, "LineBid": _line_bid,
    "CompanyPass": _company_pass, "CompanyReturnPrivate": _company_return, "LayTile": _lay,
    "PlaceStation": _station, "RemoveMarker": _remove, "BuyPrivate": _buy_private,
    "Run": _run, "EndTurn": _end_turn, "SkipBonus": _skip,
}

_POST: dict[str, Any] = {
    "Par": _par_post, "BuyShare": _buy_share_post, "LayTile": _lay_post, "Done": _done_post,
    "BuyTram": _bought, "ScrapTram": _after_company, "Arrange": _after_company,
    "OpenAuction": _after_company, "LineBid": _after_company, "CompanyPass": _after_company,
}


def check_exportable(record: GameRecord) -> None:
    """Refuse, in one line, a record the site would not load to the same game."""
    if record.game != "1840":
        raise ExportError18xx(f"only 1840 games go to 18xx.games, this is {record.game}")
    settings = record.settings
    if settings.get("ruleset") != "18xx.games":
        raise ExportError18xx(
            "the game is played under the printed rules with RULINGS.md, whose rulings differ "
            "from the site's (X-1: tram companies chosen at par, not drawn at set-up; "
            "X-2..X-20): only games under the 18xx.games ruleset can be exported")
    players = int(settings["players"])
    small = bool(settings.get("small_map"))
    site = compute_setup(record.seed, players, small).engine_setup()
    setup = record.setup
    for key in ("line_display", "line_deck", "tram_companies", "playing_order"):
        if list(setup.get(key) or []) != list(site[key]):
            raise ExportError18xx(
                f"set-up: {key} {setup.get(key)} is not the site's draw for seed "
                f"{record.seed} ({site[key]}; X-1): the site would set up another game")
    if not 0 <= record.seed < M:
        raise ExportError18xx(f"seed {record.seed} is outside the site's range 0..{M - 1}")


def export_record(record: GameRecord) -> dict[str, Any]:
    """The 18xx.games export of a record (``ExportError18xx`` naming what the site would not
    accept)."""
    check_exportable(record)
    return Exporter(record).run()


def export_json(record: GameRecord) -> str:
    return json.dumps(export_record(record), indent=1)
