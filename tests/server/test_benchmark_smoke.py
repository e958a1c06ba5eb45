"""benchmarks/server.py still runs (a tiny run; its figures are printed, never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server.py"


def test_server_benchmark_prints_its_runs():
    out = subprocess.run(
        [sys.executable, str(BENCH), "--games", "2", "--moves", "3", "--think-ms", "0"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    runs = json.loads(out)["runs"]
    assert [r["games"] for r in runs] == [2]
    assert runs[0]["moves"] == 6
    assert {"moves_per_s", "p50_ms", "p99_ms", "server_cpu_ms_per_move"} <= set(runs[0])
