"""Load benchmark: two ``tramways serve`` processes on one PostgreSQL, many games at once.

    .venv/bin/python benchmarks/server_load.py --database postgresql+psycopg://postgres@127.0.0.1:PORT/postgres
    .venv/bin/python benchmarks/server_load.py --games 10,100 --seconds 10 --database ...

(``--database`` defaults to ``$TRAMWAYS_TEST_POSTGRES_URL``.)  Loopback only, bounded in count
and time (at most 1,000 games a size, 60 s of load a size, 4 client processes).  For each size
G (default 10, 100, 1000) it creates G Trambahn games (two human seats; the rate limits are
off), reads each once through both processes (so both cache them), and then plays all G games
at once for ``--seconds``:

- **paced** (the default, ``--think-ms 5000``): every game waits uniform 0-2x ``think-ms``
  before each move (a person thinks; 1,000 games offer about 200 moves a second).  Each move
  is a real ``POST`` (committed before the reply); the ``GET`` that reads the other seat's
  legal moves when the turn passes is not timed.  Moves go to process A and B alternately,
  as a balancer without sticky sessions would send them (so a process often finds a game
  moved by the other and rebuilds it from the database);
- **fan-out**: up to ``--watch`` (default 100) of the games are watched by a spectator
  WebSocket on process B while their moves all go to A: the delay of each move is from
  sending the ``POST`` to A until B's socket delivers the new position (``NOTIFY``, B's read
  of the game and the payload included); ``fanout_after_reply`` counts from A's reply;
- with ``--closed-loop N``, a second run per size where N loops play moves back to back (the
  throughput, not a latency goal).

The load runs in ``--clients`` separate client processes (aiohttp; default 2): one Python
client at these rates can saturate its own core and then measures itself (an httpx client
with ~100 connections once added seconds of queueing inside the client).  ``client_cpu``
reports each client process's CPU share: near 1.0 means add client processes.

Memory per idle game is the growth of the two processes' resident memory while G games are
created and read, divided by G (per process).  ``server_cpu_ms_per_move`` is the CPU of both
server processes during the load divided by the moves (the untimed GETs and the sockets'
payloads included).  Prints one JSON object.  Figures only mean something next to the load
average of the machine (``load_avg``): the server, PostgreSQL and the clients share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

MAX_GAMES = 1000
MAX_SECONDS = 60.0
MAX_CLIENTS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(database: str, extra: list[str] | None = None) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tramways", "serve", "--port", str(port), "--database", database,
         "--moves-per-second", "0", "--games-per-minute", "0", *(extra or [])],
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return proc, base
        except OSError:
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


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def send(client: aiohttp.ClientSession, method: str, url: str, **kw: Any) -> tuple[int, Any]:
    """One request: its status and JSON body; retried when a kept-alive connection was closed
    under it (a move sent twice counts once, so retrying a move is safe)."""
    for attempt in range(3):
        try:
            async with client.request(method, url, **kw) as r:
                return r.status, await r.json()
        except aiohttp.ClientConnectionError:
            if attempt == 2:
                raise
    raise AssertionError


# -- one client process ---------------------------------------------------------------------


class Table:
    """One game as a client plays it: both seats' tokens, where its moves go."""

    def __init__(self, spec: dict[str, Any], bases: list[str]) -> None:
        self.id = spec["id"]
        self.auth = [{"Authorization": f"Bearer {t}"} for t in spec["tokens"]]
        self.watched = spec["watched"]
        self.bases = [bases[0]] if self.watched else bases[spec["first"]:] + bases[:spec["first"]]
        self.moves = 0
        self.state: dict[str, Any] = {}
        self.busy = False
        self.sent: dict[int, tuple[float, float]] = {}  # rev -> (sent, replied)
        self.seen: dict[int, float] = {}  # rev -> when the watcher's socket delivered it

    def base(self) -> str:
        return self.bases[self.moves % len(self.bases)]


async def _seat_state(client: aiohttp.ClientSession, table: Table) -> None:
    base = table.base()
    _, spectator = await send(client, "GET", f"{base}/api/games/{table.id}")
    if spectator["status"] != "active" or not spectator["to_act"]:
        table.state = spectator
        return
    seat = spectator["to_act"][0]
    _, table.state = await send(client, "GET", f"{base}/api/games/{table.id}",
                                headers=table.auth[seat - 1])


