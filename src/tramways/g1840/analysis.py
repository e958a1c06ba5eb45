"""Questions a player asks about a public 1840 position, answered from the view alone.

1840 hides nothing (the view is the position), so the board can be rebuilt from a view
(``tiles`` and every station marker) and the exact router (IX.8) asked about it:

* :func:`board_from_view`: the board a view shows;
* :func:`best_run`: a line's best run now (the route drawn by the pages' *Run the best route*);
* :func:`lay_previews`: for each legal tile lay of a line, the change it brings to that line's
  best run this turn (the revenue preview of the pages, issue 12).

Pure functions: nothing here changes the view or the board passed in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tramways.g1840.board import Board, default_location_map
from tramways.g1840.entities import entities, layout_name, privates_in
from tramways.g1840.routes import RouteContext, Run, best_route

View = Mapping[str, Any]
Lay = tuple[str, str, int]
"""A tile lay: (hex, tile id, rotation), as in ``L7 lay E17 57 r2``."""


def layout_of(view: View) -> str:
    """The map of the game (R-SETUP-3): the small 3-player map has no Prater (XII)."""
    n = len(view["players"])
    if n == 3 and set(view["privates"]) == set(privates_in("small3")):
        return layout_name(3, True)
    return layout_name(n, False)


def markers_of(view: View) -> list[list[Any]]:
    """Every station marker of the view as ``[hex, location, owner]`` (Stadtbahn first)."""
    out: list[list[Any]] = []
    for sid, s in view["stadtbahn"].items():
        for place in s["markers"]:
            coord, loc = place.split(".")
            out.append([coord, int(loc), sid])
    for company in view["companies"].values():
        for line, places in company["markers"].items():
            for place in places:
                coord, loc = place.split(".")
                out.append([coord, int(loc), int(line)])
    return out


def board_from_view(view: View) -> Board:
    """The board the view shows (tiles and markers; the tile supply follows from the tiles)."""
    return Board.from_json({"layout": layout_of(view), "ruleset": view["ruleset"],
                            "tiles": view["tiles"], "markers": markers_of(view)})


def company_of_line(view: View, line: int) -> str | None:
    for cid, c in view["companies"].items():
        if line in c["lines"]:
            return str(cid)
    return None


def line_context(view: View, line: int, board: Board) -> RouteContext | None:
    """The route context of ``line`` (its company's landmarks, its tram's maintenance, Table
    7), or None if no company owns the line."""
    cid = company_of_line(view, line)
    if cid is None:
        return None
    ent = entities()
    company = view["companies"][cid]
    index = company["lines"].index(line)
    trams = company["trams"]
    colour = trams[index] if index < len(trams) else None
    newest = view["trams"]["newest"]
    maintenance = ent.maintenance_for(colour, newest) if colour and newest else 0
    landmarks = frozenset(ent.privates[p].landmark_hex for p in company["privates"])
    return RouteContext(board=board, line=line, phase=view["round_info"]["phase"],
                        landmark_hexes=landmarks, maintenance=maintenance,
                        ruleset=view["ruleset"])


def best_run(view: View, line: int, board: Board | None = None) -> Run | None:
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


def lay_previews(view: View, line: int, lays: Iterable[Lay],
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


def dividend_prices(view: View, company: str, amounts: Iterable[int]) -> dict[int, int]:
    """The share price of ``company`` after paying each amount (X.2, Table 6, R-CR-2 of the
    game's rulings edition, R-VERSION-1): the move shown before a dividend is confirmed."""
    from tramways.g1840.market import ShareMarket
    from tramways.g1840.ruleset import Ruleset

    settings: dict[str, Any] = {"ruleset": view["ruleset"]}
    if "edition" in view:
        settings["edition"] = view["edition"]
    rules = Ruleset.of(settings)
    cell = tuple(view["market"][company])
    out: dict[int, int] = {}
    for amount in amounts:
        market = ShareMarket(climb_at_row_end=rules.climb_at_row_end)
        market.place(company, (int(cell[0]), int(cell[1])))
        market.move_dividend(company, entities().dividend_move(amount))
        out[amount] = market.price(company)
    return out


__all__ = ["Lay", "after_lay", "best_run", "board_from_view", "dividend_prices", "lay_previews",
           "layout_of", "line_context", "markers_of"]
