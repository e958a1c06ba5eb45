"""The 1840 table: what the 1840 page shows, built from the API payload alone.

The payload carries the seat's ``view`` (all of 1840 is public) and the seat's legal notations;
everything here is derived from those two: the board (rebuilt from the view's tiles and markers
by :mod:`tramways.g1840.analysis` and drawn by :mod:`tramways.g1840.render`), the tables, and
the actions grouped the way a player looks for them.  Nothing is offered that is not a legal
notation of the seat, and every legal notation is offered exactly once (tested).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tramways.g1840.analysis import (
    after_lay,
    best_run,
    board_from_view,
    claimed_run,
    lay_previews,
    line_option_costs,
)
from tramways.g1840.board import Board
from tramways.g1840.entities import entities
from tramways.g1840.render import render_svg
from tramways.g1840.routes import Run
from tramways.g1840.view_types import StadtbahnView, View1840, as_view1840
from tramways.server.web.g1840_cards import (
    auction_lines,
    company_line_cards,
    display_cards,
    private_cards,
    tile_manifest,
)
from tramways.server.web.g1840_controls import LAY, PLACE, Choice, group_legal
from tramways.server.web.g1840_log import ROUND_START, log_rounds
from tramways.server.web.g1840_programs import is_program, programs_model
from tramways.server.web.g1840_stats import statistics
from tramways.server.web.payload import SeatInfo, TablePayload

__all__ = ["LAY", "PLACE", "PREVIEW_LIMIT", "ROUND_START", "Choice", "board_svg",
           "StandingRow", "group_legal", "history_charts", "log_rounds", "standing",
           "table_model"]

PREVIEW_LIMIT = 60
"""Revenue previews are computed for at most this many lays of a turn (the router is exact;
a list longer than this shows the lays without a figure rather than a guess)."""


def _lays(legal: list[str]) -> dict[str, list[dict[str, Any]]]:
    by_hex: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for text in legal:
        m = LAY.match(text)
        if m:
            by_hex[m.group(2)].append({"notation": text, "tile": m.group(3),
                                       "rotation": int(m.group(4)), "line": m.group(1)})
    return dict(by_hex)


def run_rows(run: Run | None) -> list[tuple[str, int]]:
    """A run's stops with what each earns, in running order (IX.8)."""
    if run is None:
        return []
    return list(zip((f"{c}.{loc}" for c, loc in run.stops), run.parts, strict=True))


def _places(legal: list[str], stadtbahn: Mapping[str, StadtbahnView]
            ) -> dict[str, list[dict[str, Any]]]:
    """Station places and removable markers by hex; a removal names the marker's owner, a
    Stadtbahn company (only Stadtbahn markers are removed, R-LR-5), even where a line's marker
    shares the place."""
    owners = {place: sid for sid, s in stadtbahn.items() for place in s.markers}
    by_hex: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for text in legal:
        m = PLACE.match(text)
        if m:
            place = f"{m.group(3)}.{m.group(4)}"
            by_hex[m.group(3)].append({"notation": text, "kind": m.group(2),
                                       "location": int(m.group(4)),
                                       "owner": owners.get(place, "")
                                       if m.group(2) == "remove" else ""})
    return dict(by_hex)


def _tile_order(item: tuple[str, int]) -> tuple[int, str]:
    digits = "".join(ch for ch in item[0] if ch.isdigit())
    return (int(digits) if digits else 0, item[0])


@dataclass(frozen=True, slots=True)
class ChartSpace:
    """A space of the share chart (X.1): its price and the markers on it, top first."""

    price: int
    markers: tuple[str, ...]


def share_chart(view: View1840) -> list[list[ChartSpace]]:
    """The share chart (X.1) as rows of spaces, each with its markers, top first."""
    stacks = view.market_stacks
    return [[ChartSpace(price, tuple(stacks.get((r, c), ()))) for c, price in enumerate(row)]
            for r, row in enumerate(entities().market_rows)]