async def _one_move(client: aiohttp.ClientSession, table: Table, rng: random.Random,
                    out: dict[str, Any]) -> None:
    state = table.state
    if state.get("status") != "active":
        return
    if not state.get("legal"):
        await _seat_state(client, table)  # the turn passed (not timed)
        state = table.state
        if not state.get("legal"):
            return
    seat = state["seat"]
    base = table.base()
    t0 = time.perf_counter()
    status, reply = await send(client, "POST", f"{base}/api/games/{table.id}/moves",
                               json={"n": state["n"], "action": rng.choice(state["legal"])},
                               headers=table.auth[seat - 1])
    t1 = time.perf_counter()
    if status == 200:
        out["latencies"].append((t1 - t0) * 1000)
        table.moves += 1
        table.state = reply
        if table.watched:
            table.sent[reply["rev"]] = (t0, t1)
    elif status == 409:
        out["refused"]["stale"] += 1
        table.state = reply.get("state") or {}
    else:
        out["refused"][str(status)] = out["refused"].get(str(status), 0) + 1
        table.state = {}
        await _seat_state(client, table)


async def _watch(session: aiohttp.ClientSession, base: str, table: Table, end: float) -> None:
    url = base.replace("http://", "ws://") + f"/api/games/{table.id}/live"
    async with session.ws_connect(url, heartbeat=None) as ws:
        await ws.receive_json(timeout=60)  # the position at connection
        while time.perf_counter() < end + 2:
            try:
                payload = await ws.receive_json(timeout=max(0.1, end + 2 - time.perf_counter()))
            except (TimeoutError, TypeError):
                break
            table.seen.setdefault(payload["rev"], time.perf_counter())


async def _client(spec: dict[str, Any]) -> dict[str, Any]:
    bases: list[str] = spec["bases"]
    think = spec["think_ms"] / 1000.0
    rng = random.Random(spec["seed"])
    tables = [Table(g, bases) for g in spec["games"]]
    out: dict[str, Any] = {"latencies": [], "refused": {"stale": 0}}
    connector = aiohttp.TCPConnector(limit=spec["connections"])
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client, \
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as sockets:
        for i in range(0, len(tables), 50):
            await asyncio.gather(*(_seat_state(client, t) for t in tables[i:i + 50]))
        # the clock of the run: the same start for every client process
        delay = spec["start_at"] - time.time()
        end = time.perf_counter() + max(0.0, delay) + spec["seconds"]
        watchers = [asyncio.create_task(_watch(sockets, bases[1], t, end))
                    for t in tables if t.watched]
        await asyncio.sleep(max(0.0, spec["start_at"] - time.time()))
        cpu0, wall0 = time.process_time(), time.perf_counter()

        async def paced(table: Table) -> None:
            r = random.Random(rng.random())
            await asyncio.sleep(min(r.uniform(0, 2 * think), max(0.0, end - time.perf_counter())))
            while time.perf_counter() < end:
                await _one_move(client, table, r, out)
                await asyncio.sleep(min(r.uniform(0, 2 * think),
                                        max(0.0, end - time.perf_counter())))

        async def loop(k: int) -> None:
            r = random.Random(rng.random() + k)
            while time.perf_counter() < end:
                table = tables[r.randrange(len(tables))]
                if table.busy or table.watched:
                    await asyncio.sleep(0)
                    continue
                table.busy = True
                try:
                    await _one_move(client, table, r, out)
                finally:
                    table.busy = False

        if think > 0:
            players = [asyncio.create_task(paced(t)) for t in tables]
        else:
            players = [asyncio.create_task(loop(k)) for k in range(spec["loops"])]
        # bounded: a request still unanswered a minute after the end is given up
        _, late = await asyncio.wait(players, timeout=max(0.0, end - time.perf_counter()) + 60)
        for task in late:
            task.cancel()
        out["unfinished"] = len(late)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0
        _, stuck = await asyncio.wait(watchers, timeout=10) if watchers else (set(), set())
        for task in stuck:
            task.cancel()
    fan_send, fan_reply = [], []
    for t in tables:
        for rev, (sent, replied) in t.sent.items():
            if rev in t.seen:
                fan_send.append((t.seen[rev] - sent) * 1000)
                fan_reply.append(max(0.0, t.seen[rev] - replied) * 1000)
    out.update(fanout=fan_send, fanout_after_reply=fan_reply, wall=wall, cpu=cpu,
               watched_moves=sum(len(t.sent) for t in tables))
    return out


def client_main(spec: dict[str, Any], results: Any) -> None:
    results.put(asyncio.run(_client(spec)))


# -- the parent -----------------------------------------------------------------------------


async def _create(bases: list[str], count: int) -> list[dict[str, Any]]:
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as client:
        created: list[dict[str, Any]] = []
        for i in range(0, count, 50):
            batch = await asyncio.gather(*(
                send(client, "POST", f"{bases[(i + k) % 2]}/api/games",
                     json={"game": "trambahn", "seats": ["human", "human"]})
                for k in range(min(50, count - i))
            ))
            created.extend(c for _, c in batch)
        for i in range(0, count, 50):  # both processes hold every game in their cache
            await asyncio.gather(*(send(client, "GET", f"{base}/api/games/{g['id']}")
                                   for g in created[i:i + 50] for base in bases))
    return created


