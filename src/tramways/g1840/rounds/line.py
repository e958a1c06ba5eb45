"""Line Rounds (IX; R-LR-1..10).

Lines act in number order (IX.1).  A line's turn: construction in any order, none mandatory
(IX.3, R-LR-1): one normal tile lay or upgrade, one yellow Stadtbahn tile (20) followed at once
by its bonus action, one station marker, any number of Stadtbahn marker removals (40 each,
R-LR-5); then the tram's run (IX.7), which ends the turn.  The home marker is placed free at the
start of the line's first turn (IX.6; the director picks the circle when a tile lies on the home
hex and several circles are free, as on D18, R-LR-13: see
:func:`~tramways.g1840.rounds.line_home.home_choice`).   Income goes onto the company's revenue space; negative
income is paid from the revenue space, then the treasury, then the director, then loans
(IX.8, R-LR-9).  From LR2a a company may buy a private in a line's turn (IV.2).

The round is :class:`LineRound`; its actions are dispatched by tables from action type to
handler for each moment of a turn (an offer to answer, the turn, after the run).  What a turn
may still build is :mod:`.line_turn`; the home marker :mod:`.line_home`; the run and its
income :mod:`.line_income`.  The tile and station rules are the legality module's
(:mod:`tramways.g1840.legality`); the runs are the routes module's
(:mod:`tramways.g1840.routes`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.g1840 import legality
from tramways.g1840.actions import (
    Accept,
    BuyPrivate,
    CompanyAction,
    CompanyReturnPrivate,
    Decline,
    EndTurn,
    LayTile,
    LineAction,
    PlaceStation,
    RemoveMarker,
    Run,
    ScrapTram,
    SkipBonus,
)
from tramways.g1840.mechanics import privates, trams
from tramways.g1840.position import Position
from tramways.g1840.rounds.base import expect, handler
from tramways.g1840.rounds.line_home import (
    choose_home,
    home_choice,
    home_options,
    home_waits,
    lifted_home,
    lifted_owner,
    move_lifted,
    place_home,
)
from tramways.g1840.rounds.line_income import NO_RUN, receive_income, run_value
from tramways.g1840.rounds.line_turn import (
    LAY,
    Lays,
    Turn,
    bonus_after_removal,
    bonus_is_free,
    can_buy_private,
    check_lay,
    end_freed_bonus,
    private_options,
    removal_options,
    station_options,
    tile_options,
)
from tramways.g1840.shared_actions import Interned, Part, flatten
from tramways.g1840.view_types import NO_DETAIL, RoundDetail, TurnDetail
from tramways.g1840.view_types import LineTurn as LineTurnView

__all__ = ["NO_RUN", "LineRound", "Turn", "begin", "receive_income", "run_value"]

Handler = Callable[["LineRound", Position, Turn, Any, list[str]], None]

_STATION = Interned(lambda line, coord, location, seat: PlaceStation(
    line=line, hex=coord, location=location, player=seat))
_REMOVE = Interned(lambda line, coord, location, seat: RemoveMarker(
    line=line, hex=coord, location=location, player=seat))
_BUY = Interned(lambda line, private, price, seat: BuyPrivate(
    line=line, private=private, price=price, player=seat))
_RUN = Interned(lambda line, seat: Run(line=line, player=seat))
"""The line's actions, built once per distinct fields (:class:`Interned`; a company's scraps
and returns are :mod:`~tramways.g1840.mechanics.trams`'s)."""


