"""benchmarks/server_load.py still runs on PostgreSQL (a tiny run: two server processes, two
games each watched by a WebSocket, one client process, one watcher process; its figures are
printed, never asserted)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.conftest import POSTGRES_ENV

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server_load.py"


def test_load_benchmark_prints_a_paced_and_a_closed_loop_run():
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    out = subprocess.run(
        [sys.executable, str(BENCH), "--database", url, "--games", "2", "--seconds", "2",
         "--think-ms", "100", "--closed-loop", "2", "--clients", "1", "--watchers", "1"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    runs = json.loads(out)["runs"]
    assert [(r["games"], r["mode"]) for r in runs] == [(2, "paced 100 ms"), (2, "closed loop x2")]
    assert all(r["moves"] > 0 and r["refused"].get("500", 0) == 0 for r in runs)
    assert all(r["watched_games"] == 2 and r["fanout_samples"] > 0 for r in runs)
    assert {"p50_ms", "p99_ms", "fanout_p99_ms", "kb_per_idle_game", "client_cpu",
            "games_finished", "load_avg"} <= set(runs[0])
