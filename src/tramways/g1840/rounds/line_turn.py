"""A line's turn in a Line Round (IX.3, R-LR-1): what it has done so far (:class:`Turn`) and
what it may still build: tile lays (IX.4, IX.5, the Stadtbahn tile and its bonus, R-LR-1),
station markers (IX.6, R-LR-4), Stadtbahn marker removals (R-LR-5) and privates to buy (IV.2).
The tile and station rules themselves are the legality module's
(:mod:`tramways.g1840.legality`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tramways.core.errors import IllegalAction
from tramways.g1840 import legality
from tramways.g1840.actions import LayTile
from tramways.g1840.mechanics import privates
from tramways.g1840.position import Position
from tramways.g1840.rounds.line_home import home_waits
from tramways.g1840.shared_actions import Block, Interned

LAY = Interned(lambda line, coord, tile, rotation, seat: LayTile(
    line=line, hex=coord, tile=tile, rotation=rotation, player=seat))
"""A line's tile lays, built once per distinct fields (:class:`Interned`)."""

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
    lifted_line: int | None = None  # whose home marker is lifted (another line's)
    track_over: bool = False  # the line scrapped its own tram (the site's Route step)
    bonus_circle: tuple[str, int] | None = None  # the circle a removal freed while the
    #                                              bonus station was pending: its only place


def tile_options(pos: Position, turn: Turn) -> list[legality.TileLay]:
    """Every legal tile lay now, as the legality module's ``TileLay`` values: a pending
    bonus's lays, the normal lay's, the Stadtbahn tile's, each once (R-LR-1) and only what
    the treasury can pay (R-LR-10)."""
    treasury = pos.company_of_line(turn.line).treasury
    bonus = turn.bonus
    if bonus is None or bonus not in TILE_BONUSES:
        return _turn_lays(pos, turn, treasury)
    out = list(legality.legal_bonus_lays(pos, turn.line, bonus,
                                         laid_this_turn=not_upgradable(pos, turn)))
    if not turn.laid:
        normal = legality.legal_tile_lays(
            pos, turn.line, first_turn=turn.first and not pos.rules.home_tile_anywhere,
            laid_this_turn=not_upgradable(pos, turn), mode="normal")
        if not out and (turn.stadtbahn or not legality.legal_stadtbahn_lays(pos, turn.line)):
            return [lay for lay in normal if lay.cost <= treasury]  # one list: no repeats
        out.extend(normal)
    if not turn.stadtbahn:
        out.extend(legality.legal_stadtbahn_lays(pos, turn.line))
    seen: set[tuple[str, str, int]] = set()
    result = []
    for lay in out:
        key = (lay.coord, lay.tile_id, lay.rotation)
        if key in seen or lay.cost > treasury:
            continue
        seen.add(key)
        result.append(lay)
    return result


def _turn_lays(pos: Position, turn: Turn, treasury: int) -> list[legality.TileLay]:
    """:func:`tile_options` without a pending tile bonus: the normal lays (each hex, tile and
    rotation once), then the Stadtbahn lays, which never repeat a normal lay (the Stadtbahn
    tile is a yellow orange-edged tile, which a normal lay never is: IX.4), each once
    (:func:`~tramways.g1840.legality.distinct_stadtbahn_lays`: a hex, tile and rotation has
    one cost, so dropping the repeats before the treasury's check drops the same ones)."""
    out: list[legality.TileLay] = []
    if not turn.laid:
        normal = legality.legal_tile_lays(
            pos, turn.line, first_turn=turn.first and not pos.rules.home_tile_anywhere,
            laid_this_turn=not_upgradable(pos, turn), mode="normal")
        out = [lay for lay in normal if lay.cost <= treasury]
    if not turn.stadtbahn:
        stadtbahn, dearest = legality.distinct_stadtbahn_lays(pos, turn.line)
        if stadtbahn:
            out.extend(stadtbahn if dearest <= treasury
                       else [lay for lay in stadtbahn if lay.cost <= treasury])
    return out


class Lays(Block[LayTile]):
    """A line's tile lays (IX.4, IX.5, R-LR-1) as a block of its listing: the lays of
    :func:`tile_options`, made into ``LayTile`` actions only when asked for."""

    __slots__ = ("line", "seat", "lays")
    cls = LayTile

    def __init__(self, line: int, seat: int, lays: list[legality.TileLay]) -> None:
        self.line = line
        self.seat = seat
        self.lays = lays

    def __len__(self) -> int:
        return len(self.lays)

    def action(self, k: int) -> LayTile:
        t = self.lays[k]
        return LAY(self.line, t.coord, t.tile_id, t.rotation, self.seat)

    def actions(self) -> list[LayTile]:
        line, seat = self.line, self.seat
        return [LAY(line, t.coord, t.tile_id, t.rotation, seat) for t in self.lays]


def not_upgradable(pos: Position, turn: Turn) -> list[str]:
    """Hexes whose tile cannot be upgraded now because it was laid this turn (R-LR-3; the
    18xx.games ruleset allows it, X-10)."""
    return [] if pos.rules.upgrade_laid_this_turn else turn.laid_hexes


