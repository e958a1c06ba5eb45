"""Replay benchmark: ``python benchmarks/replay.py [RECORD ...]`` prints one JSON object.

For one record: ``actions`` (its length), ``ms`` (the median in-process time to replay the
whole record over several runs, after one warm-up), ``best_ms`` (the fastest of those runs),
``cpu_best_ms`` (the fastest run in process CPU time, steadier than wall time on a machine
busy with other work), ``first_cpu_ms`` (the warm-up, the record's first replay in the process:
nothing remembered from an earlier replay of it; after another record, with the map data
loaded, the figure of a game replayed once) and ``ms_per_action`` (from the median). For several records,
the same three figures summed over them (``ms`` is the sum of the medians), and ``records``:
one such object per record, with its ``name``.

``--cold RECORD`` times one replay of RECORD with nothing of it remembered: in fresh
processes (five), each first replays a 2-player selfplay game (seed 3: the map data loaded and
the code warm), then RECORD once (``cold_cpu_ms``: the fastest of the five, with all five in
``cold_runs``). The warm figures above replay the same record again, so the engine's memos
(routes, claimed runs, parsed actions) answer from its earlier replays: ``cold_cpu_ms`` is the
figure of a game replayed for the first time.

``--import EXPORT`` times importing an 18xx.games export in process instead (``import_ms``,
``best_ms``, ``cpu_best_ms``, with ``site_entries`` and the record's ``replay`` figures).

``--cold oracle`` does so for the oracle game. Without RECORD it times the 18xx.games oracle game (imported in-process from
``<repo>/../shared/reference/1840/oracle/2player.json``; left out if that is absent) and a
4-player selfplay game (seed 1).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from tramways.core.record import GameRecord
from tramways.core.replay import Session
from tramways.core.selfplay import play_game

RUNS = 15
ORACLE = Path(__file__).resolve().parents[1].parent / "shared/reference/1840/oracle/2player.json"


def oracle_record() -> GameRecord | None:
    """The oracle game imported in-process, or ``None`` without the shared sources."""
    if not ORACLE.exists():
        return None
    from tramways.g1840.interop.importer import import_export
    from tramways.g1840.interop.log18xx import load_export

    return import_export(load_export(ORACLE))


def time_record(name: str, record: GameRecord) -> dict[str, Any]:
    start_cpu = time.process_time()
    Session.from_record(record)  # warm-up (loads data and caches)
    first = (time.process_time() - start_cpu) * 1000
    times, cpu = [], []
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        Session.from_record(record)
        cpu.append((time.process_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    ms = statistics.median(times)
    n = len(record.actions)
    return {"name": name, "game": record.game, "actions": n, "ms": round(ms, 2),
            "best_ms": round(min(times), 2), "cpu_best_ms": round(min(cpu), 2),
            "first_cpu_ms": round(first, 2), "ms_per_action": round(ms / max(n, 1), 4)}


def time_import(path: str, runs: int = 5) -> dict[str, Any]:
    """``--import EXPORT``: import an 18xx.games export in process (translation, the site's
    result, the record's replay from scratch), median and best of ``runs`` after a warm-up."""
    from tramways.g1840.interop.importer import import_export
    from tramways.g1840.interop.log18xx import load_export

    export = load_export(path)
    record = import_export(export)
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        import_export(export)
        cpu.append((time.process_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    return {"name": path, "site_entries": len(export.actions), "actions": len(record.actions),
            "import_ms": round(statistics.median(times), 2), "best_ms": round(min(times), 2),
            "cpu_best_ms": round(min(cpu), 2),
            "replay": time_record(path, record)}


def _cold_child(record_path: str) -> None:
    other = play_game("1840", {"players": 2}, 3).session.record
    Session.from_record(other)
    record = GameRecord.load(record_path)
    start_cpu = time.process_time()
    Session.from_record(record)
    print(json.dumps({"cold_cpu_ms": round((time.process_time() - start_cpu) * 1000, 2)}))


def time_cold(record_path: str, runs: int = 5) -> dict[str, Any]:
    """``--cold RECORD``: one first replay of RECORD in each of ``runs`` fresh processes."""
    import subprocess
    import tempfile

    path = record_path
    if record_path == "oracle":
        record = oracle_record()
        if record is None:
            return {"error": "the shared oracle record is absent"}
        path = str(Path(tempfile.mkdtemp()) / "oracle.json")
        record.save(path)
    cold = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, __file__, "--cold-child", path], check=True,
                             capture_output=True, text=True).stdout
        cold.append(json.loads(out)["cold_cpu_ms"])
    return {"name": record_path, "cold_cpu_ms": min(cold), "cold_runs": cold}


def main(argv: list[str]) -> int:
    records: list[tuple[str, GameRecord]] = []
    if len(argv) == 3 and argv[1] == "--cold-child":
        _cold_child(argv[2])
        return 0
    if len(argv) == 3 and argv[1] == "--cold":
        print(json.dumps(time_cold(argv[2])))
        return 0
    if len(argv) == 3 and argv[1] == "--import":
        print(json.dumps(time_import(argv[2])))
        return 0
    if len(argv) > 1:
        records = [(path, GameRecord.load(path)) for path in argv[1:]]
    else:
        oracle = oracle_record()
        if oracle is not None:
            records.append(("oracle-2player", oracle))
        records.append(("selfplay-4p-seed1", play_game("1840", {"players": 4}, 1).session.record))
    results = [time_record(name, record) for name, record in records]
    if len(results) == 1:
        out = results[0]
    else:
        n = sum(r["actions"] for r in results)
        ms = sum(r["ms"] for r in results)
        out = {"actions": n, "ms": round(ms, 2), "ms_per_action": round(ms / max(n, 1), 4),
               "records": results}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
