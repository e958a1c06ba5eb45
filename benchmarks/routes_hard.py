"""Benchmark of the best-route search on its hardest boards (rules IX.8): one JSON object.

The boards are the synthetic fully grown boards of ``benchmarks/routes.py`` (every hex that
takes a tile carries the highest-colour tile that fits) with few blocking markers, so that
nearly every interchange can be passed and the routes can wander over the whole map:

* ``six_markers``: the full map, every line with up to six station markers;
* ``nine_lines``: the full map, only the markers of 9 of the 18 lines kept;
* ``one_line_k``: the full map, only one line keeps markers (its first ``k`` markers,
  k = 1, 3, 6);
* ``two_player`` / ``small3``: the 2-player and the small map grown the same way, only one
  line keeping its markers.

Each line is searched in a child process with a hard cap (``--cap`` seconds, default 120); a
search that does not finish is reported as ``"unfinished"`` instead of hanging the benchmark.
Per case: the time of every line (ms) and its best revenue.

Run: ``.venv/bin/python benchmarks/routes_hard.py [--cap SECONDS] [--lines N]``.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from routes import synthetic_board  # noqa: E402

from tramways.g1840.board import Board  # noqa: E402
from tramways.g1840.routes import RouteContext, best_route  # noqa: E402


def grown_board(layout_name: str, seed: int = 1840) -> Board:
    """The map grown out like ``routes.synthetic_board``, on any layout."""
    return synthetic_board(seed, layout_name)


def keep_markers(board: Board, keep: dict[int, int | None]) -> Board:
    """A copy where only the lines of ``keep`` have markers (their first ``n``, or all)."""
    out = board.copy()
    for line in board.layout.lines_in_game:
        spots = out.line_markers(line)
        n = keep.get(line, 0) if line in keep else 0
        limit = len(spots) if n is None else n
        for coord, loc in spots[limit:]:
            out.remove_marker(coord, loc, line)
    return out


def _child(board: Board, line: int, queue: mp.Queue) -> None:  # type: ignore[type-arg]
    ctx = RouteContext(board, line, "grey", frozenset(), -100)
    start = time.perf_counter()
    run = best_route(ctx)
    spent = (time.perf_counter() - start) * 1000
    queue.put((spent, run.revenue if run else 0))


def timed(board: Board, line: int, cap: float) -> dict[str, object]:
    """``best_route`` of ``line`` in a child process, stopped after ``cap`` seconds."""
    ctx = mp.get_context("fork")
    queue: mp.Queue = ctx.Queue()  # type: ignore[type-arg]
    proc = ctx.Process(target=_child, args=(board, line, queue))
    proc.start()
    proc.join(cap)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return {"line": line, "ms": "unfinished", "cap_s": cap}
    spent, revenue = queue.get(timeout=5)
    return {"line": line, "ms": round(spent, 1), "revenue": revenue}


def cases() -> dict[str, tuple[Board, list[int]]]:
    full = grown_board("full")
    lines = list(full.layout.lines_in_game)
    with_markers = [ln for ln in lines if full.line_markers(ln)]
    half = with_markers[::2][:9]
    one = max(with_markers, key=lambda ln: len(full.line_markers(ln)))
    out = {
        "six_markers": (full, with_markers),
        "nine_lines": (keep_markers(full, dict.fromkeys(half)), half),
    }
    for k in (1, 3, 6):
        out[f"one_line_{k}"] = (keep_markers(full, {one: k}), [one])
    for name in ("two_player", "small3"):
        board = grown_board(name)
        own = [ln for ln in board.layout.lines_in_game if board.line_markers(ln)]
        if own:
            out[name] = (keep_markers(board, {own[0]: None}), [own[0]])
    return out


def main() -> int:
    cap = 120.0
    limit = None
    if "--cap" in sys.argv:
        cap = float(sys.argv[sys.argv.index("--cap") + 1])
    if "--lines" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--lines") + 1])
    out: dict[str, object] = {"cap_s": cap}
    for name, (board, lines) in cases().items():
        rows = [timed(board, line, cap) for line in lines[:limit]]
        done = [r["ms"] for r in rows if r["ms"] != "unfinished"]
        out[name] = {
            "lines": len(rows),
            "unfinished": len(rows) - len(done),
            "max_ms": max(done) if done else None,  # type: ignore[type-var]
            "per_line": rows,
        }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
