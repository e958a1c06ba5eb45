"""Load benchmark: two ``tramways serve`` processes on one PostgreSQL, many games at once.

    .venv/bin/python benchmarks/server_load.py --database postgresql+psycopg://postgres@127.0.0.1:PORT/postgres
    .venv/bin/python benchmarks/server_load.py --games 10,100 --seconds 5 --database ...

(``--database`` defaults to ``$TRAMWAYS_TEST_POSTGRES_URL``.)  Loopback only, bounded in count
and time: for each size G (default 10, 100, 1000) it creates G Trambahn games (two human seats,
alternately through each process), reads each once through both processes (so both cache
them), then for ``--seconds`` drives moves with ``--clients`` closed-loop clients, each picking
a random game and posting its next move alternately to process A or B (each move a real
``POST``, committed before the reply; the ``GET`` that finds the seat's legal moves is not
timed).  Meanwhile one WebSocket client on process B watches a game moved through process A:
the fan-out delay is from sending the ``POST`` to A until B's socket delivers the new
position (NOTIFY included).  Memory per idle game is the growth of the two processes'
resident memory while G games are created and read, divided by G (per process, averaged).

Prints one JSON object: ``{"load_avg": [...], "runs": [{"games", "moves", "moves_per_s",
"p50_ms", "p99_ms", "fanout_p50_ms", "fanout_p99_ms", "fanout_samples", "kb_per_idle_game"}]}``.
Figures only mean something next to the load average of the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(database: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tramways", "serve", "--port", str(port), "--database", database,
         "--moves-per-second", "0", "--games-per-minute", "0"],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("tramways serve exited")
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("tramways serve did not start")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Game:
    def __init__(self, created: dict[str, Any]) -> None:
        self.id = created["id"]
        self.tokens = [s["token"] for s in created["seats"]]
        self.lock = threading.Lock()


def next_move(client: httpx.Client, base: str, game: Game) -> tuple[int, str, str] | None:
    """(n, action, token) of the seat to act, from a GET (not timed)."""
    spectator = client.get(f"{base}/api/games/{game.id}").json()
    if spectator["status"] != "active" or not spectator["to_act"]:
        return None
    token = game.tokens[spectator["to_act"][0] - 1]
    state = client.get(f"{base}/api/games/{game.id}", headers={
        "Authorization": f"Bearer {token}"}).json()
    if not state["legal"]:
        return None
    return state["n"], random.choice(state["legal"]), token


def run(bases: list[str], pids: list[int], count: int, seconds: float, clients: int) -> dict:
    client = httpx.Client(timeout=60)
    before = [rss_kb(p) for p in pids]
    games: list[Game] = []
    for i in range(count):
        r = client.post(f"{bases[i % 2]}/api/games",
                        json={"game": "trambahn", "seats": ["human", "human"]})
        r.raise_for_status()
        games.append(Game(r.json()))
    for g in games:  # both processes hold every game in their cache
        for base in bases:
            client.get(f"{base}/api/games/{g.id}").raise_for_status()
    after = [rss_kb(p) for p in pids]
    kb_per_game = statistics.mean((a - b) / count for a, b in zip(after, before, strict=True))

    latencies: list[float] = []
    fanout: list[float] = []
    errors = {"stale": 0, "other": 0}
    end = time.monotonic() + seconds
    stop = threading.Event()

    def player(k: int) -> None:
        c = httpx.Client(timeout=60)
        rng = random.Random(k)
        i = 0
        while time.monotonic() < end:
            game = games[rng.randrange(len(games))]
            if not game.lock.acquire(blocking=False):
                continue
            try:
                base = bases[i % 2]
                i += 1
                move = next_move(c, base, game)
                if move is None:
                    continue
                n, action, token = move
                t0 = time.perf_counter()
                r = c.post(f"{base}/api/games/{game.id}/moves", json={"n": n, "action": action},
                           headers={"Authorization": f"Bearer {token}"})
                dt = (time.perf_counter() - t0) * 1000
                if r.status_code == 200:
                    latencies.append(dt)
                elif r.status_code == 409:
                    errors["stale"] += 1
                else:
                    errors["other"] += 1
            finally:
                game.lock.release()

    def watcher() -> None:
        from websockets.sync.client import connect

        c = httpx.Client(timeout=60)
        watched = Game(c.post(f"{bases[0]}/api/games", json={
            "game": "trambahn", "seats": ["human", "human"]}).json())
        url = bases[1].replace("http://", "ws://") + f"/api/games/{watched.id}/live"
        with connect(url, open_timeout=60) as ws:
            last = json.loads(ws.recv(timeout=60))["rev"]
            while time.monotonic() < end and not stop.is_set():
                move = next_move(c, bases[0], watched)
                if move is None:
                    return
                n, action, token = move
                t0 = time.perf_counter()
                c.post(f"{bases[0]}/api/games/{watched.id}/moves",
                       json={"n": n, "action": action},
                       headers={"Authorization": f"Bearer {token}"})
                try:
                    while True:
                        payload = json.loads(ws.recv(timeout=10))
                        if payload["rev"] > last:
                            last = payload["rev"]
                            break
                except TimeoutError:
                    continue
                fanout.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.2)

    threads = [threading.Thread(target=player, args=(k,)) for k in range(clients)]
    threads.append(threading.Thread(target=watcher))
    t_start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    stop.set()
    wall = time.monotonic() - t_start
    return {
        "games": count,
        "clients": clients,
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / wall, 1),
        "p50_ms": round(pct(latencies, 0.5), 1),
        "p99_ms": round(pct(latencies, 0.99), 1),
        "refused": errors,
        "fanout_samples": len(fanout),
        "fanout_p50_ms": round(pct(fanout, 0.5), 1),
        "fanout_p99_ms": round(pct(fanout, 0.99), 1),
        "kb_per_idle_game": round(kb_per_game, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--database", default=os.environ.get("TRAMWAYS_TEST_POSTGRES_URL"))
    ap.add_argument("--games", default="10,100,1000", help="sizes, comma-separated (max 1000)")
    ap.add_argument("--seconds", type=float, default=10.0, help="moves per size (max 60)")
    ap.add_argument("--clients", type=int, default=8, help="closed-loop clients (max 64)")
    args = ap.parse_args()
    if not args.database or not args.database.startswith("postgresql"):
        raise SystemExit("--database postgresql+psycopg://... (or TRAMWAYS_TEST_POSTGRES_URL)")
    sizes = [min(1000, int(s)) for s in args.games.split(",")]
    seconds = min(60.0, args.seconds)
    clients = max(1, min(64, args.clients))
    procs = []
    try:
        a, base_a = start(args.database)
        procs.append(a)
        b, base_b = start(args.database)
        procs.append(b)
        runs = []
        for size in sizes:
            runs.append(run([base_a, base_b], [a.pid, b.pid], size, seconds, clients))
        print(json.dumps({"load_avg": list(os.getloadavg()), "processes": 2,
                          "database": "postgresql", "runs": runs}, indent=1))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


if __name__ == "__main__":
    main()