def board_svg(view: View1840, line: int | None = None,
              lay: tuple[str, str, int] | None = None, board: Board | None = None,
              claimed: str | None = None) -> tuple[str, Any]:
    """The board as inline SVG (without the XML prolog), with ``line``'s best run drawn; with
    ``lay``, the board as it would be after that tile lay (the preview before confirming);
    with ``claimed``, that route of ``line`` instead of its best (checked: ``IllegalAction``
    naming the rule when it is no route, IX.2/IX.7)."""
    board = board if board is not None else board_from_view(view)
    if lay is not None:
        board = after_lay(board, lay)
    run = None
    if line is not None and claimed is not None:
        run = claimed_run(view, line, claimed, board)
    elif line is not None:
        try:
            run = best_run(view, line, board)
        except (ValueError, KeyError):
            run = None
    routes = [(line, run)] if run is not None and line is not None else []
    svg = render_svg(board, phase=view.round_info.phase, routes=routes)
    svg = svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg
    return svg, run


def _previews(typed: View1840, line: int | None, flat: list[tuple[str, str, int]],
              board: Board) -> dict[str, int | None]:
    """The change of the line's best run for each lay, when the turn has few enough."""
    previews: dict[str, int | None] = {}
    if line is not None and flat and len(flat) <= PREVIEW_LIMIT:
        for (h, tile, rot), delta in lay_previews(typed, line, flat, board).items():
            previews[f"L{line} lay {h} {tile} r{rot}"] = delta
    return previews


def _map_moves(typed: View1840, legal: list[str], line: int | None,
               board: Board) -> dict[str, Any]:
    """The map's moves: tile lays by hex (with the change of the best run and the cost), station
    places and removals (with their cost), the pending bonus (R-LR-1)."""
    lays = _lays(legal)
    flat = [(h, o["tile"], o["rotation"]) for h, opts in lays.items() for o in opts]
    previews = _previews(typed, line, flat, board)
    costs = line_option_costs(typed, line, legal, board) if line is not None else {}
    for opts in lays.values():
        for o in opts:
            o["delta"] = previews.get(o["notation"])
            o.update(costs.get(o["notation"], {"cost": 0, "kind": "normal"}))
    places = _places(legal, typed.stadtbahn)
    for opts in places.values():
        for o in opts:
            o.update(costs.get(o["notation"], {"cost": 0, "kind": "normal"}))
    line_turn = typed.round_info.line_turn
    bonus = line_turn.bonus if line is not None and line_turn is not None else None
    bonus_lays = sorted({h for h, opts in lays.items() for o in opts
                         if o["kind"] not in ("normal", "stadtbahn")})
    bonus_places = [o for opts in places.values() for o in opts if o["kind"] == "bonus"]
    return {
        "lays": lays,
        "places": places,
        "bonus": bonus,
        "bonus_lays": bonus_lays if bonus else [],
        "bonus_places": bonus_places if bonus else [],
        "previews_skipped": len(flat) if line is not None and len(flat) > PREVIEW_LIMIT else 0,
    }


def _run_section(typed: View1840, legal: list[str], line: int | None,
                 board: Board) -> dict[str, Any]:
    """The board with the line's best run drawn when it may run (IX.7), and that run."""
    runs_offered = any(t.split()[1] == "run" for t in legal if len(t.split()) > 1)
    claim = line if runs_offered else None
    svg, run = board_svg(typed, claim, board=board)
    return {"svg": svg, "claim_line": claim,
            "run": run.to_json() if run is not None else None,
            "run_rows": run_rows(run),
            "run_total": run.total if run is not None else None}


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A row of the players' table: a player's holdings (III.3) and wealth (XI), with what
    the page marks (the viewer, the player to act, a bot) and the certificate limit (VII.3)."""

    seat: int
    number: int  # seat + 1
    name: str
    cash: int
    loans: int
    shares: Mapping[str, int]
    privates: tuple[str, ...]
    certificates: int
    limit: int | None
    value: int
    is_me: bool
    to_act: bool
    bot: str | None  # "bot:rule", None for a human


def _players(view: View1840, seats: Sequence[SeatInfo], me: int | None) -> list[PlayerRow]:
    limit = entities().certificate_limit.get(len(view.players))
    acting = view.turn.player if view.turn is not None else None
    return [PlayerRow(seat=p.seat, number=p.seat + 1, name=p.name, cash=p.cash, loans=p.loans,
                      shares=p.shares, privates=p.privates, certificates=p.certificates,
                      limit=limit, value=p.value, is_me=p.seat == me, to_act=acting == p.seat,
                      bot=seats[p.seat].bot if p.seat < len(seats) else None)
            for p in view.players]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A line of the end page's standing: the place the result gives the seat (XI / R-END-1:
    equal wealth shares a place and the next is skipped, ``1, 1, 3``; a resigner last,
    docs/async.md), its name and its wealth."""

    place: int
    seat: int
    name: str
    wealth: int
    resigned: bool


