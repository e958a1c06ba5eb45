"""Line Rounds (IX; R-LR-1..10).

Lines act in number order (IX.1).  A line's turn: construction in any order, none mandatory
(IX.3, R-LR-1): one normal tile lay or upgrade, one yellow Stadtbahn tile (20) followed at once
by its bonus action, one station marker, any number of Stadtbahn marker removals (40 each,
R-LR-5); then the tram's run (IX.7), which ends the turn.  The home marker is placed free at the
start of the line's first turn (IX.6; the director picks the circle when a tile lies on the home
hex and several circles are free, as on D18, R-LR-13: see :func:`_home_choice`).  Income goes onto the company's revenue space; negative
income is paid from the revenue space, then the treasury, then the director, then loans
(IX.8, R-LR-9).  From LR2a a company may buy a private in a line's turn (IV.2).

The tile and station rules are the legality module's (:mod:`tramways.g1840.legality`); the
runs are the routes module's (:mod:`tramways.g1840.routes`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
from tramways.g1840.mechanics.money import pay_from_director
from tramways.g1840.position import Position
from tramways.g1840.routes import best_route, check_route, format_route

NO_RUN = "none"
"""The route of ``L7 run none``: no run at all, as the site records it (X-8, R-LR-8)."""

TILE_BONUSES = (legality.BONUS_YELLOW, legality.BONUS_UPGRADE, legality.BONUS_RED,
                legality.BONUS_PURPLE)


@dataclass
class Turn:
    """What the current line has done in its turn (R-LR-1)."""

    line: int
    first: bool
    laid: bool = False
    stadtbahn: bool = False
    bonus: str | None = None  # pending bonus mode, right after the Stadtbahn tile
    station: bool = False
    laid_hexes: list[str] = field(default_factory=list)
    offer: tuple[str, int, int] | None = None  # (private, price, seller) awaiting an answer
    ran: bool = False  # 18xx.games ruleset: the run is done, a private may still be bought
    home: bool = False  # the home marker awaits the director's choice of circle (IX.6)
    home_lifted: str | None = None  # the site's R-LR-13: the marker on this hex may move now


@dataclass
class LineRound:
    """A Line Round's progress."""

    lines: list[int]
    pos: int = 0
    turn: Turn | None = None

    # --- the Round protocol (rounds.base) --------------------------------------------
    def acting(self, pos: Position) -> int:
        return acting(pos)

    def legal(self, pos: Position) -> list[Action]:
        return legal(pos)

    def apply(self, pos: Position, action: Action, log: list[str]) -> None:
        apply(pos, action, log)

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

    def view(self, pos: Position) -> dict[str, Any]:
        turn = self.turn
        if turn is None:
            return {}
        return {"line_turn": {
            "line": turn.line, "first": turn.first, "tile_laid": turn.laid,
            "stadtbahn_tile_laid": turn.stadtbahn, "station_placed": turn.station,
            "bonus": turn.bonus, "offer": list(turn.offer) if turn.offer else None,
            "home_choice": turn.home,  # the home circle awaits the director (IX.6)
        }}

    def turn_view(self, pos: Position) -> dict[str, Any]:
        return {"line": current_line(pos)}


def begin(state: Position, log: list[str]) -> LineRound:
    lines = sorted(state.line_owner)
    sub = state.sub = LineRound(lines=lines)
    log.append(f"{state.round.name} begins (phase {state.phase})")
    if lines:
        _start_turn(state, log)
    return sub


def _start_turn(state: Position, log: list[str]) -> None:
    sub = _progress(state)
    line = sub.lines[sub.pos]
    first = line not in state.operated
    sub.turn = Turn(line=line, first=first)
    if first:
        if _home_waits(state, line):
            log.append(f"Line {line} waits for a tile on {state.ent.lines[line].home_hex} to "
                       "place its home marker (18xx.games, X-20 proposed)")
            return  # it plays its turn without a marker and has not yet operated (IX.6)
        if _home_choice(state, line):
            sub.turn.home = True  # the director picks the circle (a PlaceStation) first
            return
        _place_home(state, line, log)  # before it counts as operating (IX.6)
        state.operated.add(line)


