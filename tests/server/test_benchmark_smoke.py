"""benchmarks/server.py still runs (a tiny run: two whole games in a closed loop, each watched
over a WebSocket by another process; its figures are printed, never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server.py"


def test_server_benchmark_prints_its_runs():
    out = subprocess.run(
        [sys.executable, str(BENCH), "--games", "2", "--think-ms", "0", "--loops", "2"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    runs = json.loads(out)["runs"]
    assert [r["games"] for r in runs] == [2]
    assert runs[0]["games_finished"] == 2 and runs[0]["refused"] == {"stale": 0}
    assert runs[0]["fanout_samples"] == runs[0]["moves"] > 0
    assert {"moves_per_s", "p50_ms", "p99_ms", "fanout_p99_ms", "server_cpu_ms_per_move",
            "load_avg"} <= set(runs[0])
