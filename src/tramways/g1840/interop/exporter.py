"""The exporter's replay of a record of ours: it follows the site's ids of the
pieces in play and the site's steps, and collects the actions as the site records them.

:class:`Exporter` replays the record action by action and calls, for each, the handlers
:mod:`.export_actions` gives it (what to write before and after our engine plays the action);
:func:`.export18xx.export_record` wires them and checks that the record can be exported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.interop.export_pieces import (
    SMALL_MAP_RULE,
    STADTBAHN_ORDER,
    TITLE,
    TRAM_PREFIX,
    ExportError18xx,
    _Pieces,
    _player_id,
    _site_company,
)

Handler = Callable[..., Any]
"""A handler of :mod:`.export_actions`: ``(exporter, action, state or what it returned)``."""


class Exporter:
    """Writes the site's actions for a record, one of our actions at a time."""

    def __init__(self, record: GameRecord, handlers: Mapping[str, Handler],
                 post: Mapping[str, Handler]) -> None:
        self.record = record
        self.handlers, self.post = handlers, post
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
        self.declined_bonus: int | None = None  # the line whose bonus step the site closed
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
        if name not in ("Done", "Arrange", "BuyTram", "CompanyReturnPrivate", "ReturnPrivate"):
            self.step_closed.clear()  # the site's closed step only waits for its ``done``
            # (a player's return leaves it closed: random_53037_3p, "Reassign Trains cannot
            # process action pass" after SJE's last purchase and P2's return)
        self.settle_home(action)
        turn = getattr(before.sub, "turn", None)
        line = getattr(action, "line", None) or self._acting_line_of(action, turn)
        uses = "PlaceStation" if turn is not None and getattr(
            turn, "bonus", None) == "place_additional_station_marker" else "LayTile"
        if name == "RemoveMarker" and self._replaced(action):
            name = "PlaceStation"  # part of the station that follows (the site's removal)
        if line != self.declined_bonus:
            self.declined_bonus = None
        if (name not in (uses, "SkipBonus", "Run") and turn is not None
                and line is not None and getattr(turn, "line", None) == line and turn.bonus
                and not turn.ran and self.declined_bonus != line):
            self.line(line, "pass")  # the site's bonus step blocks: the bonus is declined
            # (once: our engine keeps a station bonus after a removal, R-LR-1, the site's
            # step is over; a second pass would end the line's track step)
            self.declined_bonus = line
        handler = self.handlers.get(type(action).__name__)
        if handler is None:
            raise ExportError18xx(f"no 18xx.games action for {type(action).__name__}")
        pre = handler(self, action, before)
        lines = self.session.play(text)
        after = getattr(self.state.sub, "turn", None)
        if name == "LayTile" and getattr(after, "bonus", None) is not None:
            self.declined_bonus = None  # a new Stadtbahn tile, a new bonus step
        post = self.post.get(type(action).__name__)
        if post is not None:
            post(self, action, pre)
        self.after(lines, action)

    def _acting_line_of(self, action: Any, turn: Any) -> int | None:
        """The acting line, for a return or scrap of its own company in its turn: our engine
        ends a pending Stadtbahn bonus there (R-LR-1), the site's bonus step stays open
        through a return (its SellCompany step comes first), so the bonus is declined
        before it (random_46006_2p: "Place a Token or Lay Track cannot process action
        run_routes" after BBG's return in line 1's bonus step)."""
        company = getattr(action, "company", None)
        if company is None or turn is None or getattr(turn, "ran", True):
            return None
        owner = self.state.line_owner.get(turn.line)
        return turn.line if owner == company else None

    def _replaced(self, action: Any) -> bool:
        """Whether a removal of a Stadtbahn marker is followed by the same line's station on
        that circle: the site's ``place_token`` removes the marker by itself (R-LR-5)."""
        turn = getattr(self.state.sub, "turn", None)
        if (getattr(turn, "bonus", None) != "place_additional_station_marker"
                or self.declined_bonus == action.line):
            return False  # only the site's bonus station step removes it itself
            # (a normal station finds no slot there: rule_48005_6p C7)
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
        if finished:  # XI: the site's result is each player's wealth
            wealth = self.session.state.outcome().scores
            doc["result"] = {str(_player_id(i)): w for i, w in enumerate(wealth)}
        return doc


# --- handlers: our action -> the site's (before our engine plays it) ------------------
