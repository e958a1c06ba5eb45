"""The view of an 1840 position and its text form (everything in 1840 is public).

``view(state, player)`` builds the typed :class:`~tramways.g1840.view_types.View1840` (the
same for every player but its ``viewer``); ``text_view(view)`` is what ``tramways show``
prints.
"""

from __future__ import annotations

from tramways.g1840.edition import LATEST
from tramways.g1840.mechanics.trams import price_of
from tramways.g1840.position import Position
from tramways.g1840.view_types import (
    CompanyView,
    PlayerView,
    PrivateAuctionView,
    Result,
    ResultJSON,
    RoundInfo,
    StadtbahnView,
    TileView,
    TramOnSale,
    TramsView,
    TurnView,
    View1840,
)


def _turn(state: Position) -> TurnView | None:
    if state.finished:
        return None
    seat = state.sub.acting(state)
    return TurnView(player=seat, name=state.players[seat].name,
                    detail=state.sub.turn_view(state))


def view(state: Position, player: int | None) -> View1840:
    """The whole public position (1840 has no hidden information) as seen by ``player``.
    Each part is built by a function of its own (:func:`players_view`, ...), which a reader
    of a few parts may call alone."""
    return View1840(
        ruleset=state.rules.name,
        edition=int(state.edition),
        viewer=player,
        round_info=round_info_view(state),
        finished=state.finished,
        turn=_turn(state),
        playing_order=tuple(state.order),
        players=players_view(state),
        companies=companies_view(state),
        stadtbahn=stadtbahn_view(state),
        market={c: (cell[0], cell[1]) for c, cell in state.market.where.items()},
        market_stacks={(r, c): tuple(stack) for (r, c), stack in state.market.stacks.items()},
        privates=dict(state.private_owner),
        line_display=tuple(state.line_display),
        line_deck=len(state.line_deck),
        trams=trams_view(state),
        tiles=tiles_view(state),
        result=final_result(state) if state.finished else None,
        programs=programs_view(state, player),
    )


def turn_view(state: Position) -> TurnView | None:
    """Whose turn it is and the acting company or line (None once the game is over)."""
    return _turn(state)


def round_info_view(state: Position) -> RoundInfo:
    """The round in progress, its phase and the round's own progress."""
    return RoundInfo(name=state.round.name, type=state.round.type, phase=state.phase,
                     detail=state.sub.view(state))


def players_view(state: Position) -> tuple[PlayerView, ...]:
    """Every player by seat (:func:`player_view`)."""
    return tuple(player_view(state, seat) for seat in range(len(state.players)))


def player_view(state: Position, seat: int) -> PlayerView:
    """A player: cash, loans, shares, privates, certificates, R-END-1 wealth."""
    p = state.players[seat]
    return PlayerView(seat=seat, name=p.name, cash=p.cash, loans=p.loans,
                      pre_emptive_right=p.pre_emptive, shares=dict(sorted(p.shares.items())),
                      privates=tuple(p.privates), certificates=state.certificates(seat),
                      value=state.wealth(seat))


def companies_view(state: Position) -> dict[str, CompanyView]:
    """The tram companies in the game by id (their lines' station markers included)."""
    return {
        cid: CompanyView(
            id=cid, name=state.ent.tram_companies[cid].name, director=c.director, par=c.par,
            price=state.price(cid), treasury=c.treasury, revenue=c.revenue,
            lines=tuple(c.lines), trams=tuple(c.trams), privates=tuple(c.privates),
            markers={line: tuple(f"{h}.{loc}" for h, loc in state.board.line_markers(line))
                     for line in c.lines},
            ipo=c.ipo, pool=c.pool)
        for cid, c in state.companies.items()}


def stadtbahn_view(state: Position) -> dict[str, StadtbahnView]:
    """The Stadtbahn companies by id (price, shares, last run, markers)."""
    return {
        sid: StadtbahnView(id=sid, price=state.price(sid), ipo=s.ipo, pool=s.pool,
                           last_run=s.last_run,
                           markers=tuple(f"{h}.{loc}"
                                         for h, loc in state.board.line_markers(sid)))
        for sid, s in state.stadtbahn.items()}


