"""Reads benchmark: clients hammering the costly reads of a long 1840 game while another client
asks for ordinary things; prints one JSON object.

    nice .venv/bin/python benchmarks/server_reads.py                 # 8 hammers, 15 s
    nice .venv/bin/python benchmarks/server_reads.py --hammers 8 --seconds 10 --reads-per-second 0

Prepares a SQLite file holding a long 1840 game (``tests/golden/1840-5p.json`` played up to its
last tile lay: some 500 moves, the position a line is to lay a tile) and starts one
``tramways serve`` on it (loopback only).  Then, for ``--seconds``:

- ``--hammers`` client loops (default 8, in one separate client process, each from its own
  loopback address 127.0.0.10, .11, ...: the per-address read limit counts each alone) ask
  back to back for: the board after one of the line's legal lays (``/g/ID/board?lay=``, the SVG
  and the best run), a random past position through the API (``/api/games/ID?at=N``) and as
  the page's history table (``/g/ID/table?at=N``), and a hex's revenue previews
  (``/g/ID/previews``);
- the measuring client (this process) asks every 20 ms, in turn, for a static file, the
  health check, a Trambahn game's payload through the API and the lobby page.

It first measures the same client on the quiet server (``quiet``), then under the hammers
(``hammered``): p50/p99/max of the measuring client's requests, the hammers' requests by
status (429: refused by the read limit) and the machine's load average.  ``--reads-per-second``
is passed to the server (omitted: the server's default; 0: no read limit, so only the
off-the-loop work and the lane of costly reads protect the rest).  Goal on the 2-core reference
machine: the measuring client's p99 under 50 ms with 8 hammers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from server_load import cpu_seconds, pct, start

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden" / "1840-5p.json"
MAX_SECONDS = 60.0
MAX_HAMMERS = 16


def prepare(database: str) -> dict[str, Any]:
    """Write the long 1840 game into ``database``; its id, the token of the seat to act."""
    from tramways.core import GameRecord
    from tramways.server.service import GameService
    from tramways.server.storage import Store
    from tramways.server.web.g1840_table import LAY

    record = GameRecord.load(str(GOLDEN))
    cut = max(i for i, a in enumerate(record.actions) if LAY.match(a))
    store = Store(database)
    service = GameService(store)
    try:
        created = service.create("1840", dict(record.settings), ["human"] * 5, seed=record.seed)
        gid = created["id"]
        live = service.live(gid)
        for i, text in enumerate(record.actions[:cut]):
            action = live.game.parse_action(text)
            seats = live.state.seats_for(action) or live.state.current_players()
            service.move(gid, seats[0] + 1, i, text)
            live = service.live(gid)
        seat = live.state.current_players()[0]
    finally:
        service.close()
        store.close()
    return {"id": gid, "n": cut, "token": created["seats"][seat]["token"]}


async def _hammer(k: int, base: str, game: dict[str, Any], lays: list[str], end: float,
                  out: dict[str, int]) -> None:
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + k}", 0), limit=1)
    rng = random.Random(k)
    hexes = sorted({lay.split()[2] for lay in lays})
    gid = game["id"]
    async with aiohttp.ClientSession(base, connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=120)) as client:
        while time.perf_counter() < end:
            pick = rng.random()
            if pick < 0.4:
                url = f"/g/{gid}/board?lay={rng.choice(lays)}"
            elif pick < 0.7:
                url = f"/api/games/{gid}?at={rng.randrange(game['n'])}"
            elif pick < 0.9:
                url = f"/g/{gid}/table?at={rng.randrange(game['n'])}"
            else:
                url = f"/g/{gid}/previews?hex={rng.choice(hexes)}&token={game['token']}"
            try:
                async with client.get(url) as r:
                    await r.read()
                    out[str(r.status)] = out.get(str(r.status), 0) + 1
            except aiohttp.ClientError:
                out["error"] = out.get("error", 0) + 1


def hammers_main(count: int, base: str, game: dict[str, Any], lays: list[str], start_at: float,
                 seconds: float, results: Any) -> None:
    async def main() -> dict[str, int]:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        out: dict[str, int] = {}
        end = time.perf_counter() + seconds
        await asyncio.gather(*(_hammer(k, base, game, lays, end, out) for k in range(count)))
        return out

    results.put(asyncio.run(main()))


async def measure(base: str, paths: list[str], seconds: float) -> dict[str, Any]:
    """The measuring client: one request every 20 ms, the paths in turn."""
    latencies: list[float] = []
    by_path: dict[str, list[float]] = {p.split("?")[0]: [] for p in paths}
    async with aiohttp.ClientSession(base, timeout=aiohttp.ClientTimeout(total=60)) as client:
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            path = paths[i % len(paths)]
            i += 1
            t0 = time.perf_counter()
            async with client.get(path) as r:
                await r.read()
                if r.status != 200:
                    raise SystemExit(f"{path}: {r.status}")
            ms = (time.perf_counter() - t0) * 1000
            latencies.append(ms)
            by_path[path.split("?")[0]].append(ms)
            await asyncio.sleep(max(0.0, 0.02 - (time.perf_counter() - t0)))
    return {
        "requests": len(latencies),
        "p50_ms": pct(latencies, 0.5),
        "p99_ms": pct(latencies, 0.99),
        "max_ms": pct(latencies, 1.0),
        "p99_ms_by_path": {p: pct(v, 0.99) for p, v in by_path.items()},
        "load_avg": round(os.getloadavg()[0], 1),
    }


async def _setup(base: str, game: dict[str, Any]) -> tuple[list[str], str]:
    async with aiohttp.ClientSession(base) as client:
        async with client.get(f"/api/games/{game['id']}?token={game['token']}") as r:
            legal = (await r.json())["legal"]
        async with client.post("/api/games", json={"game": "trambahn",
                                                   "seats": ["human", "bot:rule"]}) as r:
            other = (await r.json())["id"]
    from tramways.server.web.g1840_table import LAY

    return [a for a in legal if LAY.match(a)], other


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (the read pool's fork server and workers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return sorted(found)


def cpu_split(pid: int) -> tuple[float, float]:
    """CPU seconds so far of the server process itself, and of its read workers."""
    return cpu_seconds(pid), sum(cpu_seconds(p) for p in descendants(pid))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hammers", type=int, default=8, help=f"hammering loops (max {MAX_HAMMERS})")
    ap.add_argument("--seconds", type=float, default=15.0, help="hammered time (max 60)")
    ap.add_argument("--reads-per-second", type=float, default=None,
                    help="the server's read limit per address (default: its own; 0: off)")
    args = ap.parse_args()
    hammers = max(1, min(MAX_HAMMERS, args.hammers))
    seconds = max(1.0, min(MAX_SECONDS, args.seconds))
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{Path(tmp) / 'reads.sqlite3'}"
        game = prepare(database)
        extra = [] if args.reads_per_second is None else [
            "--reads-per-second", str(args.reads_per_second)]
        proc, base = start(database, extra)
        try:
            lays, other = asyncio.run(_setup(base, game))
            if not lays:
                raise SystemExit("no legal lay in the prepared position")
            paths = ["/static/style.css", "/healthz", f"/api/games/{other}", "/"]
            quiet = asyncio.run(measure(base, paths, min(5.0, seconds)))
            ctx = multiprocessing.get_context("spawn")
            results = ctx.Queue()
            start_at = time.time() + 2.0
            hammer = ctx.Process(target=hammers_main, args=(hammers, base, game, lays, start_at,
                                                             seconds + 1.0, results))
            hammer.start()
            time.sleep(max(0.0, start_at - time.time()) + 0.5)
            cpu0 = cpu_split(proc.pid)
            hammered = asyncio.run(measure(base, paths, seconds))
            cpu1 = cpu_split(proc.pid)
            statuses = results.get(timeout=seconds + 180)
            hammer.join(timeout=30)
            if hammer.is_alive():
                hammer.kill()
        finally:
            proc.terminate()
            proc.wait()
    hammered["hammer_requests"] = statuses
    # where the hammered time's CPU went: the server process (its event loop and threads)
    # and the read pool's worker processes
    hammered["server_cpu_s"] = round(cpu1[0] - cpu0[0], 2)
    hammered["read_workers_cpu_s"] = round(cpu1[1] - cpu0[1], 2)
    print(json.dumps({"game_moves": game["n"], "hammers": hammers, "seconds": seconds,
                      "reads_per_second": args.reads_per_second, "cores": os.cpu_count(),
                      "quiet": quiet, "hammered": hammered}), flush=True)
    print(f"quiet p99 {quiet['p99_ms']} ms, hammered p99 {hammered['p99_ms']} ms",
          file=sys.stderr)


if __name__ == "__main__":
    main()