def _home_waits(state: Position, line: int) -> bool:
    """X-20 (proposed, 18xx.games): the site's untiled D18 holds one home marker: when line 1
    or 2 first operates while the other's marker is on the untiled hex, its own home marker
    waits until a tile is there and goes on at the start of its next turn (fz2027_14_3ps:
    line 2 first operates at action 160 with no marker, places it at action 197 after line 1
    tiled D18 at 193).  The printed D18 has two circles, one for each line (IX.6)."""
    if not state.rules.home_waits_for_tile:
        return False
    coord = state.ent.lines[line].home_hex
    board = state.board
    return board.tile(coord) is None and any(
        isinstance(owner, int) and owner != line
        for owners in board.markers(coord).values() for owner in owners)


def _home_options(state: Position, line: int) -> list[legality.StationPlacement]:
    return [o for o in legality.legal_station_placements(state, line) if o.home]


def _home_choice(state: Position, line: int) -> bool:
    """Whether the director must choose the circle of the home marker (IX.6).

    R-LR-13 (D18, the OO home of lines 1 and 2; IX.6 names "the interchange
    bearing that line's number" but the printed hex has two circles for two lines): while no
    tile lies on the hex, its circles have no track and are alike -- the marker goes on the
    first free one and the tile laid later decides where each circle leads, so no decision is
    lost. Once a tile is there the circles lead to different edges: if more than one is free,
    the director chooses (a ``PlaceStation`` on the home hex, free) before anything else in
    the line's first turn. 18xx.games asks the same (fz2027_18_2p action 78: line 1 tiled
    E17, the home of line 3, with two circles; "3 must choose city for home token").
    """
    options = _home_options(state, line)
    if len({(o.coord, o.location) for o in options}) < 2:
        return False
    return state.board.tile(options[0].coord) is not None


def _place_home(state: Position, line: int, log: list[str]) -> None:
    """IX.6: the first marker goes free on the home base at the start of the first turn
    (the first free circle; see :func:`_home_choice` for when the director picks)."""
    board = state.board
    coord = state.ent.lines[line].home_hex
    for option in _home_options(state, line):
        if option.home:
            board.place_marker(option.coord, option.location, line)
            log.append(f"Line {line} places its home marker on {option.coord}.{option.location}")
            return
    log.append(f"Line {line} finds no free circle on its home base {coord}")


def acting(state: Position) -> int:
    turn = _progress(state).turn
    assert turn is not None
    if turn.offer is not None:
        return turn.offer[2]
    return state.company_of_line(turn.line).director


def current_line(state: Position) -> int:
    turn = _progress(state).turn
    assert turn is not None
    return int(turn.line)


# --- construction options ----------------------------------------------------------------


def tile_options(state: Position, turn: Turn) -> list[legality.TileLay]:
    """Every legal tile lay now, as the legality module's ``TileLay`` values."""
    treasury = state.company_of_line(turn.line).treasury
    out: list[legality.TileLay] = []
    if turn.bonus in TILE_BONUSES:
        out.extend(legality.legal_bonus_lays(state, turn.line, turn.bonus,
                                             laid_this_turn=_not_upgradable(state, turn)))
    if not turn.laid:
        out.extend(legality.legal_tile_lays(state, turn.line, first_turn=turn.first and not state.rules.home_tile_anywhere,
                                            laid_this_turn=_not_upgradable(state, turn), mode="normal"))
    if not turn.stadtbahn:
        out.extend(legality.legal_stadtbahn_lays(state, turn.line))
    seen: set[tuple[str, str, int]] = set()
    result = []
    for lay in out:
        key = (lay.coord, lay.tile_id, lay.rotation)
        if key in seen or lay.cost > treasury:
            continue
        seen.add(key)
        result.append(lay)
    return result


def _not_upgradable(state: Position, turn: Turn) -> list[str]:
    """Hexes whose tile cannot be upgraded now because it was laid this turn (R-LR-3; the
    18xx.games ruleset allows it, X-10)."""
    return [] if state.rules.upgrade_laid_this_turn else turn.laid_hexes


