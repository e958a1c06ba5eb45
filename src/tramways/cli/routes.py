"""``tramways routes RECORD [--line N] [--check ROUTE] [--json]``: 1840 best routes (IX.8).

Replays the record and, for every line that has a tram (or the one asked for), prints the
proven best route: its stops, hexes, what each stop earns, the landmark bonus, the revenue,
the maintenance and the total.  ``--check ROUTE`` (with ``--line``) scores a claimed route
instead, or names the rule it breaks.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tramways.core.errors import RecordError, TramwaysError
from tramways.core.record import GameRecord
from tramways.core.replay import Session


def _describe(line: int, run: Any) -> str:
    if run is None:
        return f"Line {line}: no valid route (earns 0, no maintenance: R-LR-8)"
    parts = " + ".join(str(p) for p in run.parts)
    if run.landmark_bonus:
        parts += f" + {run.landmark_bonus} landmark"
    sign = "+" if run.maintenance >= 0 else "-"
    return (
        f"Line {line}: {run.text}\n"
        f"  hexes: {' '.join(run.hexes)}\n"
        f"  revenue: {parts} = {run.revenue}; maintenance {sign}{abs(run.maintenance)}; "
        f"total {run.total}"
    )


def cmd_routes(args: argparse.Namespace) -> int:
    from tramways.g1840.routes import best_route, check_route

    session = Session.from_record(GameRecord.load(args.record))
    if session.game.name != "1840":
        raise RecordError(f"{args.record}: routes are for 1840 records, not {session.game.name!r}")
    state: Any = session.state
    if state.board is None:
        raise TramwaysError("no board yet: the game has not reached its first Line Round")
    if args.line is not None:
        lines = [args.line]
    else:
        lines = list(state.lines_with_trams())
    if args.check is not None and args.line is None:
        raise TramwaysError("--check needs --line")
    out = []
    for line in lines:
        try:
            ctx = state.route_context(line)
        except (KeyError, ValueError, AttributeError):
            raise TramwaysError(f"line {line} is not owned by any tram company") from None
        run = check_route(ctx, args.check) if args.check is not None else best_route(ctx)
        out.append((line, run))
    if args.json:
        print(json.dumps(
            {"lines": [{"line": line, "run": run.to_json() if run else None} for line, run in out]},
            ensure_ascii=False,
        ))
    else:
        if not out:
            print("no line has a tram")
        for line, run in out:
            print(_describe(line, run))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("routes", help="1840: the best route of every line with a tram")
    p.add_argument("record")
    p.add_argument("--line", type=int, help="only this line")
    p.add_argument("--check", metavar="ROUTE", help="score this route (e.g. D18.0-E19.0)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_routes)
