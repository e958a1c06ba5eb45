"""Server benchmark: N concurrent Trambahn games against a real ``tramways serve`` on loopback.

    .venv/bin/python benchmarks/server.py                     # N = 10 and 100, SQLite
    .venv/bin/python benchmarks/server.py --games 10 --moves 20
    .venv/bin/python benchmarks/server.py --database postgresql+psycopg://...

Starts ``tramways serve`` (uvicorn, one process) on a free loopback port with a fresh SQLite
database (or ``--database``), creates N games (two human seats each), then plays them all at
once: one client per game, each move a real ``POST /api/games/{id}/moves`` (committed before
the reply), ``--moves`` moves per game (bounded).  When the turn passes, the client reads the
other seat's legal moves with a ``GET`` (not timed).  Each configuration runs twice: as a
closed loop (``think_ms`` 0: every client sends its next move as soon as the last one is
answered, so the server is saturated and latency is queueing: this run measures throughput),
and paced (``think_ms`` 500: a pause uniform in 0-1 s before each move, still faster than any
person).  Prints one JSON object:

    {"runs": [{"games": N, "think_ms": T, "moves": M, "moves_per_s": ..., "p50_ms": ...,
               "p99_ms": ...}]}

``server_cpu_ms_per_move`` is the server process's CPU time per move (including the untimed
``GET``s), which stays meaningful when other work loads the machine (``load_avg``).

The load client is aiohttp.  An httpx ``AsyncClient`` holding ~100 connections was measured to
add seconds of queueing inside the client itself (paced 100 games: p99 1.6 s while py-spy showed
the server idle; closed loop 228 moves/s), so it measured the client, not the server; with
aiohttp the same runs gave p99 7 ms and 707 moves/s.

Goal on the 2-core reference machine: p99 under 50 ms at 100 concurrent games on SQLite.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from server_load import cpu_seconds, send, start  # the same server start-up and client


async def create(client: aiohttp.ClientSession) -> dict[str, Any]:
    _, created = await send(client, "POST", "/api/games", json={"game": "trambahn", "seats": ["human", "human"]})
    return dict(created)


async def play_one(client: aiohttp.ClientSession, created: dict[str, Any], moves: int,
                   rng: random.Random, latencies: list[float], think_ms: float) -> int:
    gid = created["id"]
    auth = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
    seat = 1
    _, state = await send(client, "GET", f"/api/games/{gid}", headers=auth[0])
    played = 0
    while played < moves and state["status"] == "active":
        if not state["legal"]:  # the turn passed: read the other seat's moves (not timed)
            seat = state["to_act"][0]
            _, state = await send(client, "GET", f"/api/games/{gid}", headers=auth[seat - 1])
            continue
        move = rng.choice(state["legal"])
        if think_ms:
            await asyncio.sleep(rng.uniform(0, 2 * think_ms) / 1000)
        t0 = time.perf_counter()
        status, state = await send(client, "POST", f"/api/games/{gid}/moves",
                                   json={"n": state["n"], "action": move}, headers=auth[seat - 1])
        latencies.append(time.perf_counter() - t0)
        if status != 200:
            raise SystemExit(f"move refused: {status} {str(state)[:200]}")
        played += 1
    return played


async def run(base: str, games: int, moves: int, seed: int, think_ms: float,
              pid: int) -> dict[str, Any]:
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=games + 10)
    timeout = aiohttp.ClientTimeout(total=60)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as client:
        created = await asyncio.gather(*(create(client) for _ in range(games)))
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        played = sum(await asyncio.gather(*(
            play_one(client, c, moves, random.Random(seed * 1000 + g), latencies, think_ms)
            for g, c in enumerate(created)
        )))
        elapsed = time.perf_counter() - t0
        cpu = cpu_seconds(pid) - cpu0
    ms = sorted(x * 1000 for x in latencies)
    print(f"{games} games, think {think_ms} ms: {played} moves", file=sys.stderr)
    return {
        "games": games,
        "think_ms": think_ms,
        "moves": played,
        "moves_per_s": round(played / elapsed, 1),
        "p50_ms": round(statistics.median(ms), 1),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 1),
        "server_cpu_ms_per_move": round(cpu * 1000 / played, 2),
        "load_avg": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, action="append", help="concurrent games (repeatable)")
    ap.add_argument("--moves", type=int, default=40, help="moves per game (default 40)")
    ap.add_argument("--database", help="SQLAlchemy URL (default: a fresh SQLite file)")
    ap.add_argument("--think-ms", type=float, action="append",
                    help="mean pause before each move, uniform in [0, 2x] (repeatable; "
                    "default: 0, a closed loop measuring throughput, and 500)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    counts = args.games or [10, 100]
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        proc, base = start(database)
        try:
            runs = [
                asyncio.run(run(base, n, args.moves, args.seed, think, proc.pid))
                for think in (args.think_ms or [0.0, 500.0])
                for n in counts
            ]
        finally:
            proc.terminate()
            proc.wait()
    print(json.dumps({"runs": runs}))


if __name__ == "__main__":
    main()