def _check_lay(state: Position, turn: Turn, action: LayTile) -> legality.TileLay:
    """The TileLay for ``action``: the pending bonus first, then the Stadtbahn tile, then the
    normal lay (R-LR-1)."""
    refusal: IllegalAction | None = None
    attempts: list[Callable[[], legality.TileLay]] = []
    bonus = turn.bonus
    if bonus in TILE_BONUSES:
        attempts.append(lambda: legality.check_bonus_lay(
            state, turn.line, bonus, action.hex, action.tile, action.rotation,
            laid_this_turn=_not_upgradable(state, turn)))
    hexdef = state.board.layout.hexes.get(action.hex)
    is_sb = (hexdef is not None and hexdef.stadtbahn is not None
             and state.board.tile(action.hex) is None)
    if is_sb and not turn.stadtbahn:
        attempts.append(lambda: legality.check_stadtbahn_lay(
            state, turn.line, action.hex, action.tile, action.rotation))
    if not turn.laid:
        attempts.append(lambda: legality.check_tile_lay(
            state, turn.line, action.hex, action.tile, action.rotation,
            first_turn=turn.first and not state.rules.home_tile_anywhere, laid_this_turn=_not_upgradable(state, turn), mode="normal"))
    for attempt in attempts:
        try:
            return attempt()
        except IllegalAction as exc:
            refusal = refusal or exc
    if refusal is not None:
        raise refusal
    raise IllegalAction("R-LR-1", f"line {turn.line} has no tile lay left this turn")


def station_options(state: Position, turn: Turn) -> list[legality.StationPlacement]:
    """Legal station placements now (IX.6; the free bonus marker R-LR-4)."""
    free = turn.bonus == legality.BONUS_STATION
    if turn.station and not free:
        return []
    if not state.has_operated(turn.line) and _home_waits(state, turn.line):
        return []  # X-20 (proposed): no marker before the home marker
    options = legality.legal_station_placements(state, turn.line, free=free)
    treasury = state.company_of_line(turn.line).treasury
    return [o for o in options if o.cost <= treasury]


def removal_options(state: Position, turn: Turn) -> list[legality.MarkerRemoval]:
    """Stadtbahn markers the line may remove now (R-LR-5)."""
    treasury = state.company_of_line(turn.line).treasury
    return [r for r in legality.legal_marker_removals(state, turn.line) if r.cost <= treasury]


def private_options(state: Position, turn: Turn) -> list[tuple[str, int]]:
    """IV.2: the privates the line's company may buy now, at which prices."""
    return privates.sale_prices(state, state.company_of_line(turn.line))


# --- the protocol ------------------------------------------------------------------------


def legal(state: Position) -> list[Action]:
    sub = _progress(state)
    turn = sub.turn
    assert turn is not None
    if turn.offer is not None:
        return [Accept(turn.offer[2]), Decline(turn.offer[2])]
    line = turn.line
    company = state.company_of_line(line)
    seat = company.director
    if turn.home:
        return [PlaceStation(line=line, hex=o.coord, location=o.location, player=seat)
                for o in _home_options(state, line)]
    if turn.ran:
        return [*(BuyPrivate(line=line, private=p, price=price, player=seat)
                  for p, price in private_options(state, turn)),
                EndTurn(line=line, player=seat)]
    out: list[Action] = [
        LayTile(line=line, hex=t.coord, tile=t.tile_id, rotation=t.rotation, player=seat)
        for t in tile_options(state, turn)
    ]
    out.extend(PlaceStation(line=line, hex=s.coord, location=s.location, player=seat)
               for s in station_options(state, turn))
    if turn.home_lifted is not None:
        out.extend(PlaceStation(line=line, hex=turn.home_lifted, location=loc.id, player=seat)
                   for loc in state.board.locations(turn.home_lifted)
                   if loc.is_interchange and state.board.free_slots(turn.home_lifted, loc.id))
    out.extend(RemoveMarker(line=line, hex=r.coord, location=r.location, player=seat)
               for r in removal_options(state, turn))
    out.extend(BuyPrivate(line=line, private=p, price=price, player=seat)
               for p, price in private_options(state, turn))
    out.extend(ScrapTram(company=company.id, colour=c, player=seat)
               for c in sorted(set(company.owned())))
    out.extend(CompanyReturnPrivate(company=company.id, private=p, player=seat)
               for p in company.privates)
    if turn.bonus is not None:
        out.append(SkipBonus(line=line, player=seat))
    out.append(Run(line=line, player=seat))
    return out


