"""The translator of 18xx.games actions into our notation (docs/interop.md, the mapping).

It follows the mapping table of docs/interop.md, asks our engine's state what a ``pass``
closes, and inserts the passes the site makes by itself; runs are played as recorded (X-8,
:mod:`.routes18xx`).  :mod:`.probe` replays an export with it, :mod:`.mapping` builds the
record."""

from __future__ import annotations

from typing import Any

from tramways.core.errors import IllegalAction, NotationError, RecordError, TramwaysError
from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.g1840.edition import LATEST
from tramways.g1840.interop import actions18xx as a18
from tramways.g1840.interop.log18xx import EffectiveAction, Export18xx
from tramways.g1840.interop.pieces18xx import TilePieces
from tramways.g1840.interop.routes18xx import route_text
from tramways.g1840.interop.ruleset import RULESET_18XX
from tramways.g1840.interop.setup18xx import ENGINE_COMPANY_ID, Setup18xx
from tramways.g1840.interop.site_asks import asks_to_pass, line_turn_ended
from tramways.g1840.view_types import View1840, as_view1840

MAX_IMPLICIT_PASSES = 12


class NotMapped(TramwaysError):
    """An 18xx.games action the translator cannot express in our notation yet."""


def new_session(export: Export18xx, setup18: Setup18xx) -> Session:
    """Our engine's game for an export: its players' names, the site's set-up draws, and the
    18xx.games ruleset (X-1..X-20) as soon as the engine accepts it (until then the rules')."""
    from tramways.games import get_game

    game = get_game("1840")
    base = {"players": len(export.players), "names": export.player_names,
            "small_map": export.small_map, "edition": int(LATEST)}  # R-VERSION-1
    drawn = setup18.engine_setup()
    try:
        settings = game.normalize_settings({**base, "ruleset": RULESET_18XX})
    except RecordError:
        settings = game.normalize_settings(base)
        del drawn["tram_companies"]  # X-1 needs the 18xx.games ruleset
    setup = game.setup(settings, export.seed)
    setup.update(drawn)
    record = GameRecord(game="1840", version=game.version, settings=settings, seed=export.seed,
                        setup=setup, actions=[])
    return Session.from_record(record)