@dataclass
class LineRound:
    """A Line Round's progress: the lines in number order (IX.1), the index of the one whose
    turn it is, and that turn."""

    lines: list[int]
    turn_index: int = 0
    turn: Turn | None = None

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        turn = self._turn()
        if turn.offer is not None:
            return turn.offer[2]
        return pos.company_of_line(turn.line).director

    def settle(self, pos: Position, log: list[str]) -> bool:
        return self.turn is None

    def turn_rule(self) -> str:
        return "IX.1"

    def takes_in_turn(self, pos: Position, company: str) -> bool:
        """A return or scrap of the line's own company before its run is part of the line's
        turn (a pending bonus is lost, R-LR-1)."""
        turn = self.turn
        return (turn is not None and not turn.ran and not turn.home
                and pos.company_of_line(turn.line).id == company)

    def line_auctions_ahead(self) -> bool:
        return False

    def offered_private(self) -> str | None:
        offer = None if self.turn is None else self.turn.offer
        return None if offer is None else offer[0]

    def view(self, pos: Position) -> RoundDetail:
        turn = self.turn
        if turn is None:
            return NO_DETAIL
        return RoundDetail(line_turn=LineTurnView(
            line=turn.line, first=turn.first, tile_laid=turn.laid,
            stadtbahn_tile_laid=turn.stadtbahn, station_placed=turn.station, bonus=turn.bonus,
            offer=turn.offer, home_choice=turn.home,  # home: the circle awaits (IX.6)
            bonus_circle=None if turn.bonus_circle is None else "{}.{}".format(*turn.bonus_circle)))

    def turn_view(self, pos: Position) -> TurnDetail:
        return TurnDetail(line=self._turn().line)

    def _turn(self) -> Turn:
        assert self.turn is not None
        return self.turn

    # --- what the line may do ----------------------------------------------------------
    def legal(self, pos: Position) -> list[Action]:
        turn = self._turn()
        if turn.offer is not None:
            return [Accept(turn.offer[2]), Decline(turn.offer[2])]
        line = turn.line
        seat = pos.company_of_line(line).director
        if turn.home:
            return [PlaceStation(line=line, hex=o.coord, location=o.location, player=seat)
                    for o in home_options(pos, line)]
        if turn.ran:
            return [*(BuyPrivate(line=line, private=p, price=price, player=seat)
                      for p, price in private_options(pos, turn)),
                    EndTurn(line=line, player=seat)]
        return flatten(self._turn_parts(pos, turn))

    def legal_parts(self, pos: Position) -> list[Part]:
        """:meth:`legal` with the line's tile lays as one block (:class:`Lays`)."""
        turn = self._turn()
        if turn.offer is not None or turn.home or turn.ran:
            return list(self.legal(pos))
        return self._turn_parts(pos, turn)

    def _turn_parts(self, pos: Position, turn: Turn) -> list[Part]:
        """Everything the line may do before its run (R-LR-1), the run last."""
        line = turn.line
        company = pos.company_of_line(line)
        seat = company.director
        if turn.track_over:  # after scrapping its tram, only its (empty) run is left
            return [*self._company_actions(pos, company, seat), _RUN(line, seat)]
        out: list[Part] = [Lays(line, seat, tile_options(pos, turn))]
        stations = station_options(pos, turn)
        if stations:
            out.extend([_STATION(line, s.coord, s.location, seat) for s in stations])
        if turn.home_lifted is not None:
            out.extend(PlaceStation(line=line, hex=turn.home_lifted, location=loc.id,
                                    player=seat)
                       for loc in pos.board.locations(turn.home_lifted)
                       if loc.is_interchange and pos.board.free_slots(turn.home_lifted, loc.id))
        removals = removal_options(pos, turn)
        if removals:
            out.extend([_REMOVE(line, r.coord, r.location, seat) for r in removals])
        sales = private_options(pos, turn)
        if sales:
            out.extend([_BUY(line, p, price, seat) for p, price in sales])
        out.extend(self._company_actions(pos, company, seat))
        if turn.bonus is not None:
            out.append(SkipBonus(line=line, player=seat))
        out.append(_RUN(line, seat))
        return out

    def playout_actions(self, pos: Position) -> list[Action] | None:
        """A search play-out's shorter list for a line's turn before its run, for a policy
        that weighs tile lays only and never buys a private: the tile lays (IX.4, IX.5,
        R-LR-1), the company's scraps and returns (VIII.5.3, IV.2), the bonus skip and the
        run, in :meth:`legal`'s order, without the station markers, marker removals and a
        private's purchase at every price from 1 to its face value (IV.2: most of a Line
        Round's 200+ actions).  Every action listed is legal.  ``None`` at the turn's other
        steps (an offer, the home circle) and under the 18xx.games ruleset (X-23: its own
        steps and refusals), where :meth:`legal` is the list."""
        turn = self.turn
        if (turn is None or turn.offer is not None or turn.home or turn.ran
                or turn.track_over or turn.home_lifted is not None
                or pos.rules.returns_and_scraps_in_turn):
            return None
        line = turn.line
        company = pos.company_of_line(line)
        seat = company.director
        out: list[Action] = [LAY(line, t.coord, t.tile_id, t.rotation, seat)
                             for t in tile_options(pos, turn)]
        out.extend(self._company_actions(pos, company, seat))
        if turn.bonus is not None:
            out.append(SkipBonus(line=line, player=seat))
        out.append(_RUN(line, seat))
        return out

    @staticmethod
    def _company_actions(pos: Position, company: Any, seat: int) -> list[Action]:
        """The line's company's scraps and returns in the line's turn (VIII.5.3, IV.2)."""
        owned = company.owned()
        out: list[Action] = [trams.SCRAP(company.id, c, seat)
                             for c in sorted(set(owned))] if owned else []
        if company.privates:
            out.extend([trams.COMPANY_RETURN(company.id, p, seat) for p in company.privates])
        return out

    # --- playing an action ---------------------------------------------------------------
    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        turn = self._turn()
        if turn.offer is not None:
            private, price, seat = turn.offer
            answer = handler(self.OFFER, action, "IV.2",
                             f"{pos.players[seat].name} accepts or declines the offer "
                             f"of {price} for {private}")
            answer(self, pos, turn, action, log)
            return
        if turn.home:
            station = expect(PlaceStation, action, "IX.6",
                             f"line {turn.line} first places its home marker")
            choose_home(pos, turn.line, station, log)
            turn.home = False
            return
        lifted, freed = turn.home_lifted, turn.bonus_circle
        if lifted is not None and isinstance(action, PlaceStation) and action.hex == lifted:
            owner = turn.line if turn.lifted_line is None else turn.lifted_line
            move_lifted(pos, owner, action, log)
            turn.home_lifted, turn.lifted_line = None, None
            end_freed_bonus(self)
            return
        self._play_in_turn(pos, turn, action, log)
        if freed is not None and turn.bonus_circle == freed:
            end_freed_bonus(self)  # the freed circle's bonus was the next action or never
        if turn.home_lifted == lifted and not isinstance(action, LayTile):
            turn.home_lifted = None  # the choice was the next action or never (R-LR-13)

    def _play_in_turn(self, pos: Position, turn: Turn, action: Action, log: list[str]) -> None:
        if isinstance(action, CompanyAction):
            company = pos.company_of_line(turn.line)
            if action.company != company.id:
                raise IllegalAction("IX.1", f"it is line {turn.line}'s turn ({company.id})")
            play = handler(self.COMPANY, action, "IX.3", "not an action of a Line Round")
            play(self, pos, turn, action, log)
            turn.bonus = None
            if pos.rules.returns_and_scraps_in_turn and pos.tram_of(turn.line) is None:
                turn.track_over = True  # the site's line scraps in its Route step
            return
        if turn.track_over and isinstance(action, (LayTile, PlaceStation, RemoveMarker)):
            raise IllegalAction("X-23", f"line {turn.line} scrapped its tram: on 18xx.games "
                                "its track and station step is over")
        if not isinstance(action, LineAction) or action.line != turn.line:
            raise IllegalAction("IX.1", f"it is line {turn.line}'s turn")
        if turn.ran:
            play = handler(self.AFTER_RUN, action, "IX.3",
                           f"line {turn.line} has run: buy a private or end")
        else:
            play = handler(self.IN_TURN, action, "IX.3", "not an action of a Line Round")
        play(self, pos, turn, action, log)

    # --- the handlers ------------------------------------------------------------------
    def _accept(self, pos: Position, turn: Turn, action: Accept, log: list[str]) -> None:
        """IV.2: the owner accepts the company's offer for the private."""
        assert turn.offer is not None
        private, price, seat = turn.offer
        turn.offer = None
        privates.sell_to_company(pos, pos.company_of_line(turn.line), private, price, seat, log)

    def _decline(self, pos: Position, turn: Turn, action: Decline, log: list[str]) -> None:
        """IV.2: the owner declines the company's offer."""
        assert turn.offer is not None
        private, _price, seat = turn.offer
        turn.offer = None
        log.append(f"{pos.players[seat].name} declines the offer for {private}")

    def _scrap(self, pos: Position, turn: Turn, action: ScrapTram, log: list[str]) -> None:
        line = action.line
        if (line is None and pos.rules.returns_and_scraps_in_turn
                and pos.tram_of(turn.line) == action.colour):
            line = turn.line  # the acting line's tram, not another line's of that
            # colour (the site takes it from the line: random_46004_5p)
        trams.scrap(pos, pos.company_of_line(turn.line), action.colour, log, line=line)

    def _return(self, pos: Position, turn: Turn, action: CompanyReturnPrivate,
                log: list[str]) -> None:
        privates.return_to_bank(pos, pos.company_of_line(turn.line), action.private, log)

    def _lay(self, pos: Position, turn: Turn, action: LayTile, log: list[str]) -> None:
        lay = check_lay(pos, turn, action)
        company = pos.company_of_line(turn.line)
        if lay.cost > company.treasury:
            raise IllegalAction("R-LR-10", f"{company.id} cannot pay {lay.cost}")
        untiled = pos.board.tile(lay.coord) is None
        lay.apply(pos.board)
        turn.home_lifted, turn.lifted_line = None, None
        if untiled and pos.rules.home_marker_lifted:
            turn.home_lifted = lifted_home(pos, turn.line, lay.coord)
            if turn.home_lifted is not None:
                turn.lifted_line = lifted_owner(pos, turn.line, lay.coord)
        company.treasury -= lay.cost
        turn.laid_hexes.append(lay.coord)
        kind = lay.kind
        cost = f" for {lay.cost}" if lay.cost else ""
        log.append(f"Line {turn.line} lays tile {lay.tile_id} on {lay.coord} "
                   f"(rotation {lay.rotation}){cost}")
        if kind == "stadtbahn":
            turn.stadtbahn = True
            turn.bonus = legality.bonus_action(pos.board, lay.coord)
            if turn.bonus:
                log.append(f"Bonus action: {turn.bonus.replace('_', ' ')}")
            return
        if kind == "normal":
            turn.laid = True
        turn.bonus = None
        landmark = getattr(lay, "landmark", None)
        if landmark:
            log.append(f"The {landmark} landmark token goes on {lay.coord}")

    def _station(self, pos: Position, turn: Turn, action: PlaceStation, log: list[str]) -> None:
        free = bonus_is_free(turn, action.hex, action.location)
        if turn.station and not free:
            raise IllegalAction("IX.6", f"line {turn.line} has placed its station marker this "
                                "turn")
        chosen = legality.check_station(pos, turn.line, action.hex, action.location, free=free)
        if pos.rules.one_marker_per_hex and any(
                coord == action.hex for coord, _ in pos.board.line_markers(turn.line)):
            raise IllegalAction("X-24", f"line {turn.line} has a marker on {action.hex} already "
                                "(18xx.games: one per hex)")
        if chosen.cost > pos.company_of_line(turn.line).treasury:
            raise IllegalAction("R-LR-10", f"the treasury cannot pay {chosen.cost}")
        company = pos.company_of_line(turn.line)
        pos.board.place_marker(action.hex, action.location, turn.line)
        company.treasury -= chosen.cost
        if not free:
            turn.station = True
        turn.bonus, turn.bonus_circle = None, None
        log.append(f"Line {turn.line} places a station marker on {action.hex}.{action.location}"
                   f" for {chosen.cost}")

    def _remove(self, pos: Position, turn: Turn, action: RemoveMarker, log: list[str]) -> None:
        chosen = legality.check_marker_removal(pos, turn.line, action.hex, action.location)
        if chosen.cost > pos.company_of_line(turn.line).treasury:
            raise IllegalAction("R-LR-10", f"the treasury cannot pay {chosen.cost}")
        company = pos.company_of_line(turn.line)
        pos.board.remove_marker(action.hex, action.location, chosen.company)
        company.treasury -= chosen.cost
        log.append(f"Line {turn.line} removes Stadtbahn {chosen.company}'s marker on "
                   f"{action.hex}.{action.location} for {chosen.cost}")
        bonus_after_removal(pos, turn, action.hex, action.location)

    def _buy_private(self, pos: Position, turn: Turn, action: BuyPrivate,
                     log: list[str]) -> None:
        """IV.2: from LR2a the company buys a private: from its director at once, from another
        player as an offer that player answers."""
        company = pos.company_of_line(turn.line)
        if not privates.sale_price_ok(pos, company, action.private, action.price):
            raise IllegalAction("IV.2", f"cannot buy {action.private} for {action.price} now "
                                "(from LR2a, 1 to face value, from the treasury)")
        seller = pos.private_owner[action.private]
        assert isinstance(seller, int)
        if seller != company.director and not pos.rules.sale_without_consent:
            turn.offer = (action.private, action.price, seller)
            log.append(f"{company.id} offers {action.price} for {action.private} to "
                       f"{pos.players[seller].name}")
            return
        privates.sell_to_company(pos, company, action.private, action.price, seller, log)

    def _buy_private_in_turn(self, pos: Position, turn: Turn, action: BuyPrivate,
                             log: list[str]) -> None:
        self._buy_private(pos, turn, action, log)
        turn.bonus = None

    def _skip(self, pos: Position, turn: Turn, action: SkipBonus, log: list[str]) -> None:
        if turn.bonus is None:
            raise IllegalAction("R-LR-1", f"line {turn.line} has no bonus action pending")
        log.append(f"Line {turn.line} declines its bonus action")
        turn.bonus = None

    def _run(self, pos: Position, turn: Turn, action: Run, log: list[str]) -> None:
        """IX.7: the run ends the turn (with the 18xx.games ruleset a private may still be
        bought after it, the site's BuyCompany step)."""
        income, text = run_value(pos, turn.line, action.route)
        company = pos.company_of_line(turn.line)
        log.append(f"Line {turn.line} runs ({text}) for {income}")
        receive_income(pos, company.id, income, log)
        if pos.rules.private_after_run and can_buy_private(pos, turn):
            turn.ran = True  # the site's BuyCompany step follows the run
        else:
            self._next_line(pos, log)

    def _end(self, pos: Position, turn: Turn, action: EndTurn, log: list[str]) -> None:
        self._next_line(pos, log)

    OFFER: ClassVar[dict[type[Action], Handler]] = {Accept: _accept, Decline: _decline}
    """A company's offer for a player's private awaits its owner's answer (IV.2)."""
    COMPANY: ClassVar[dict[type[Action], Handler]] = {
        ScrapTram: _scrap, CompanyReturnPrivate: _return}
    """The line's company's own actions in the line's turn (VIII.5.3, IV.2)."""
    IN_TURN: ClassVar[dict[type[Action], Handler]] = {
        LayTile: _lay, PlaceStation: _station, RemoveMarker: _remove,
        BuyPrivate: _buy_private_in_turn, SkipBonus: _skip, Run: _run}
    """The line's turn before its run (IX.3, R-LR-1)."""
    AFTER_RUN: ClassVar[dict[type[Action], Handler]] = {BuyPrivate: _buy_private, EndTurn: _end}
    """After the run, with the 18xx.games ruleset: buy a private or end the turn."""

    # --- the turns ---------------------------------------------------------------------
    def start_turn(self, pos: Position, log: list[str]) -> None:
        """The next line's turn: its home marker first (IX.6)."""
        line = self.lines[self.turn_index]
        first = line not in pos.operated
        self.turn = Turn(line=line, first=first)
        if not first:
            return
        if home_waits(pos, line):
            log.append(f"Line {line} waits for a tile on {pos.ent.lines[line].home_hex} to "
                       "place its home marker (18xx.games, X-20 proposed)")
            return  # it plays its turn without a marker and has not yet operated (IX.6)
        if home_choice(pos, line):
            self.turn.home = True  # the director picks the circle (a PlaceStation) first
            return
        place_home(pos, line, log)  # before it counts as operating (IX.6)
        pos.operated.add(line)

    def _next_line(self, pos: Position, log: list[str]) -> None:
        self.turn_index += 1
        self.turn = None
        if self.turn_index < len(self.lines):
            self.start_turn(pos, log)


def begin(pos: Position, log: list[str]) -> LineRound:
    lines = sorted(pos.line_owner)
    line_round = pos.current_round = LineRound(lines=lines)
    log.append(f"{pos.round.name} begins (phase {pos.phase})")
    if lines:
        line_round.start_turn(pos, log)
    return line_round