def apply(state: Position, action: Action, log: list[str]) -> None:
    sub = _progress(state)
    turn = sub.turn
    assert turn is not None
    if turn.offer is not None:
        _answer(state, turn, action, log)
        return
    if turn.home:
        _choose_home(state, turn, action, log)
        return
    lifted = turn.home_lifted
    if lifted is not None and isinstance(action, PlaceStation) and action.hex == lifted:
        _move_lifted(state, turn, action, log)
        turn.home_lifted = None
        return
    _apply_in_turn(state, turn, action, log)
    if turn.home_lifted == lifted and not isinstance(action, LayTile):
        turn.home_lifted = None  # the choice was the next action or never (R-LR-13)


def _apply_in_turn(state: Position, turn: Turn, action: Action, log: list[str]) -> None:
    company = state.company_of_line(turn.line)
    if isinstance(action, CompanyAction):
        if action.company != company.id:
            raise IllegalAction("IX.1", f"it is line {turn.line}'s turn ({company.id})")
        if isinstance(action, ScrapTram):
            trams.scrap(state, company, action.colour, log, line=action.line)
        elif isinstance(action, CompanyReturnPrivate):
            privates.return_to_bank(state, company, action.private, log)
        else:
            raise IllegalAction("IX.3", "not an action of a Line Round")
        turn.bonus = None
        return
    if not isinstance(action, LineAction) or action.line != turn.line:
        raise IllegalAction("IX.1", f"it is line {turn.line}'s turn")
    if turn.ran:
        if isinstance(action, BuyPrivate):
            _buy_private(state, turn, action, log)
        elif isinstance(action, EndTurn):
            _next_line(state, log)
        else:
            raise IllegalAction("IX.3", f"line {turn.line} has run: buy a private or end")
        return
    if isinstance(action, LayTile):
        _lay(state, turn, action, log)
    elif isinstance(action, PlaceStation):
        _station(state, turn, action, log)
    elif isinstance(action, RemoveMarker):
        _remove(state, turn, action, log)
    elif isinstance(action, BuyPrivate):
        _buy_private(state, turn, action, log)
        turn.bonus = None
    elif isinstance(action, SkipBonus):
        if turn.bonus is None:
            raise IllegalAction("R-LR-1", f"line {turn.line} has no bonus action pending")
        log.append(f"Line {turn.line} declines its bonus action")
        turn.bonus = None
    elif isinstance(action, Run):
        _run(state, turn, action, log)
        if state.rules.private_after_run and private_options(state, turn):
            turn.ran = True  # the site's BuyCompany step follows the run
        else:
            _next_line(state, log)
    else:
        raise IllegalAction("IX.3", "not an action of a Line Round")


def _lay(state: Position, turn: Turn, action: LayTile, log: list[str]) -> None:
    lay = _check_lay(state, turn, action)
    company = state.company_of_line(turn.line)
    if lay.cost > company.treasury:
        raise IllegalAction("R-LR-10", f"{company.id} cannot pay {lay.cost}")
    untiled = state.board.tile(lay.coord) is None
    lay.apply(state.board)
    turn.home_lifted = None
    if untiled and state.rules.home_marker_lifted:
        _lift_home_marker(state, turn, lay.coord, log)
    company.treasury -= lay.cost
    turn.laid_hexes.append(lay.coord)
    kind = lay.kind
    cost = f" for {lay.cost}" if lay.cost else ""
    log.append(f"Line {turn.line} lays tile {lay.tile_id} on {lay.coord} "
               f"(rotation {lay.rotation}){cost}")
    if kind == "stadtbahn":
        turn.stadtbahn = True
        turn.bonus = legality.bonus_action(state.board, lay.coord)
        if turn.bonus:
            log.append(f"Bonus action: {turn.bonus.replace('_', ' ')}")
        return
    if kind == "normal":
        turn.laid = True
    turn.bonus = None
    landmark = getattr(lay, "landmark", None)
    if landmark:
        log.append(f"The {landmark} landmark token goes on {lay.coord}")


