"""Questions a player asks about a public 1840 position, answered from the view alone.

1840 hides nothing (the view is the position), so the board can be rebuilt from a view
(``tiles`` and every station marker) and the exact router (IX.8) asked about it:

* :func:`board_from_view`: the board a view shows;
* :func:`best_run`: a line's best run now (the route drawn by the pages' *Run the best route*);
* :func:`lay_previews`: for each legal tile lay of a line, the change it brings to that line's
  best run this turn (the revenue preview of the pages' tile choice);
* :func:`line_option_costs`: for a line's legal tile lays, station markers and marker removals,
  what each takes from the treasury (the Danube's 40, a Stadtbahn tile's 20, R-LR-10; the
  charter's marker price, IX.6; a removal's 40, R-LR-5) and, for a lay, why the tile goes down
  (the normal lay, the Stadtbahn tile or its bonus action, R-LR-1);
* :func:`claimed_run`: a route claimed stop by stop, checked (IX.2, IX.7) and valued (IX.8).

Pure functions: nothing here changes the view or the board passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict

from tramways.core.errors import IllegalAction
from tramways.g1840.board import Board, MarkerAt, default_location_map
from tramways.g1840.entities import entities, layout_name, privates_in
from tramways.g1840.routes import RouteContext, Run, best_route
from tramways.g1840.ruleset import Ruleset
from tramways.g1840.view_types import View1840, place_of

if TYPE_CHECKING:
    from tramways.g1840.legality.context import SimpleBuildState

Lay = tuple[str, str, int]
"""A tile lay: (hex, tile id, rotation), as in ``L7 lay E17 57 r2``."""


def layout_of(view: View1840) -> str:
    """The map of the game (R-SETUP-3): the small 3-player map has no Prater (XII)."""
    n = len(view.players)
    if n == 3 and set(view.privates) == set(privates_in("small3")):
        return layout_name(3, True)
    return layout_name(n, False)


def markers_of(view: View1840) -> list[MarkerAt]:
    """Every station marker of the view as ``(hex, location, owner)`` (Stadtbahn first)."""
    out: list[MarkerAt] = []
    for sid, s in view.stadtbahn.items():
        for place in s.markers:
            coord, loc = place_of(place)
            out.append((coord, loc, sid))
    for company in view.companies.values():
        for line, places in company.markers.items():
            for place in places:
                coord, loc = place_of(place)
                out.append((coord, loc, line))
    return out


def tiles_of(view: View1840) -> dict[str, tuple[str, int]]:
    """The view's tiles: hex -> (tile id, rotation)."""
    return {h: (t.tile, t.rotation) for h, t in view.tiles.items()}


def board_from_view(view: View1840) -> Board:
    """The board the view shows (tiles and markers; the tile supply follows from the tiles)."""
    return Board.of(layout_of(view), view.ruleset, tiles_of(view), markers_of(view))


def line_context(view: View1840, line: int, board: Board) -> RouteContext | None:
    """The route context of ``line`` (its company's landmarks, its tram's maintenance, Table
    7), or None if no company owns the line."""
    cid = view.company_of_line(line)
    if cid is None:
        return None
    ent = entities()
    company = view.companies[cid]
    colour = company.tram_of(line)
    newest = view.trams.newest
    maintenance = ent.maintenance_for(colour, newest) if colour and newest else 0
    landmarks = frozenset(ent.privates[p].landmark_hex for p in company.privates)
    return RouteContext(board=board, line=line, phase=view.round_info.phase,
                        landmark_hexes=landmarks, maintenance=maintenance,
                        ruleset=Ruleset.named(view.ruleset))


def best_run(view: View1840, line: int, board: Board | None = None) -> Run | None:
    """The line's best run (IX.8) on the view's board, or None (no company, no route)."""
    board = board if board is not None else board_from_view(view)
    context = line_context(view, line, board)
    if context is None:
        return None
    return best_route(context)


def _total(run: Run | None) -> int:
    return 0 if run is None else int(run.total)


def after_lay(board: Board, lay: Lay) -> Board:
    """A copy of ``board`` with the tile laid (an upgrade keeps its markers, IX.5)."""
    coord, tile, rotation = lay
    out = board.copy()
    mapping = default_location_map(out, coord, tile, rotation) if out.tile(coord) else None
    out.lay(coord, tile, rotation, mapping)
    return out


def lay_previews(view: View1840, line: int, lays: Iterable[Lay],
                 board: Board | None = None) -> dict[Lay, int | None]:
    """For each lay, how much the line's best run (its net total: revenue with maintenance)
    changes if that tile is laid this turn; None where the board refuses the lay.

    Exact: each figure is the router's proven best (IX.8) after the lay, minus the best now.
    """
    board = board if board is not None else board_from_view(view)
    base = _total(best_run(view, line, board))
    out: dict[Lay, int | None] = {}
    for lay in lays:
        try:
            after = after_lay(board, lay)
        except (ValueError, KeyError):
            out[lay] = None
            continue
        out[lay] = _total(best_run(view, line, after)) - base
    return out


def _build_position(view: View1840, board: Board) -> SimpleBuildState:
    """What the legality checks read (a :class:`BuildState`): the board, the phase (R-LR-7)
    and the lines that have operated (those with a marker on the board, IX.6)."""
    from tramways.g1840.legality.context import SimpleBuildState

    operated = {owner for _c, _l, owner in markers_of(view) if isinstance(owner, int)}
    return SimpleBuildState(board=board, phase=view.round_info.phase,
                            operated=operated)


