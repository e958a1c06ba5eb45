"""What the 1840 log's links and the wealth table cost (issue 23, items 9 and 10):
``python benchmarks/log_positions.py [--moves N]`` prints one JSON object.

The long 1840 game (``tests/golden/1840-5p.json``, its first ``--moves`` moves, 522 by
default: up to its last tile lay) is written into a fresh SQLite file in process, then:

- ``rebuild_ms``: a position rebuilt from the database (the replay of every move and, new,
  the count of each move's lines), median of ``RUNS``; ``line_positions_ms``: of which the
  links of the stored lines (``positions.line_positions``), median;
- ``payload_ms``: the spectator's payload of the position (with ``log_at``), median;
- ``log_index_ms``: the whole log with its links (``GameService.log_index``), median;
- ``page_cold_ms``: the first table page of the game in this process (each ended Company
  Round's wealth read through the history of past positions: the replays), and
  ``page_warm_ms``: the same page again, median (the wealth kept by position);
- ``history_cold_ms`` / ``history_warm_ms``: of those pages, the part this adds
  (``g1840_history.history_context``: the wealth table and chart, the round steps);
- ``past_page_ms``: a past position's page inside CR3 (its round steps; without CR3, half
  way), median;
- ``log_lines``, ``linked_lines``, ``company_rounds``: what was measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RUNS = 7
GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "1840-5p.json"


def _median_ms(fn: Any, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def _write(database: str, moves: int) -> tuple[str, str]:
    from tramways.core import GameRecord, Session
    from tramways.server.service import GameService
    from tramways.server.storage import Store

    record = GameRecord.load(str(GOLDEN))
    session = Session.from_record(record.model_copy(update={"actions": []}))
    store = Store(database)
    service = GameService(store)
    try:
        created = service.create("1840", dict(record.settings), ["human"] * 5, seed=record.seed)
        gid = created["id"]
        for n, text in enumerate(record.actions[:moves]):
            seat = session.state.seats_for(session.parse(text))[0]
            session.play(text)
            service.move(gid, seat + 1, n, text)
    finally:
        service.close()
        store.close()
    return gid, created["seats"][0]["token"]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=522)
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app
    from tramways.server.positions import line_positions
    from tramways.server.web import g1840_history

    spent: list[float] = []
    original = g1840_history.history_context

    async def timed(*a: Any, **kw: Any) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return await original(*a, **kw)
        finally:
            spent.append((time.perf_counter() - start) * 1000)

    g1840_history.history_context = timed  # type: ignore[assignment]

    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{folder}/bench.sqlite3"
        gid, token = _write(database, args.moves)
        app = create_app(ServerSettings(database_url=database, moves_per_second=0,
                                        games_per_minute=0, max_bot_games=0,
                                        reads_per_second=0))
        with TestClient(app) as client:
            service = app.state.service
            store = service.store
            page_start = time.perf_counter()
            first = client.get(f"/g/{gid}?token={token}")
            page_cold = (time.perf_counter() - page_start) * 1000
            assert first.status_code == 200 and 'id="worth-table"' in first.text

            def rebuild() -> None:
                service.forget(gid)
                service.live(gid)

            loaded = store.load_lines(gid, 0, 0)
            assert loaded is not None
            live = service.live(gid)
            counts = [sum(1 for at in live.log_at if at == k + 1) for k in range(live.n)]
            index = service.log_index(gid)
            crs = sum(1 for line in index.lines if line.startswith("CR") and " begins" in line)
            starts = [at for line, at in zip(index.lines, index.at, strict=True)
                      if line.startswith("CR3 begins") and at is not None]
            past = min(starts[0] + 3 if starts else live.n // 2, live.n)
            out = {
                "moves": live.n,
                "log_lines": len(live.log),
                "linked_lines": sum(1 for at in live.log_at if at is not None),
                "company_rounds": crs,
                "rebuild_ms": _median_ms(rebuild),
                "line_positions_ms": _median_ms(lambda: line_positions(loaded.seqs, counts)),
                "payload_ms": _median_ms(lambda: service.state(gid, None)),
                "log_index_ms": _median_ms(lambda: service.log_index(gid)),
                "page_cold_ms": round(page_cold, 1),
                "history_cold_ms": round(spent[0], 1),
                "page_warm_ms": _median_ms(lambda: client.get(f"/g/{gid}?token={token}")),
                "history_warm_ms": round(statistics.median(spent[1:]), 2),
                "past_page_ms": _median_ms(
                    lambda: client.get(f"/g/{gid}?token={token}&at={past}"),
                    runs=3),
            }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