def run(bases: list[str], pids: list[int], count: int, seconds: float, think_ms: float,
        clients: int, watch: int, loops: int, created: list[dict[str, Any]]) -> dict[str, Any]:
    games = [{"id": c["id"], "tokens": [s["token"] for s in c["seats"]], "first": i % 2,
              "watched": i < watch} for i, c in enumerate(created)]
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    start_at = time.time() + 3.0 + len(games) / 400
    specs = [{"bases": bases, "games": games[k::clients], "think_ms": think_ms,
              "seconds": seconds, "start_at": start_at, "seed": k, "loops": max(1, loops // clients),
              "connections": 100} for k in range(clients)]
    procs = [ctx.Process(target=client_main, args=(spec, results)) for spec in specs]
    for p in procs:
        p.start()
    time.sleep(max(0.0, start_at - time.time()))
    cpu0 = sum(cpu_seconds(p) for p in pids)
    load0 = os.getloadavg()[0]
    got = [results.get(timeout=seconds + 240) for _ in procs]
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    for p in procs:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    latencies = [x for g in got for x in g["latencies"]]
    fanout = [x for g in got for x in g["fanout"]]
    after = [x for g in got for x in g["fanout_after_reply"]]
    refused: dict[str, int] = {}
    for g in got:
        for k, v in g["refused"].items():
            refused[k] = refused.get(k, 0) + v
    wall = max(g["wall"] for g in got)
    return {
        "games": count,
        "mode": f"paced {think_ms:g} ms" if think_ms > 0 else f"closed loop x{loops}",
        "offered_moves_per_s": round(count / (think_ms / 1000), 1) if think_ms > 0 else None,
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / wall, 1),
        "p50_ms": pct(latencies, 0.5),
        "p99_ms": pct(latencies, 0.99),
        "max_ms": pct(latencies, 1.0),
        "refused": refused,
        "unfinished": sum(g["unfinished"] for g in got),
        "fanout_samples": len(fanout),
        "fanout_missed": sum(g["watched_moves"] for g in got) - len(fanout),
        "fanout_p50_ms": pct(fanout, 0.5),
        "fanout_p99_ms": pct(fanout, 0.99),
        "fanout_after_reply_p99_ms": pct(after, 0.99),
        "server_cpu_ms_per_move": round(cpu * 1000 / max(1, len(latencies)), 2),
        "client_cpu": [round(g["cpu"] / g["wall"], 2) for g in got],
        "load_avg": [round(load0, 1), round(os.getloadavg()[0], 1)],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--database", default=os.environ.get("TRAMWAYS_TEST_POSTGRES_URL"))
    ap.add_argument("--games", default="10,100,1000", help="sizes, comma-separated (max 1000)")
    ap.add_argument("--seconds", type=float, default=20.0, help="load per run (max 60)")
    ap.add_argument("--think-ms", type=float, default=5000.0,
                    help="mean pause of a game between its moves (uniform 0-2x; default 5000)")
    ap.add_argument("--watch", type=int, default=100,
                    help="games watched from process B (max 100: the server's cap of sockets "
                    "from one address)")
    ap.add_argument("--closed-loop", type=int, default=0, metavar="N",
                    help="also a run per size with N loops playing back to back (max 64)")
    ap.add_argument("--clients", type=int, default=2, help="client processes (max 4)")
    args = ap.parse_args()
    if not args.database or not args.database.startswith("postgresql"):
        raise SystemExit("--database postgresql+psycopg://... (or TRAMWAYS_TEST_POSTGRES_URL)")
    sizes = [max(1, min(MAX_GAMES, int(s))) for s in args.games.split(",")]
    seconds = max(1.0, min(MAX_SECONDS, args.seconds))
    clients = max(1, min(MAX_CLIENTS, args.clients))
    loops = max(0, min(64, args.closed_loop))
    watch = max(0, min(100, args.watch))
    procs = []
    try:
        a, base_a = start(args.database)
        procs.append(a)
        b, base_b = start(args.database)
        procs.append(b)
        bases, pids = [base_a, base_b], [a.pid, b.pid]
        runs = []
        for size in sizes:
            before = [rss_kb(p) for p in pids]
            created = asyncio.run(_create(bases, size))
            grown = [rss_kb(p) - k for p, k in zip(pids, before, strict=True)]
            kb = round(statistics.mean(grown) / size, 1)
            paced = run(bases, pids, size, seconds, args.think_ms, min(clients, size),
                        min(watch, size), 0, created)
            paced["kb_per_idle_game"] = kb
            runs.append(paced)
            print(json.dumps(paced), file=sys.stderr)
            if loops:
                closed = run(bases, pids, size, seconds, 0.0, min(clients, size), 0, loops,
                             created)
                runs.append(closed)
                print(json.dumps(closed), file=sys.stderr)
        print(json.dumps({"processes": 2, "database": "postgresql", "client_processes": clients,
                          "cores": os.cpu_count(), "runs": runs}, indent=1))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


if __name__ == "__main__":
    main()
