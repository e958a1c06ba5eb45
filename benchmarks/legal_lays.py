"""Benchmark of tile-lay legality (``tramways.g1840.legality``): prints one JSON object.

Board: the tiles and station markers of the reference game's last Line Round position (the
2-player 18xx.games trace in ``../shared``), the most crowded board a Line Round has seen.
For every line on it, time :func:`legal_tile_lays` (normal lays and upgrades, phase of that
position) from a cold start: a freshly built board, so the line's reach is computed inside the
timing. Also timed: the Stadtbahn lays, station placements and a warm (reach cached) call.
The process-wide tile caches are filled by one untimed pass first (its total is reported as
``first_pass_all_lines_ms``).

Keys: ``median_ms`` / ``max_ms`` (cold legal_tile_lays per line, wall clock; ``cpu_median_ms``
/ ``cpu_max_ms`` the same in thread CPU time, steadier on a busy machine), ``warm_median_ms``,
``stations_median_ms``, ``stadtbahn_median_ms``, ``lines``, ``lays_per_line``, ``samples``.
The per-hex memo of :mod:`tramways.g1840.legality.listing` is process-wide too, so the cold
calls above find it filled; three more keys tell the incremental listing's cases apart (CPU
time): ``after_lay_cpu_median_ms`` (the line lays one of its listed tiles on a copy of the
board - ``TileLay.apply``, its reach carried over the lay - and lists again: what a turn sees),
``memo_cold_cpu_median_ms`` (the memo emptied before every call: every hex evaluated) and
``scratch_cpu_median_ms`` (the evaluator over every candidate, ``scratch_tile_lays``); the
last two are ``null`` with an engine that has no memo.
Run: ``.venv/bin/python benchmarks/legal_lays.py``.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TRACE = REPO.parent / "shared" / "reference" / "1840" / "oracle" / "2player.trace.jsonl"
PHASES = {"1": "yellow", "2": "green", "3": "brown", "4": "grey"}
ROUNDS = 20


def last_line_round() -> tuple[dict[str, Any], Any]:
    from tramways.g1840.interop.trace_positions import board_from_trace, layout_for_header

    header: dict[str, Any] = {}
    last: dict[str, Any] | None = None
    with TRACE.open(encoding="utf-8") as fh:
        for text in fh:
            item = json.loads(text)
            if item.get("kind") == "header":
                header = item
            elif item.get("processed") and item.get("state", {}).get("round", {}).get(
                "name"
            ) == "Line Round":
                last = item["state"]
    assert last is not None
    layout = layout_for_header(header)
    return last, lambda: board_from_trace(layout, last)


def incremental_cases(build: Any, phase: str, lines: list[int]) -> dict[str, Any]:
    """CPU medians of the listing after a lay, with the memo emptied, and from scratch."""
    from tramways.g1840 import legality
    from tramways.g1840.legality import SimpleBuildState, legal_tile_lays

    listing = getattr(legality, "listing", None)
    scratch = getattr(legality, "scratch_tile_lays", None)
    after: list[float] = []
    memo_cold: list[float] = []
    from_scratch: list[float] = []
    for k in range(ROUNDS):
        board = build()
        state = SimpleBuildState(board, phase, set(lines))
        for line in lines:
            lays = legal_tile_lays(state, line)
            if lays:
                trial = SimpleBuildState(board.copy(), phase, set(lines))
                lays[k % len(lays)].apply(trial.board)
                start = time.thread_time()
                legal_tile_lays(trial, line)
                after.append((time.thread_time() - start) * 1000)
            if listing is not None:
                listing._MEMO.clear()
                start = time.thread_time()
                legal_tile_lays(state, line)
                memo_cold.append((time.thread_time() - start) * 1000)
            if scratch is not None:
                start = time.thread_time()
                scratch(state, line)
                from_scratch.append((time.thread_time() - start) * 1000)

    def median(xs: list[float]) -> float | None:
        return round(statistics.median(xs), 3) if xs else None

    return {"after_lay_cpu_median_ms": median(after),
            "memo_cold_cpu_median_ms": median(memo_cold),
            "scratch_cpu_median_ms": median(from_scratch)}


def main() -> None:
    from tramways.g1840.legality import (
        SimpleBuildState,
        legal_stadtbahn_lays,
        legal_station_placements,
        legal_tile_lays,
    )

    if not TRACE.is_file():
        print(json.dumps({"error": f"{TRACE} not found"}))
        return
    trace_state, build = last_line_round()
    phase = PHASES.get(str(trace_state["game"]["phase"]), "yellow")
    lines = sorted(int(name.split()[-1]) for name in trace_state["lines"])
    cold: list[float] = []
    cold_cpu: list[float] = []
    warm: list[float] = []
    stations: list[float] = []
    stadtbahn: list[float] = []
    counts: dict[int, int] = {}
    # One untimed pass fills the process-wide tile-geometry caches (upgrade maps, rotations).
    board = build()
    warmup_state = SimpleBuildState(board, phase, set(lines))
    start = time.perf_counter()
    for line in lines:
        legal_tile_lays(warmup_state, line)
    first_pass_ms = (time.perf_counter() - start) * 1000
    for _ in range(ROUNDS):
        board = build()
        state = SimpleBuildState(board, phase, set(lines))
        for line in lines:
            start = time.perf_counter()
            cpu_start = time.thread_time()
            lays = legal_tile_lays(state, line)
            cold.append((time.perf_counter() - start) * 1000)
            cold_cpu.append((time.thread_time() - cpu_start) * 1000)
            counts[line] = len(lays)
            start = time.perf_counter()
            legal_tile_lays(state, line)
            warm.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            legal_station_placements(state, line)
            stations.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            legal_stadtbahn_lays(state, line)
            stadtbahn.append((time.perf_counter() - start) * 1000)
    print(json.dumps({
        "benchmark": "legal_lays",
        "board": "2player trace, last Line Round position",
        "phase": phase,
        "tiles_on_board": len(build().placed()),
        "lines": lines,
        "lays_per_line": {str(k): v for k, v in counts.items()},
        "samples": len(cold),
        "median_ms": round(statistics.median(cold), 3),
        "max_ms": round(max(cold), 3),
        "cpu_median_ms": round(statistics.median(cold_cpu), 3),
        "cpu_max_ms": round(max(cold_cpu), 3),
        "warm_median_ms": round(statistics.median(warm), 3),
        "first_pass_all_lines_ms": round(first_pass_ms, 3),
        "stations_median_ms": round(statistics.median(stations), 3),
        "stadtbahn_median_ms": round(statistics.median(stadtbahn), 3),
        **incremental_cases(build, phase, lines),
    }))


if __name__ == "__main__":
    main()
