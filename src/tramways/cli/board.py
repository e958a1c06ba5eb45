"""``tramways render``: a picture (SVG or PNG) of an 1840 board.

* ``tramways render RECORD -o map.svg`` - the board of a game record (``--as-of N``: after its
  first N actions; ``--routes``: with the best route of every line that has a tram, IX.8);
* ``tramways render --trace TRACE.jsonl [--index N] -o map.png`` - a position of an
  18xx.games oracle trace (after action N, by default the last one);
* ``tramways render --map full|small3|two_player -o map.svg`` - the empty printed map.

The output format is chosen by the suffix of ``-o`` (``.svg`` or ``.png``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tramways.core.errors import RecordError, TramwaysError

FORMATS = (".svg", ".png")
PHASES = ("yellow", "green", "brown", "grey")
TRACE_PHASES = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}
"""18xx.games phase names of 1840 -> the newest tile colour available (R-LR-7)."""


def _usage_error(message: str) -> Exception:
    from tramways.cli import UsageError

    return UsageError(f"tramways render: {message}")


def output_format(path: str) -> str:
    """``"svg"`` or ``"png"`` from the output file name; a usage error otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise _usage_error(f"-o {path}: the output must end in .svg or .png")
    return suffix[1:]


def _record_position(args: argparse.Namespace) -> tuple[Any, str, list[tuple[int, Any]], str]:
    """(board, phase, routes, title) of a game record."""
    from tramways.core.record import GameRecord
    from tramways.core.replay import Session

    record = GameRecord.load(args.record)
    if record.game != "1840":
        raise RecordError(f"{args.record}: a {record.game!r} record has no 1840 board")
    upto = args.as_of
    if upto is not None and not 0 <= upto <= len(record.actions):
        raise _usage_error(
            f"--as-of {upto}: the record has {len(record.actions)} actions (0 to "
            f"{len(record.actions)})"
        )
    state: Any = Session.from_record(record, upto=upto).state
    board = state.board
    if board is None:
        raise TramwaysError(f"{args.record}: this position has no board to draw")
    phase = str(state.phase)
    routes: list[tuple[int, Any]] = []
    if args.routes:
        from tramways.g1840.routes import best_route

        for line in state.lines_with_trams():
            run = best_route(state.route_context(line))
            if run is not None:
                routes.append((line, run))
    done = len(record.actions) if upto is None else upto
    title = f"1840 \u2014 {Path(args.record).name}, after {done} actions, phase {phase}"
    return board, phase, routes, title


def _trace_position(args: argparse.Namespace) -> tuple[Any, str, list[tuple[int, Any]], str]:
    """(board, phase, routes, title) of an 18xx.games trace position."""
    from tramways.g1840.interop.trace_positions import iter_positions

    if args.routes:
        raise _usage_error("--routes needs a game record, not a trace")
    if not Path(args.trace).is_file():
        raise RecordError(f"{args.trace}: no such file")
    found: tuple[int, Any, Any] | None = None
    for index, trace_state, board in iter_positions(args.trace):
        if args.index is not None and index > args.index:
            break
        found = (index, trace_state, board)
    if found is None:
        where = "" if args.index is None else f" up to action {args.index}"
        raise RecordError(f"{args.trace}: no processed position{where}")
    index, trace_state, board = found
    game_phase = str(trace_state.get("game", {}).get("phase", "1"))
    phase = TRACE_PHASES.get(game_phase, "yellow")
    title = f"1840 \u2014 {Path(args.trace).name}, after action {index}, phase {phase}"
    return board, phase, [], title


def _map_position(args: argparse.Namespace) -> tuple[Any, str, list[tuple[int, Any]], str]:
    from tramways.g1840.board import Board
    from tramways.g1840.data import load_layout

    return Board(load_layout(args.map)), "yellow", [], ""


def cmd_render(args: argparse.Namespace) -> int:
    fmt = output_format(args.output)
    sources = [s for s in (args.record, args.trace, args.map) if s is not None]
    if len(sources) != 1:
        raise _usage_error("give exactly one of RECORD, --trace TRACE or --map LAYOUT")
    if args.trace is None and args.index is not None:
        raise _usage_error("--index goes with --trace (use --as-of N for a record)")
    if args.record is None and args.as_of is not None:
        raise _usage_error("--as-of goes with a RECORD (use --index N for a trace)")
    if args.record is not None:
        board, phase, routes, title = _record_position(args)
    elif args.trace is not None:
        board, phase, routes, title = _trace_position(args)
    else:
        board, phase, routes, title = _map_position(args)
    phase = args.phase or phase
    heading: str | None = args.title if args.title is not None else (title or None)

    from tramways.g1840.render import render_png, render_svg

    if fmt == "svg":
        data = render_svg(board, phase=phase, routes=routes, title=heading).encode("utf-8")
    else:
        data = render_png(board, phase=phase, routes=routes, title=heading, scale=args.scale)
    try:
        Path(args.output).write_bytes(data)
    except OSError as exc:
        raise TramwaysError(f"{args.output}: {exc.strerror or exc}") from None
    note = f", {len(routes)} routes" if routes else ""
    print(f"wrote {args.output} ({fmt}, phase {phase}{note})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="draw an 1840 board (SVG or PNG)",
        description="Draw an 1840 board (a game record, an 18xx.games trace position or an "
        "empty map) as SVG or PNG; the format follows the suffix of -o.",
    )
    p.add_argument("record", nargs="?", metavar="RECORD", help="an 1840 game record")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="map.svg or map.png")
    p.add_argument("--routes", action="store_true", help="draw each line's best route (IX.8)")
    p.add_argument("--as-of", type=int, metavar="N", help="the position after the first N actions")
    p.add_argument("--trace", metavar="TRACE", help="an 18xx.games oracle trace (.jsonl)")
    p.add_argument(
        "--index", type=int, metavar="N", help="with --trace: after action N (default: the end)"
    )
    p.add_argument("--map", choices=("full", "small3", "two_player"), help="the empty printed map")
    p.add_argument("--phase", choices=PHASES, help="highlight this phase's revenue (R-LR-7)")
    p.add_argument("--title", help="heading of the picture")
    p.add_argument("--scale", type=float, default=1.5, help="PNG: pixels per SVG unit")
    p.set_defaults(func=cmd_render)