def standing(view: View1840) -> list[StandingRow]:
    """The final standing by the result's places (the core's ``Outcome.places``), seats of a
    shared place in seat order; empty while the game runs.  The page prints each place as
    the result gives it, never a running count (a tie reads "1. Anna / 1. Bert / 3. Cora")."""
    result = view.result
    if result is None:
        return []
    return sorted((StandingRow(place=result.places[p.seat], seat=p.seat, name=p.name,
                               wealth=result.wealth[p.seat], resigned=p.seat == result.resigned)
                   for p in view.players), key=lambda row: (row.place, row.seat))


def table_model(state: Mapping[str, Any]) -> dict[str, Any]:
    """Everything the 1840 page shows, from the payload of ``GET /api/games/ID``."""
    payload = TablePayload.from_json(state)
    view = as_view1840(payload.view)
    legal = [t for t in payload.legal if not is_program(t)]  # programs: their own panel
    ent = entities()
    me = payload.me
    line_turn = view.round_info.line_turn
    line = line_turn.line if line_turn is not None and view.turn is not None else None
    board = board_from_view(view)
    supply = [(k, v) for k, v in sorted(board.supply.items(), key=_tile_order) if v > 0]
    choices = group_legal(legal, view)
    return {
        "view": view,
        "n": payload.n,
        "over": view.finished,
        "my_turn": me is not None and me + 1 in payload.to_act,
        "spectator": me is None,
        "me": me,
        "turn": view.turn,
        "line_turn": line_turn,
        "players": _players(view, payload.seats, me),
        "order": [view.players[s].name for s in view.playing_order],
        "companies": view.companies,
        "stadtbahn": view.stadtbahn,
        "chart": share_chart(view),
        "round_bar": [{"name": r.name, "type": r.type, "current": r.name == view.round}
                      for r in ent.round_bar],
        "choices": choices,
        "private_cards": private_cards(view),
        "display_lines": display_cards(view),
        "line_cards": auction_lines(view),
        "line_auction": any(c.kind in ("auction", "bid") and not c.actor.startswith("P")
                            for c in choices),
        "company_lines": company_line_cards(view),
        "line_home": ent.lines[line].home_hex if line is not None else None,
        "programs": programs_model(list(payload.legal), view, me),
        **_map_moves(view, legal, line, board),
        **_run_section(view, legal, line, board),
        "supply": supply,
        "tiles": tile_manifest(board),
        "log": list(payload.log)[::-1],
        "log_rounds": log_rounds(payload.log, payload.log_at),
        "stats": statistics(list(payload.log), view),
        "legal_count": len(legal),
        "preview_limit": PREVIEW_LIMIT,
        "result": view.result,
        "standing": standing(view),
        "undoable": payload.undoable,
        "record": payload.record,
        "seats": payload.seats,
    }


# -- after the game: wealth and share prices over the rounds ---------------------------------

CHART_COLOURS = ("#d0241b", "#1b5fd0", "#1f8a3b", "#b8860b", "#7b3fa0", "#333333",
                 "#e07b00", "#0a8a8a", "#a0522d", "#c71585")