def _lift_home_marker(state: Position, turn: Turn, coord: str, log: list[str]) -> None:
    """The site's R-LR-13: a tile laid on the untiled home hex holding the line's home marker,
    with several circles, lifts the marker until the director chooses its circle.  Here the
    marker stays on the first circle and the next action may move it, free, to another circle
    of that hex (a ``PlaceStation``); any other action keeps it where it is."""
    board = state.board
    if sum(1 for loc in board.locations(coord) if loc.is_interchange) < 2:
        return
    if any(turn.line in owners for owners in board.markers(coord).values()):
        turn.home_lifted = coord  # (no log line: nothing happens unless the marker moves)


def _move_lifted(state: Position, turn: Turn, action: PlaceStation, log: list[str]) -> None:
    board = state.board
    loc = {loc.id: loc for loc in board.locations(action.hex)}.get(action.location)
    if loc is None or not loc.is_interchange or board.free_slots(action.hex, action.location) <= 0:
        raise IllegalAction("IX.6", f"{action.hex}.{action.location} is no free circle")
    for location, owners in board.markers(action.hex).items():
        if turn.line in owners:
            board.remove_marker(action.hex, location, turn.line)
    board.place_marker(action.hex, action.location, turn.line)
    log.append(f"Line {turn.line} moves its marker to {action.hex}.{action.location}")


def _choose_home(state: Position, turn: Turn, action: Action, log: list[str]) -> None:
    """IX.6: the director places the free home marker on the circle of their choice."""
    if not isinstance(action, PlaceStation) or action.line != turn.line:
        raise IllegalAction("IX.6", f"line {turn.line} first places its home marker")
    chosen = legality.check_station(state, turn.line, action.hex, action.location)
    if not chosen.home:
        raise IllegalAction("IX.6", f"line {turn.line}'s first marker goes on its home base")
    state.board.place_marker(action.hex, action.location, turn.line)
    state.operated.add(turn.line)
    turn.home = False
    log.append(f"Line {turn.line} places its home marker on {action.hex}.{action.location}")


def _station(state: Position, turn: Turn, action: PlaceStation, log: list[str]) -> None:
    free = turn.bonus == legality.BONUS_STATION
    if turn.station and not free:
        raise IllegalAction("IX.6", f"line {turn.line} has placed its station marker this turn")
    chosen = legality.check_station(state, turn.line, action.hex, action.location, free=free)
    if chosen.cost > state.company_of_line(turn.line).treasury:
        raise IllegalAction("R-LR-10", f"the treasury cannot pay {chosen.cost}")
    company = state.company_of_line(turn.line)
    state.board.place_marker(action.hex, action.location, turn.line)
    company.treasury -= chosen.cost
    if turn.bonus == legality.BONUS_STATION:
        turn.bonus = None
    else:
        turn.station = True
        turn.bonus = None
    log.append(f"Line {turn.line} places a station marker on {action.hex}.{action.location}"
               f" for {chosen.cost}")


def _remove(state: Position, turn: Turn, action: RemoveMarker, log: list[str]) -> None:
    chosen = legality.check_marker_removal(state, turn.line, action.hex, action.location)
    if chosen.cost > state.company_of_line(turn.line).treasury:
        raise IllegalAction("R-LR-10", f"the treasury cannot pay {chosen.cost}")
    company = state.company_of_line(turn.line)
    state.board.remove_marker(action.hex, action.location, chosen.company)
    company.treasury -= chosen.cost
    log.append(f"Line {turn.line} removes Stadtbahn {chosen.company}'s marker on "
               f"{action.hex}.{action.location} for {chosen.cost}")
    if turn.bonus != legality.BONUS_STATION:
        turn.bonus = None  # R-LR-1; a bonus marker may still replace the removed one