class Translator:
    """Turns effective 18xx.games actions into our notation against a live session."""

    def __init__(self, export: Export18xx, session: Session) -> None:
        self.export = export
        self.session = session
        self.pieces = TilePieces()
        self.pending_auction: tuple[str, int] | None = None
        self.following: EffectiveAction | None = None
        self._view: tuple[int, View1840] | None = None
        self.ahead = False  # our round ended while the site still asks for passes
        self.round_seen: str | None = None
        self.crd_turns: set[str] = set()  # companies whose CRd buying turn the site closed
        self.auction_begun = False
        self.site_out: set[str] = set()  # companies whose choosing pass the site has made
        self.ran_line: int | None = None  # the line whose run the site recorded last

    # --- helpers -------------------------------------------------------------------
    def view(self) -> View1840:
        """Our engine's public view now (cached until the next action is played)."""
        played = len(self.session.record.actions)
        if self._view is None or self._view[0] != played:
            self._view = (played, as_view1840(self.session.state.view(None)))
        return self._view[1]

    @property
    def _pos(self) -> Any:  # our engine's position (read only)
        return self.session.state

    def player(self, entity: str) -> str:
        try:
            return f"P{self.export.seat_of(entity) + 1}"
        except KeyError:
            raise NotMapped(f"unknown player id {entity}") from None

    @staticmethod
    def company(entity: str) -> str:
        return ENGINE_COMPANY_ID.get(entity, entity)

    def company_of_line(self, line: int) -> str:
        owner = self.session.state.line_owner.get(line)  # type: ignore[attr-defined]
        if owner is not None:
            return str(owner)
        raise NotMapped(f"line {line} belongs to no tram company")

    @staticmethod
    def colour(train: str) -> str:
        colour = a18.train_colour(train)
        if colour is None:
            raise NotMapped(f"{train} is a Stadtbahn train")
        return colour

    def location(self, hexname: str, city: int) -> int:
        from tramways.g1840.interop.trace_positions import city_location

        board = self.session.state.board  # type: ignore[attr-defined]
        return city_location(board, hexname, city)

    # --- translation ---------------------------------------------------------------
    def notations(self, eff: EffectiveAction,
                  following: EffectiveAction | None = None) -> list[str]:
        """Our actions for one effective site action (often one, sometimes none);
        ``following`` is the next effective action (a pass may need it)."""
        self.following = following
        act = eff.action
        if isinstance(act, (a18.Program, a18.Message)):
            return []
        if self.ahead and isinstance(act, (a18.Pass, a18.ReassignTrains)):
            co = self.company(act.entity)
            if isinstance(act, a18.Pass) and self._passed_choosing_already(co):
                self.site_out.add(co)  # (the site's choosing pass, made by our engine)
            return []  # a turn our engine settled by itself
        if isinstance(act, a18.EndGame):
            raise NotMapped("end_game: the record stops here")
        if act.entity_type == "player":
            return self._player(act)
        if act.entity_type == "company":
            return self._private(act)
        if (act.entity in ENGINE_COMPANY_ID
                or act.entity in self.session.state.companies):  # type: ignore[attr-defined]
            return self._company(act)
        if act.entity.isdigit():
            return self._line(int(act.entity), act)
        if isinstance(act, a18.RunRoutes):  # a Stadtbahn company's automatic run
            return []
        raise NotMapped(f"{act.TYPE} by {act.entity}")

    def _player(self, act: a18.Action18xx) -> list[str]:
        p = self.player(act.entity)
        if isinstance(act, a18.Bid) and act.company is not None:
            return [f"{p} bid {act.company} {act.price}"]
        if isinstance(act, a18.Pass):
            return [f"{p} pass"]
        if isinstance(act, a18.Choose):
            if not act.choice.isdigit():
                raise NotMapped(f"choose {act.choice!r}")
            return [f"{p} order {int(act.choice) + 1}"]
        if isinstance(act, a18.Par):
            return [f"{p} par {self.company(act.corporation)} {act.price}"]
        if isinstance(act, a18.SellShares):
            co, count = self.company(act.corporation), act.percent // 10
            price = self._price(co)
            if act.share_price is not None and price is not None and act.share_price != price:
                # X-19 (proposed): the site pays the recorded share_price for each share, and
                # its sales of several shares record the price of all of them (fz2027_7_3p
                # action 291: 3 G at 65 record 195 and receive 585)
                return [f"{p} sell {co} {count} at {act.share_price}"]
            return [f"{p} sell {co} {count}"]
        if isinstance(act, a18.BuyShares):
            return [f"{p} buy {self.company(act.corporation)}"] * (act.percent // 10)
        raise NotMapped(f"{act.TYPE} by a player")

    def _private(self, act: a18.Action18xx) -> list[str]:
        if isinstance(act, a18.ChooseAbility) and act.choice == "sell":
            owner = self._pos.private_owner.get(act.entity)
            if owner is None or isinstance(owner, bool):
                raise NotMapped(f"{act.entity} has no owner to sell it")
            who = owner if isinstance(owner, str) else f"P{owner + 1}"
            return [f"{who} return {act.entity}", *line_turn_ended(self._pos, self.following)]
        raise NotMapped(f"{act.TYPE} by the private {act.entity}")

    def _company(self, act: a18.Action18xx) -> list[str]:
        co = self.company(act.entity)
        if isinstance(act, a18.RunRoutes):
            return []
        if isinstance(act, a18.Dividend):
            if act.amount is None:
                raise NotMapped(f"dividend of kind {act.kind!r} without an amount")
            return [f"{co} pay {act.amount}"]
        if isinstance(act, a18.BuyTrain):
            self._new_round()
            if not self.auction_begun and self._tram_count(co) + 1 >= 3:
                self.crd_turns.add(co)  # its third tram: the site ends the turn itself
            return [f"{co} buy {self.colour(act.variant or act.train)}", *self._turn_ends(act)]
        if isinstance(act, a18.ScrapTrain):
            return [f"{co} scrap {self.colour(act.train)}", *self._turn_ends(act)]
        if isinstance(act, a18.ReassignTrains):
            self._new_round()
            if not self.auction_begun:
                self.crd_turns.add(co)  # the reassignment closes its CRd buying turn
            return self._arrange(co, act)
        if isinstance(act, (a18.Merge, a18.Bid)):
            self._new_round()
            self.auction_begun = True
        if isinstance(act, a18.Merge):
            self.pending_auction = (co, int(act.corporation))
            # the site's buying step ended after the company's purchase: when our
            # engine still keeps its buying turn open, it ends here
            return [f"?{co} done"]
        if isinstance(act, a18.Bid) and act.corporation is not None:
            pending, self.pending_auction = self.pending_auction, None
            if pending == (co, int(act.corporation)):
                return [f"{co} auction L{act.corporation} {act.price}"]
            return [f"{co} bid {act.price}"]
        if isinstance(act, a18.Pass):
            self._new_round()
            nxt = self.following
            if (nxt is not None and isinstance(nxt.action, a18.ReassignTrains)
                    and nxt.action.entity == act.entity):
                self.crd_turns.add(co)
                return []  # the site's reassign step follows; it closes the turn
            if co not in self.crd_turns and not self._auction_started():
                self.crd_turns.add(co)  # the site asks every company's CRd buying turn
                return [f"?{co} done"]
            if self._passed_choosing_already(co):
                self.site_out.add(co)
                return []
            return self._close(co)
        raise NotMapped(f"{act.TYPE} by the tram company {act.entity}")

    def _turn_ends(self, act: a18.Action18xx) -> list[str]:
        """X-17: the site ends a company's buying step by itself after a purchase once the
        company can buy no more, and skips its reassignment step when there is nothing to
        reassign; the 18xx.games ruleset keeps the turn open, so when the site's next action
        is not the same company's, the turn ends here."""
        nxt = self.following
        if nxt is not None and nxt.action.entity == act.entity:
            return []
        co = self.company(act.entity)
        if not self.auction_begun:
            self.crd_turns.add(co)  # its CRd buying turn is over
        return [f"?{co} done"]

    def _price(self, company: str) -> int | None:
        """Our engine's share price of a tram or Stadtbahn company now."""
        try:
            return int(self.session.state.price(company))  # type: ignore[attr-defined]
        except (KeyError, TypeError, AttributeError):
            return None

    def _passed_choosing_already(self, co: str) -> bool:
        """X-17: whether this pass is the site asking ``co`` to choose a line for auction
        when our engine has already passed for it (it cannot open an auction: fz2027_22_5p
        action 310, DT with 5 in its treasury), rather than a pass in a buying turn or on a
        bid."""
        cr = getattr(self.session.state, "sub", None)
        out = getattr(cr, "out", None)
        if not isinstance(out, set) or co not in out or co in self.site_out:
            return False
        auction = getattr(cr, "auction", None)
        return auction is None or auction.turn != co

    def _auction_started(self) -> bool:
        """Whether the site's line auctions of this Company Round have begun (a line was
        chosen or passed on: a ``merge`` or a line ``bid``, or a pass after every company's
        CRd turn)."""
        return self.auction_begun

    def _tram_count(self, co: str) -> int:
        company = self.session.state.companies.get(co)  # type: ignore[attr-defined]
        return 0 if company is None else len(company.owned())

    def _new_round(self) -> None:
        round_now = str(self.session.state.round.name)  # type: ignore[attr-defined]
        if round_now != self.round_seen:
            self.round_seen, self.crd_turns, self.auction_begun = round_now, set(), False
            self.site_out = set()

    def _close(self, co: str) -> list[str]:
        """End the company's tram buying turn (``done``) or pass in the auction."""
        cr = self._pos.sub
        step = getattr(cr, "step", None)
        if self._pos.finished or step is None or step.company(cr, self._pos) != co:
            return []
        if step.buying_turn(cr) or step.name == "final":
            return [f"?{co} done"]
        if getattr(cr, "auction", None) is None:
            self.site_out.add(co)  # its choosing pass
        return [f"?{co} pass"]

    def _arrange(self, co: str, act: a18.ReassignTrains) -> list[str]:
        tram_company = self._pos.companies.get(co)
        if tram_company is None:
            raise NotMapped(f"reassign_trains by {co}, which is not in the game")
        company = {"lines": tram_company.lines, "trams": tram_company.trams}
        on_line = {int(a.corporation): self.colour(a.train) for a in act.assignments
                   if a.corporation.isdigit()}
        spare = sorted(self.colour(a.train) for a in act.assignments
                       if not a.corporation.isdigit())
        lines = list(company["lines"])
        wanted = [on_line.get(line, "none") for line in lines]  # a gap stays a gap (none first)
        current = [c or "none" for c in company["trams"]][:len(lines)]
        current += ["none"] * (len(lines) - len(current))
        out = []
        if wanted != current:  # only the lines' trams matter; spares wait in any order
            pool = len(spare) + sum(c != "none" for c in wanted)
            colours = wanted + spare + ["none"] * max(0, len(lines) - pool - wanted.count("none"))
            out.append(f"{co} arrange {','.join(colours[:max(len(lines), pool)])}")
        out.append(f"?{co} done")  # the site's reassign step ends the tram turn
        return out

    def _line(self, line: int, act: a18.Action18xx) -> list[str]:
        head = f"L{line}"
        if line != self.ran_line or isinstance(act, (a18.LayTile, a18.PlaceToken)):
            self.ran_line = None
        if isinstance(act, a18.LayTile):
            self.pieces.lay(act)
            return [f"{head} lay {act.hex} {act.tile_name} r{act.rotation}"]
        if isinstance(act, (a18.PlaceToken, a18.RemoveToken)):
            return self._line_marker(head, act)
        if isinstance(act, a18.RunRoutes):
            return self._line_run(line, act)
        if isinstance(act, a18.BuyCompany):
            return self._line_buys(line, act)
        if isinstance(act, a18.ScrapTrain):
            # in its Route step only: no run, its turn ends unless it buys a private in
            # the BuyCompany step that still asks (fz3302r_43_3p action 173)
            nxt = self.following
            buys = nxt is not None and nxt.action.entity == act.entity and isinstance(
                nxt.action, a18.BuyCompany)
            return [f"{self.company_of_line(line)} scrap {self.colour(act.train)} L{line}",
                    f"?{head} run", *([] if buys else [f"?{head} done"])]
        if isinstance(act, a18.Pass):
            return self._line_passes(line, act)
        raise NotMapped(f"{act.TYPE} by line {line}")

    def _line_marker(self, head: str, act: a18.PlaceToken | a18.RemoveToken) -> list[str]:
        """A line's ``place_token`` or ``remove_token`` (IX.6, R-LR-5, R-LR-13)."""
        hexname, city = self.pieces.hex_of_city(act.city)
        loc = self.location(hexname, city)
        if isinstance(act, a18.RemoveToken):
            return [f"{head} remove {hexname}.{loc}"]
        if self.already_placed(act) or self._lifted_stays(hexname, loc):
            return []  # the home marker our engine placed itself (HomeToken, 76)
        if self.already_placed(act, anywhere_on_hex=True):
            return [f"{head} station {hexname}.{loc}"]  # moved to the chosen circle
        station, remove = f"{head} station {hexname}.{loc}", f"{head} remove {hexname}.{loc}"
        board = self._pos.board
        if board.free_slots(hexname, loc) <= 0 and any(
                isinstance(owner, str) for owner in board.markers(hexname).get(loc, ())):
            # the site removes the Stadtbahn marker on a full circle by itself before the
            # line's marker goes there (R-LR-5; fz2027_13_3p action 357: "9 removes token
            # from B10 for 40", then its free bonus marker goes on B10)
            return [remove, station]
        return [station]

    def _lifted_stays(self, hexname: str, loc: int) -> bool:
        """X-21: a lifted home marker put back where our engine keeps it (rule_44000_2p 325)."""
        turn = getattr(self._pos.sub, "turn", None)
        if turn is None or getattr(turn, "home_lifted", None) != hexname:
            return False
        owner = turn.line if turn.lifted_line is None else turn.lifted_line
        return (hexname, loc) in self._pos.board.line_markers(owner)

    def _line_run(self, line: int, act: a18.RunRoutes) -> list[str]:
        """A line's ``run_routes``: its recorded route (X-8), or no run."""
        head = f"L{line}"
        self.ran_line = line
        if not act.routes:
            # "does not run" (X-8, R-LR-8); when the line has no route at all, our
            # engine's own run finds none either, as a game of ours records it
            return [f"{head} run" if self._no_route(line) else f"{head} run none"]
        if len(act.routes) != 1:
            raise NotMapped(f"a run of line {line} with {len(act.routes)} routes")
        state = self.session.state
        board = state.board  # type: ignore[attr-defined]

        def valid(text: str) -> bool:
            from tramways.g1840.routes import check_route

            try:
                check_route(state.route_context(line), text)  # type: ignore[attr-defined]
            except (IllegalAction, NotationError):
                return False
            return True

        return [f"{head} run {route_text(board, act.routes[0], valid)}"]

    def _line_buys(self, line: int, act: a18.BuyCompany) -> list[str]:
        """A line's ``buy_company`` (IV.2, X-22), and the turn the site ends after it (X-17)."""
        head = f"L{line}"
        owner = self._pos.private_owner.get(act.company)
        out = [f"{head} buy {act.company} {act.price}"]
        if isinstance(owner, int) and not isinstance(owner, bool):
            out.append(f"?P{owner + 1} accept")  # the site's sale needs no consent (IV.2)
        nxt = self.following
        turn = getattr(self._pos.sub, "turn", None)
        if turn is None or turn.line != line:
            return out
        other_next = nxt is None or nxt.action.entity != act.entity
        if turn.ran and (nxt is None or other_next
                         or not isinstance(nxt.action, (a18.BuyCompany, a18.Pass))):
            # after its run a line that can buy no more private has its turn ended
            # by the site (i-line-buy-company-turn-end)
            out.append(f"?{head} done")
        elif not turn.ran and other_next:
            # a line without a tram (the site skips its run) that bought a private in its
            # BuyCompany step after the track step and can buy no more: the site ends its
            # turn (fz3302r_6_2p action 102, fz3302r_7_3p action 187)
            out += [f"?{head} run", f"?{head} done"]
        return out

    def _line_passes(self, line: int, act: a18.Pass) -> list[str]:
        """A line's ``pass``: a declined bonus, the end of a step, or of its turn."""
        head = f"L{line}"
        turn = getattr(self._pos.sub, "turn", None)
        if turn is not None and turn.line == line and turn.bonus:
            return [f"{head} skip"]  # a Stadtbahn bonus declined (136, 214)
        nxt = self.following
        if self.ran_line == line:  # after the run only the site's BuyCompany step is left:
            self.ran_line = None  # its pass ends the turn, even when the same line opens
            return [f"?{head} done"]  # the next Line Round (a company's only line)
        if nxt is not None and nxt.action.entity == act.entity:
            if isinstance(nxt.action, (a18.BuyCompany, a18.Pass)) and not self._pos.tram_of(line):
                # no tram: its run was skipped, its BuyCompany step asks next (random_44002_3s;
                return [f"?{head} run"]  # a pass after a return there, random_56003_4p)
            return []  # the line's turn goes on: the pass only ends a step
        # no tram: the site skips the run ("does not run"); then the turn ends
        return [f"?{head} run", f"?{head} done"]

    def lifted(self, act: a18.Action18xx) -> bool:
        """X-21: whether ``act`` places the home marker the site lifted from the hex a line
        has just tiled (our engine keeps it on a circle until then)."""
        if not isinstance(act, a18.PlaceToken) or isinstance(act, a18.RemoveToken):
            return False
        turn = getattr(self._pos.sub, "turn", None)
        coord = getattr(turn, "home_lifted", None)
        if coord is None:
            return False
        try:
            return self.pieces.hex_of_city(act.city)[0] == coord
        except KeyError:
            return False

    def _no_route(self, line: int) -> bool:
        """Whether the line has no valid route now (R-LR-8): ``LN run`` then runs nothing."""
        from tramways.g1840.routes import best_route

        state = self.session.state
        if state.tram_of(line) is None:  # type: ignore[attr-defined]
            return False
        return best_route(state.route_context(line)) is None  # type: ignore[attr-defined]

    def already_placed(self, act: a18.Action18xx, anywhere_on_hex: bool = False) -> bool:
        """Whether a line's ``place_token`` names a marker our engine has already placed: the
        home marker, which the site lets the player place once the home tile is laid (D18);
        ``anywhere_on_hex``: on another circle of that hex (the site lifted it, R-LR-13)."""
        if not (isinstance(act, a18.PlaceToken) and not isinstance(act, a18.RemoveToken)
                and act.entity.isdigit()):
            return False
        try:
            hexname, city = self.pieces.hex_of_city(act.city)
            loc = self.location(hexname, city)
            co = self.company_of_line(int(act.entity))
        except (KeyError, NotMapped, TramwaysError):
            return False
        if co not in self._pos.companies:
            return False
        placed = self._pos.board.line_markers(int(act.entity))
        if anywhere_on_hex:
            return any(c == hexname for c, _ in placed)
        return (hexname, loc) in placed

    def implicit_passes(self) -> list[str]:
        """The passes the site makes by itself: a player whose only moves are passing or
        returning a private passes ("has no valid actions and passes", action 16)."""
        played: list[str] = []
        for _ in range(MAX_IMPLICIT_PASSES):
            state = self.session.state
            players = state.current_players()
            if not players or state.finished:  # type: ignore[attr-defined]
                break
            turn = state.sub.turn_view(state)  # type: ignore[attr-defined]
            if turn.line is not None:
                break
            if turn.company is not None:
                # in a line auction the site skips a company that can only pass
                co = str(turn.company)
                auction = getattr(state.sub, "auction", None)  # type: ignore[attr-defined]
                if auction is None:
                    break  # (the legal actions only when an auction is open: speed)
                legal = self.session.legal_notation(players[0])
                if f"{co} pass" not in legal or any(t.startswith(f"{co} bid ") for t in legal):
                    break
                self.session.play(f"{co} pass")
                played.append(f"{co} pass")
                continue
            p = f"P{players[0] + 1}"
            legal = self.session.legal_notation(players[0])
            if f"{p} pass" not in legal or not all(
                    t == f"{p} pass" or " return " in t or " scrap " in t for t in legal) or (
                    asks_to_pass(state, players[0])):
                # (returning a private or scrapping a tram are allowed at any time, the site
                # counts neither; choosing a private, or a line's share to buy: site_asks)
                break
            self.session.play(f"{p} pass")
            played.append(f"{p} pass")
        return played