def round_history(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Replays a record (1840's is public) and samples the end of every round: each player's
    wealth (XI) and each tram and Stadtbahn company's share price (X)."""
    from tramways.core import GameRecord, Session

    rec = GameRecord.model_validate(record)
    session = Session.from_record(rec.model_copy(update={"actions": []}))
    game, state = session.game, session.state

    def sample(name: str) -> dict[str, Any]:
        v = as_view1840(state.view(None))
        return {"round": name, "wealth": [p.value for p in v.players],
                "prices": {**{c: d.price for c, d in v.companies.items()},
                           **{sid: d.price for sid, d in v.stadtbahn.items()}}}

    points = []
    current = as_view1840(state.view(None)).round
    for text in rec.actions:
        action = game.parse_action(text)
        seats = state.seats_for(action)
        state.apply(action, seats[0] if seats else None)
        now = as_view1840(state.view(None)).round
        if now != current:
            points.append(sample(current))
            current = now
    points.append(sample(current))
    return points


def line_chart(series: dict[str, list[int | None]], labels: list[str], title: str,
               from_zero: bool = True) -> str:
    """A small SVG line chart (one polyline per series, a legend, the round names below)."""
    from html import escape

    width, height, left, right, top, bottom = 640, 260, 44, 110, 24, 40
    values = [v for s in series.values() for v in s if v is not None]
    if not values or len(labels) < 1:
        return ""
    low = min(0, min(values)) if from_zero else min(values) // 10 * 10
    high = max(values) or 1
    span = len(labels) - 1 or 1

    def x(i: int) -> float:
        return left + (width - left - right) * i / span

    def y(v: int) -> float:
        return top + (height - top - bottom) * (1 - (v - low) / ((high - low) or 1))

    out = [f'<svg class="chart-svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" '
           f'font-family="DejaVu Sans, Verdana, sans-serif" font-size="10">',
           f'<line x1="{left}" y1="{y(low):.1f}" x2="{width - right}" y2="{y(low):.1f}" '
           f'stroke="#999"/>',
           *_y_ticks(low, high, y, left, width - right)]
    step = max(1, -(-len(labels) // 8))
    for i, label in enumerate(labels):
        if i % step == 0 or i == len(labels) - 1:
            out.append(f'<text x="{x(i):.1f}" y="{height - bottom + 14}" text-anchor="middle" '
                       f'font-size="9">{escape(label)}</text>')
    for k, (name, points) in enumerate(series.items()):
        colour = CHART_COLOURS[k % len(CHART_COLOURS)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points) if v is not None)
        out.append(f'<polyline class="series" data-name="{escape(name)}" points="{coords}" '
                   f'fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = top + 14 * k
        out.append(f'<rect x="{width - right + 8}" y="{ly - 8}" width="12" height="4" '
                   f'fill="{colour}"/><text x="{width - right + 24}" y="{ly - 3}">'
                   f'{escape(name)}</text>')
    out.append("</svg>")
    return "".join(out)


def _y_ticks(low: int, high: int, y: Any, left: float, right: float) -> list[str]:
    """The value axis: about five round steps from ``low`` to ``high``, each a grid line."""
    span = max(high - low, 1)
    step = next((s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
                 if span / s <= 6), 10000)
    values = [low, *range(-(-low // step) * step, high, step), high]
    out = []
    for value in sorted(set(values)):
        if low < value < high and min(value - low, high - value) < step / 2:
            continue  # too close to an end's label
        out.append(f'<line class="tick" x1="{left}" y1="{y(value):.1f}" x2="{right}" '
                   f'y2="{y(value):.1f}" stroke="#e4e0d6"/>'
                   f'<text x="{left - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>')
    return out


def history_charts(record: dict[str, Any], names: list[str]) -> dict[str, str]:
    """The after-game charts: wealth per player and share price per company, by round."""
    points = round_history(record)
    labels = [p["round"] for p in points]
    wealth: dict[str, list[int | None]] = {
        name: [p["wealth"][i] for p in points] for i, name in enumerate(names)}
    companies = sorted({c for p in points for c in p["prices"]})
    prices: dict[str, list[int | None]] = {
        c: [p["prices"].get(c) for p in points] for c in companies}
    return {"wealth": line_chart(wealth, labels, ""), "prices": line_chart(prices, labels, "", from_zero=False)}
