"""The exporter's handlers: each action of ours written as the site records it.

:data:`HANDLERS` maps an action's type to what it writes before our engine plays it (it may
return what :data:`POST` needs), :data:`POST` to what it writes after (the ids of the pieces
the action moved, the site's steps our engine settled by itself).  The :class:`Exporter` they
write to is in :mod:`.export18xx`; docs/interop.md ("Export") lists what each adds to our
notation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tramways.g1840.interop.export_pieces import (
    DIRECTOR_CERTIFICATE,
    VARIANT_PRICES,
    ExportError18xx,
    _site_company,
    _variant,
)
from tramways.g1840.interop.exporter import Exporter
from tramways.g1840.interop.site_asks import asks_to_pass


def _bid(ex: Exporter, a: Any, s: Any) -> None:
    ex.player(a.player, "bid", company=a.private, price=a.amount)


def _pass(ex: Exporter, a: Any, s: Any) -> None:
    seat = a.player
    legal = ex.session.legal_notation(seat)
    me = f"P{seat + 1}"
    turn = s.sub.turn_view(s)
    if (turn.company is None and turn.line is None and not asks_to_pass(s, seat)
            and all(t == f"{me} pass" or " return " in t or " scrap " in t for t in legal)):
        return  # the site passes by itself: "has no valid actions and passes"
    # (choosing a private, or with a line's share to buy, the site asks: site_asks)
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


def _buy_tram(ex: Exporter, a: Any, s: Any) -> Any:
    from tramways.g1840.mechanics.trams import price_of

    price = price_of(s, a.colour)
    if price is None:
        raise ExportError18xx(f"no {a.colour} tram on sale")
    tram = ex._new_tram(a.colour)
    ex.pieces.trams.setdefault(a.company, []).append((tram, a.colour))
    ex.company(a.company, "buy_train", train=tram, price=price,
               variant=_variant(a.colour, price))
    return s.round_index


def _as_line_scrap(ex: Exporter, a: Any, s: Any) -> Any:
    """``CO scrap COLOUR`` of the acting line's tram is that line's scrap (X-23): the site
    takes it from the line, in its Route step (rule_41002_3s, random_44030_2p)."""
    turn = getattr(s.sub, "turn", None)
    if (a.line is None and s.round.type == "LR" and turn is not None
            and s.tram_of(turn.line) == a.colour):
        return replace(a, line=turn.line)  # (also with a spare of that colour, as our
    return a  # engine takes it: random_46004_5p, random_46015_4p)


def _scrap(ex: Exporter, a: Any, s: Any) -> None:
    trams = ex.pieces.trams.get(a.company, [])
    a = _as_line_scrap(ex, a, s)
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
    if state.round_index != pre or state.sub.turn_view(state).company != a.company:
        return  # our engine ended the turn itself, as the site did: no ``done`` will come
        # (random_54066_2p: BBG's last purchase ended CR1; its ``done`` in CR2 is a pass)
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
    if turn is not None and turn.line == a.line and turn.bonus and ex.declined_bonus != a.line:
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
    if ex.declined_bonus == a.line:
        return  # the site's bonus step was closed already (before a removal: random_46020_3s)
    ex.line(a.line, "pass")


HANDLERS: dict[str, Any] = {
    "Bid": _bid, "Pass": _pass, "ChooseOrder": _order, "Par": _par, "BuyShare": _buy_share,
    "SellShares": _sell, "ReturnPrivate": _return_private, "Accept": _accept,
    "Dividend": _dividend, "BuyTram": _buy_tram, "ScrapTram": _scrap, "Arrange": _arrange,
    "Done": _done, "OpenAuction": _open_auction, "LineBid": _line_bid,
    "CompanyPass": _company_pass, "CompanyReturnPrivate": _company_return, "LayTile": _lay,
    "PlaceStation": _station, "RemoveMarker": _remove, "BuyPrivate": _buy_private,
    "Run": _run, "EndTurn": _end_turn, "SkipBonus": _skip,
}

POST: dict[str, Any] = {
    "Par": _par_post, "BuyShare": _buy_share_post, "LayTile": _lay_post, "Done": _done_post,
    "BuyTram": _bought, "ScrapTram": _after_company, "Arrange": _after_company,
    "OpenAuction": _after_company, "LineBid": _after_company, "CompanyPass": _after_company,
}