def trams_view(state: Position) -> TramsView:
    """The trams on sale (with their prices), those to come and the newest colour."""
    return TramsView(
        on_sale=tuple(TramOnSale(space=s, colour=c, count=n, price=price_of(state, c))
                      for s, c, n in state.trams.on_sale()),
        to_come=tuple(state.trams.queue), newest=state.trams.newest)


def tiles_view(state: Position) -> dict[str, TileView]:
    """The tiles on the map: hex -> tile and rotation."""
    return {h: TileView(tile=p.tile_id, rotation=p.rotation)
            for h, p in state.board.placed().items()}


def programs_view(state: Position, player: int | None) -> dict[str, str]:
    """The viewer's programmed actions, kind -> in words (none for a spectator)."""
    if player is None:
        return {}
    return {kind: standing.program.describe()
            for kind, standing in state.programs.get(player, {}).items()}


def final_result(state: Position) -> Result:
    """XI / R-END-1: wealth per player and the ranking (equal wealth shares a place).

    A game ended by a resignation (``P2 resign``, docs/async.md) ranks the resigner last
    and the others by their wealth as it stands, equal wealth sharing a place as usual."""
    wealth = [state.wealth(s) for s in range(state.n)]
    out = state.resigned
    ranks = [1 + sum(1 for s, w in enumerate(wealth) if w > mine and s != out)
             for mine in wealth]
    if out is not None:
        ranks[out] = state.n
    return Result(wealth=tuple(wealth), rank=tuple(ranks),
                  winners=tuple(s for s in range(state.n) if ranks[s] == 1), resigned=out)


def result(state: Position) -> ResultJSON:
    """The final result as JSON (``State1840.result()``: ``final_result(state).to_json()``)."""
    return final_result(state).to_json()


def _text_shares(v: View1840) -> list[str]:
    """The share chart (X.1: each occupied space, top marker first), every company's unsold
    and pool shares (VII), and the playing order the Share Rounds follow (VII.2)."""
    names = [p.name for p in v.players]
    label = "Share Round order (VII.2)" if v.round_info.type == "SR" else "Playing order"
    out = [f"{label}: " + ", ".join(names[s] for s in v.playing_order)]
    cells: dict[tuple[int, int], list[str]] = {}
    for company, cell in v.market.items():
        cells.setdefault(cell, []).append(company)
    chart = []
    for (row, col) in sorted(cells, key=lambda rc: (-v.price(cells[rc][0]), -rc[1])):  # VIII.4
        here = cells[(row, col)]
        order = v.market_stacks.get((row, col), tuple(here))  # top marker first
        chart.append(f"{v.price(here[0])} (row {row + 1}, space {col + 1}): {' '.join(order)}")
    if chart:
        out.append("Share chart: " + "; ".join(chart))
    unsold = [(c, d.ipo, d.pool) for c, d in v.companies.items()]
    unsold += [(s, d.ipo, d.pool) for s, d in v.stadtbahn.items()]
    shares = [f"{c} {ipo // 10}/{pool // 10}" for c, ipo, pool in unsold]
    out.append("Shares unsold/in the pool: " + "  ".join(shares))
    return out


def _text_round(v: View1840) -> list[str]:
    """Who acts, the line turn, the company order and a running auction."""
    lines = []
    t = v.turn
    if v.finished and v.result is not None and v.result.resigned is not None:
        lines.append(f"Game over: {v.players[v.result.resigned].name} resigned.")
    elif v.finished:
        lines.append("Game over.")
    elif t is not None:
        who = t.name
        if t.company is not None:
            who += f" for {t.company} (step {t.step})"
        if t.line is not None:
            who += f" for line {t.line}"
        lines.append(f"To act: {who}")
    lt = v.round_info.line_turn
    if lt is not None:
        done = [name for flag, name in ((lt.tile_laid, "tile"),
                                        (lt.stadtbahn_tile_laid, "Stadtbahn tile"),
                                        (lt.station_placed, "station")) if flag]
        lines.append(f"Line {lt.line}: done {', '.join(done) or 'nothing'} this turn"
                     + (f"; bonus pending: {lt.bonus.replace('_', ' ')}" if lt.bonus else ""))
    if v.round_info.company_order is not None:
        lines.append("Company order: " + ", ".join(v.round_info.company_order))
    auction = v.round_info.auction
    if isinstance(auction, PrivateAuctionView):
        lines.append(f"Auction: {auction.private}, high bid {auction.high} by "
                     f"{v.players[auction.high_bidder].name}")
    elif auction is not None:
        lines.append(f"Auction: line {auction.line}, high bid {auction.high} by "
                     f"{auction.high_company}")
    return lines