def check_lay(pos: Position, turn: Turn, action: LayTile) -> legality.TileLay:
    """The TileLay for ``action``: the pending bonus first, then the Stadtbahn tile, then the
    normal lay (R-LR-1)."""
    refusal: IllegalAction | None = None
    attempts: list[Callable[[], legality.TileLay]] = []
    bonus = turn.bonus
    if bonus in TILE_BONUSES:
        attempts.append(lambda: legality.check_bonus_lay(
            pos, turn.line, bonus, action.hex, action.tile, action.rotation,
            laid_this_turn=not_upgradable(pos, turn)))
    hexdef = pos.board.layout.hexes.get(action.hex)
    is_sb = (hexdef is not None and hexdef.stadtbahn is not None
             and pos.board.tile(action.hex) is None)
    if is_sb and not turn.stadtbahn:
        attempts.append(lambda: legality.check_stadtbahn_lay(
            pos, turn.line, action.hex, action.tile, action.rotation))
    if not turn.laid:
        attempts.append(lambda: legality.check_tile_lay(
            pos, turn.line, action.hex, action.tile, action.rotation,
            first_turn=turn.first and not pos.rules.home_tile_anywhere,
            laid_this_turn=not_upgradable(pos, turn), mode="normal"))
    for attempt in attempts:
        try:
            return attempt()
        except IllegalAction as exc:
            refusal = refusal or exc
    if refusal is not None:
        raise refusal
    raise IllegalAction("R-LR-1", f"line {turn.line} has no tile lay left this turn")


def station_options(pos: Position, turn: Turn) -> list[legality.StationPlacement]:
    """Legal station placements now (IX.6; the free bonus marker R-LR-4)."""
    free = turn.bonus == legality.BONUS_STATION
    if turn.station and not free:
        return []
    operated = pos.has_operated(turn.line)
    if not operated and home_waits(pos, turn.line):
        return []  # X-20 (proposed): no marker before the home marker
    treasury = pos.company_of_line(turn.line).treasury
    if not free and operated:
        cost = legality.next_marker_cost(pos.board, turn.line)
        if cost is None or cost > treasury:
            return []  # IX.6, R-LR-10: no marker left, or none the treasury can pay
    options = legality.legal_station_placements(pos, turn.line, free=free)
    if free and turn.bonus_circle is not None:  # the bonus only on the freed circle
        options = [o for o in options if (o.coord, o.location) == turn.bonus_circle]
        if not turn.station:
            options += [o for o in legality.legal_station_placements(pos, turn.line)
                        if (o.coord, o.location) != turn.bonus_circle]
    if pos.rules.one_marker_per_hex:  # X-24 (proposed): the site's one token per hex
        mine = {coord for coord, _ in pos.board.line_markers(turn.line)}
        options = [o for o in options if o.coord not in mine]
    return [o for o in options if o.cost <= treasury]


def bonus_is_free(turn: Turn, coord: str, location: int) -> bool:
    """Whether a station marker placed now on ``coord.location`` is the free bonus marker
    (R-LR-4): a station bonus is pending and, after a removal under X-26, it goes on the
    circle that removal freed."""
    return turn.bonus == legality.BONUS_STATION and turn.bonus_circle in (None, (coord, location))


def bonus_after_removal(pos: Position, turn: Turn, coord: str, location: int) -> None:
    """What a Stadtbahn marker removal leaves of a pending bonus (R-LR-1, R-LR-5): a tile
    bonus is lost; a station bonus stays (the bonus marker may replace the removed one).
    Under X-26 (18xx.games) the site's bonus station step comes before any removal and
    removes a marker only where the bonus marker goes: the bonus stays for the circle just
    freed, and a second removal ends it (random_47067_3p, random_47101_6p)."""
    if turn.bonus != legality.BONUS_STATION:
        turn.bonus = None
    elif pos.rules.bonus_station_first:
        turn.bonus_circle = None if turn.bonus_circle is not None else (coord, location)
        if turn.bonus_circle is None:
            turn.bonus = None


def end_freed_bonus(progress: object) -> None:
    """X-26: the bonus kept for a freed circle ends with any action other than the bonus
    marker there (a player's return too: on the site the removal was the bonus step's own)."""
    turn = getattr(progress, "turn", None)
    if isinstance(turn, Turn) and turn.bonus_circle is not None:
        turn.bonus, turn.bonus_circle = None, None


def removal_options(pos: Position, turn: Turn) -> list[legality.MarkerRemoval]:
    """Stadtbahn markers the line may remove now (R-LR-5), those the treasury can pay
    (R-LR-10): every removal costs ``REMOVAL_COST``, so none below it (nothing listed)."""
    treasury = pos.company_of_line(turn.line).treasury
    if treasury < legality.REMOVAL_COST:
        return []
    return [r for r in legality.legal_marker_removals(pos, turn.line) if r.cost <= treasury]


def private_options(pos: Position, turn: Turn) -> list[tuple[str, int]]:
    """IV.2: the privates the line's company may buy now, at which prices."""
    return privates.sale_prices(pos, pos.company_of_line(turn.line))


def can_buy_private(pos: Position, turn: Turn) -> bool:
    """Whether :func:`private_options` lists anything (IV.2), without listing every price."""
    return privates.has_sale_price(pos, pos.company_of_line(turn.line))
