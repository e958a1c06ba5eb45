"""A line's run and income (IX.7, IX.8, R-LR-9): the best route's total (or a claimed or
recorded route), onto the company's revenue space; a loss is paid from the revenue space, the
treasury, the director and loans.  The routes are the routes module's
(:mod:`tramways.g1840.routes`)."""

from __future__ import annotations

from tramways.core.errors import IllegalAction
from tramways.g1840.mechanics.money import pay_from_director
from tramways.g1840.position import Position
from tramways.g1840.routes import best_route, check_route, format_route

NO_RUN = "none"
"""The route of ``L7 run none``: no run at all, as the site records it (X-8, R-LR-8)."""


def run_value(pos: Position, line: int, route: str | None = None) -> tuple[int, str]:
    """The line's income now (IX.7, IX.8): the best route's total, or 0 without tram/route."""
    colour = pos.tram_of(line)
    if colour is None:
        return 0, "no tram"
    if route == NO_RUN:
        if not pos.rules.runs_as_recorded:
            raise IllegalAction("IX.7", "a line with a tram runs its best route")
        return 0, "no run"  # the site records a run without routes (R-LR-8: no upkeep)
    if (route is None and not pos.rules.purple_station_route_end
            and pos.board.reach(line).location_count() < 2):
        return 0, "no route"  # IX.2: a route joins two revenue locations the line reaches
    ctx = pos.route_context(line)
    best = None if (route is not None and pos.rules.runs_as_recorded) else best_route(ctx)
    if route is not None:
        claimed = check_route(ctx, route)
        if pos.rules.runs_as_recorded:  # a recorded run is taken as recorded when valid
            return claimed.total, format_route(claimed)
        if best is None or claimed.total != best.total:
            raise IllegalAction("IX.8", f"the claimed route earns {claimed.total}; "
                                f"the best earns {best.total if best else 0}")
        return claimed.total, format_route(claimed)
    if best is None:
        return 0, "no route"
    return best.total, format_route(best)


def receive_income(pos: Position, company_id: str, income: int, log: list[str]) -> None:
    """IX.8 / R-LR-9: onto the revenue space; a loss from revenue, treasury, director, loans."""
    company = pos.companies[company_id]
    if income >= 0:
        company.revenue += income
        return
    loss = -income
    if not pos.rules.loss_skips_revenue:  # the 18xx.games ruleset skips the revenue space
        take = min(loss, company.revenue)
        company.revenue -= take
        loss -= take
    take = min(loss, company.treasury)
    company.treasury -= take
    loss -= take
    if loss:
        log.append(f"{pos.players[company.director].name} pays {loss} of {company_id}'s loss")
        pay_from_director(pos, company, loss, log)