def text_view(v: View1840) -> str:
    """A multi-line summary for ``tramways show``."""
    lines = [_text_title(v)]
    lines.extend(_text_round(v))
    lines.append("")
    lines.extend(_text_players(v))
    lines.extend(_text_companies(v))
    lines.append("Stadtbahn: " + "  ".join(f"{s} {d.price}" for s, d in v.stadtbahn.items()))
    lines.extend(_text_shares(v))
    lines.append("Lines on display: " + (", ".join(map(str, v.line_display)) or "-")
                 + f"  (deck {v.line_deck})")
    lines.append(_text_trams(v))
    unsold = [p for p, o in v.privates.items() if o is None]
    if unsold:
        lines.append("Unsold privates: " + ", ".join(unsold))
    if v.result is not None:
        lines.append("Result: " + ", ".join(
            f"{v.players[s].name} {w} (#{r})"
            for s, (w, r) in enumerate(zip(v.result.wealth, v.result.rank, strict=True))))
    return "\n".join(lines)


def _text_title(v: View1840) -> str:
    """The round and phase, and the rulings edition (R-VERSION-1) or ruleset if not the
    newest printed rules."""
    title = f"1840 Vienna Tramways - {v.round} ({v.round_info.phase} phase)"
    if v.edition != int(LATEST):
        title += (f"; rulings edition {v.edition} (R-VERSION-1: played, and replayed, "
                  "under those rulings)")
    if v.ruleset != "rules":
        title += f"; {v.ruleset} ruleset"
    return title


def _text_players(v: View1840) -> list[str]:
    """One line per player: cash, loans, value, certificates, shares, privates (III.3)."""
    lines = ["Players:"]
    for p in v.players:
        shares = " ".join(f"{c}:{pct}%" for c, pct in p.shares.items()) or "-"
        privates = " ".join(p.privates) or "-"
        loans = f" loans {p.loans}" if p.loans else ""
        lines.append(f"  {p.name:<12} cash {p.cash:>5}{loans}  value {p.value:>6}  "
                     f"certs {p.certificates:>2}  shares {shares}  privates {privates}")
    return lines


def _text_companies(v: View1840) -> list[str]:
    """One line per tram company, and one per line of it with station markers."""
    if not v.companies:
        return []
    lines = ["Tram companies:"]
    for cid, c in v.companies.items():
        lines.append(
            f"  {cid:<4} price {c.price:>3}  treasury {c.treasury:>5}  "
            f"revenue {c.revenue:>4}  lines {list(c.lines) or '-'}  "
            f"trams {','.join(t or 'none' for t in c.trams) or '-'}  "
            f"director P{c.director + 1}"
            + (f"  privates {' '.join(c.privates)}" if c.privates else ""))
        for line, markers in c.markers.items():
            if markers:
                lines.append(f"       line {line} stations: {' '.join(markers)}")
    return lines


def _text_trams(v: View1840) -> str:
    """The trams on sale with their prices, those to come, and the newest bought."""
    sale = ", ".join(f"{t.colour} {t.price} x{t.count}" if t.price is not None
                     else f"{t.colour} x{t.count} (no price on space {t.space + 1})"
                     for t in v.trams.on_sale) or "-"
    to_come = ", ".join(v.trams.to_come) or "-"
    return (f"Trams on sale: {sale}; to come: {to_come}; "
            f"newest bought: {v.trams.newest or '-'}")