def _buy_private(state: Position, turn: Turn, action: BuyPrivate, log: list[str]) -> None:
    if (action.private, action.price) not in set(private_options(state, turn)):
        raise IllegalAction("IV.2", f"cannot buy {action.private} for {action.price} now "
                            "(from LR2a, 1 to face value, from the treasury)")
    company = state.company_of_line(turn.line)
    seller = state.private_owner[action.private]
    assert isinstance(seller, int)
    if seller != company.director:
        turn.offer = (action.private, action.price, seller)
        log.append(f"{company.id} offers {action.price} for {action.private} to "
                   f"{state.players[seller].name}")
        return
    privates.sell_to_company(state, company, action.private, action.price, seller, log)


def _answer(state: Position, turn: Turn, action: Action, log: list[str]) -> None:
    """IV.2: the owner accepts or declines a company's offer for a private."""
    assert turn.offer is not None
    private, price, seat = turn.offer
    if isinstance(action, Accept):
        turn.offer = None
        privates.sell_to_company(state, state.company_of_line(turn.line), private, price, seat, log)
    elif isinstance(action, Decline):
        turn.offer = None
        log.append(f"{state.players[seat].name} declines the offer for {private}")
    else:
        raise IllegalAction("IV.2", f"{state.players[seat].name} accepts or declines the offer "
                            f"of {price} for {private}")


def run_value(state: Position, line: int, route: str | None = None) -> tuple[int, str]:
    """The line's income now (IX.7, IX.8): the best route's total, or 0 without tram/route."""
    colour = state.tram_of(line)
    if colour is None:
        return 0, "no tram"
    if route == NO_RUN:
        if not state.rules.runs_as_recorded:
            raise IllegalAction("IX.7", "a line with a tram runs its best route")
        return 0, "no run"  # the site records a run without routes (R-LR-8: no upkeep)
    if route is None and not state.rules.purple_station_route_end and len(state.board.reach(line).locations) < 2:
        return 0, "no route"  # IX.2: a route joins two revenue locations the line reaches
    ctx = state.route_context(line)
    best = None if (route is not None and state.rules.runs_as_recorded) else best_route(ctx)
    if route is not None:
        claimed = check_route(ctx, route)
        if state.rules.runs_as_recorded:  # a recorded run is taken as recorded when valid
            return claimed.total, format_route(claimed)
        if best is None or claimed.total != best.total:
            raise IllegalAction("IX.8", f"the claimed route earns {claimed.total}; "
                                f"the best earns {best.total if best else 0}")
        return claimed.total, format_route(claimed)
    if best is None:
        return 0, "no route"
    return best.total, format_route(best)


def _run(state: Position, turn: Turn, action: Run, log: list[str]) -> None:
    income, text = run_value(state, turn.line, action.route)
    company = state.company_of_line(turn.line)
    log.append(f"Line {turn.line} runs ({text}) for {income}")
    receive_income(state, company.id, income, log)


def receive_income(state: Position, company_id: str, income: int, log: list[str]) -> None:
    """IX.8 / R-LR-9: onto the revenue space; a loss from revenue, treasury, director, loans."""
    company = state.companies[company_id]
    if income >= 0:
        company.revenue += income
        return
    loss = -income
    if not state.rules.loss_skips_revenue:  # the 18xx.games ruleset skips the revenue space
        take = min(loss, company.revenue)
        company.revenue -= take
        loss -= take
    take = min(loss, company.treasury)
    company.treasury -= take
    loss -= take
    if loss:
        log.append(f"{state.players[company.director].name} pays {loss} of {company_id}'s loss")
        pay_from_director(state, company, loss, log)


def _next_line(state: Position, log: list[str]) -> None:
    sub = _progress(state)
    sub.pos += 1
    sub.turn = None
    if sub.pos < len(sub.lines):
        _start_turn(state, log)


def _progress(pos: Position) -> LineRound:
    sub = pos.sub
    assert isinstance(sub, LineRound)
    return sub