def _lay_kind(view: View1840, pos: SimpleBuildState, line: int, lay: Lay) -> tuple[str, int] | None:
    """(kind, cost) of a legal tile lay, tried in the engine's order (R-LR-1): the pending
    bonus action first, then the Stadtbahn tile, then the normal lay; None if none accepts."""
    from tramways.g1840.legality import stadtbahn as sb
    from tramways.g1840.legality.tiles import check_tile_lay

    coord, tile, rotation = lay
    turn = view.round_info.line_turn
    bonus = turn.bonus if turn is not None else None
    board = pos.board
    hexdef = board.layout.hexes.get(coord)
    attempts: list[Any] = []
    if bonus in sb.TILE_BONUSES:
        attempts.append(lambda: sb.check_bonus_lay(pos, line, bonus, coord, tile, rotation))
    if (hexdef is not None and hexdef.stadtbahn is not None and board.tile(coord) is None
            and not (turn is not None and turn.stadtbahn_tile_laid)):
        attempts.append(lambda: sb.check_stadtbahn_lay(pos, line, coord, tile, rotation))
    if not (turn is not None and turn.tile_laid):
        first = turn is not None and turn.first
        attempts.append(lambda: check_tile_lay(pos, line, coord, tile, rotation,
                                               first_turn=first,
                                               mode="normal"))
        attempts.append(lambda: check_tile_lay(pos, line, coord, tile, rotation,
                                               mode="normal"))
    for attempt in attempts:
        try:
            found = attempt()
        except IllegalAction:
            continue
        return str(found.kind), int(found.cost)
    return None


class OptionCost(TypedDict):
    """What a line's option costs its company (``cost``) and why (``kind``), see
    :func:`line_option_costs`; a plain dict at run time (the pages read it)."""

    kind: str
    cost: int


def line_option_costs(view: View1840, line: int, notations: Iterable[str],
                      board: Board | None = None) -> dict[str, OptionCost]:
    """For each of ``line``'s legal notations that costs or may cost its company money (tile
    lays, station markers, marker removals), ``{"cost": N, "kind": K}``: what the treasury pays
    (R-LR-10: the Danube 40, a Stadtbahn tile 20, upgrades and bonus tiles 0; IX.6: the next
    marker's charter price, the home marker and the bonus marker of R-LR-4 free; R-LR-5: a
    removal 40) and why (a lay: ``normal``, ``stadtbahn``, ``bonus_yellow``, ``bonus_upgrade``,
    ``red``, ``purple``; a station: ``home``, ``bonus`` or ``normal``; ``removal``).

    The notations are the engine's legal ones: this says what they cost, never whether they
    are legal (tested against the engine's treasury after applying each).
    """
    from tramways.g1840.legality import stadtbahn as sb
    from tramways.g1840.legality.stations import REMOVAL_COST, next_marker_cost

    board = board if board is not None else board_from_view(view)
    pos = _build_position(view, board)
    turn = view.round_info.line_turn
    mine = {c for c, _l, owner in markers_of(view) if owner == line}
    out: dict[str, OptionCost] = {}
    for text in notations:
        words = text.split()
        if len(words) < 3 or words[0] != f"L{line}":
            continue
        if words[1] == "lay" and len(words) == 5:
            found = _lay_kind(view, pos, line, (words[2], words[3], int(words[4][1:])))
            if found is not None:
                out[text] = {"kind": found[0], "cost": found[1]}
        elif words[1] in ("station", "remove") and "." in words[2]:
            coord = words[2].split(".")[0]
            if words[1] == "remove":
                out[text] = {"kind": "removal", "cost": REMOVAL_COST}
            elif not mine or coord in mine:  # the home marker, or it moves on its hex (R-LR-13)
                out[text] = {"kind": "home", "cost": 0}
            elif turn is not None and turn.bonus == sb.BONUS_STATION and (
                    turn.bonus_circle in (None, words[2])):  # only the freed circle
                out[text] = {"kind": "bonus", "cost": 0}
            else:
                out[text] = {"kind": "normal", "cost": next_marker_cost(board, line) or 0}
    return out


def claimed_run(view: View1840, line: int, route: str, board: Board | None = None) -> Run:
    """The run of a route claimed stop by stop (``"D18.0-E19.0"``): checked (IX.2, IX.7,
    R-LR-6: ``IllegalAction`` naming the rule) and valued (IX.8) as the engine does; whether
    it is the best is the engine's question when it is played (IX.8)."""
    from tramways.g1840.routes import check_route

    board = board if board is not None else board_from_view(view)
    context = line_context(view, line, board)
    if context is None:
        raise IllegalAction("IX.7", f"line {line} belongs to no tram company")
    return check_route(context, route)


def dividend_prices(view: View1840, company: str, amounts: Iterable[int]) -> dict[int, int]:
    """The share price of ``company`` after paying each amount (X.2, Table 6, R-CR-2 of the
    game's rulings edition, R-VERSION-1): the move shown before a dividend is confirmed."""
    from tramways.g1840.market import ShareMarket

    rules = Ruleset.of({"ruleset": view.ruleset, "edition": view.edition})
    cell = view.market[company]
    out: dict[int, int] = {}
    for amount in amounts:
        market = ShareMarket(climb_at_row_end=rules.climb_at_row_end)
        market.place(company, (int(cell[0]), int(cell[1])))
        market.move_dividend(company, entities().dividend_move(amount))
        out[amount] = market.price(company)
    return out


__all__ = ["Lay", "after_lay", "best_run", "board_from_view", "claimed_run", "dividend_prices",
           "lay_previews", "layout_of", "line_context", "line_option_costs", "markers_of",
           "tiles_of"]
