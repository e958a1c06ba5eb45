"""Load benchmark: two ``tramways serve`` processes on one PostgreSQL, many whole games at once,
each watched over a WebSocket.

    nice .venv/bin/python benchmarks/server_load.py --database postgresql+psycopg://postgres@127.0.0.1:PORT/postgres
    nice .venv/bin/python benchmarks/server_load.py --games 100 --think-ms 1000 --database ...

(``--database`` defaults to ``$TRAMWAYS_TEST_POSTGRES_URL``.)  Loopback only, bounded in count
and time (at most 1,000 games a size, ``--seconds`` a run, at most 1,200; 4 client and 4
watcher processes).  For each size G (default 1000) it creates G Trambahn games (two human
seats; the rate limits are off), reads each once through both processes (so both cache them),
and then plays all G games at once, each to its end (about 160 moves) unless the time is up:

- **paced** (the default, ``--think-ms 5000``): every game waits uniform 0-2x ``think-ms``
  before each move (a person thinks; 1,000 games offer about 200 moves a second, and a whole
  game lasts some 13 minutes: ``--seconds`` bounds the run).  Each move is a real ``POST``
  (committed before the reply; the client sends its ``cursor``, so the reply carries only the
  new log lines); the ``GET`` that reads the other seat's legal moves when the turn passes is
  not timed.  Moves go to process A and B alternately, as a balancer without sticky sessions
  would send them (so a process often finds a game moved by the other and catches up);
- **fan-out**: every game (``--watch``: the first N) is watched by a WebSocket of its second
  seat, opened by ``--watchers`` separate processes (from loopback addresses 127.0.0.20 on,
  90 sockets an address: the server caps 100 per address) on one of the two server processes
  (half the games on each: a move often arrives through ``NOTIFY`` from the other process).
  The delay of a move is from sending its ``POST`` until its watcher holds a frame of that
  revision or a later one (a frame carries all the moves before it); ``fanout_after_reply``
  counts from the reply;
- with ``--closed-loop N``, a second run per size on fresh games where N loops play moves
  back to back (the throughput, not a latency goal).

The players run in ``--clients`` separate client processes (aiohttp; default 2): one Python
client at these rates can saturate its own core and then measures itself (an httpx client with
~100 connections once added seconds of queueing inside the client).  ``client_cpu`` and
``watcher_cpu`` report each process's CPU share: near 1.0 means add processes.

Memory per idle game is the growth of the two processes' resident memory while G games are
created and read, divided by G (per process).  ``server_cpu_ms_per_move`` is the CPU of both
server processes during the load divided by the moves (the untimed GETs and the sockets'
frames included).  Prints one JSON object.  Figures only mean something next to the load
average of the machine (``load_avg``, at the start and the end of a run): the server,
PostgreSQL, the clients and the watchers share its cores.
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
MAX_SECONDS = 1200.0
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


# -- the watchers ------------------------------------------------------------------------------

WATCHERS_PER_ADDRESS = 90
"""Sockets a watcher opens from one loopback address (the server caps 100 per address)."""


async def _watch(session: aiohttp.ClientSession, url: str, key: str, end: float,
                 seen: dict[str, list[tuple[int, float]]]) -> None:
    frames = seen.setdefault(key, [])
    try:
        async with session.ws_connect(url, heartbeat=None, max_msg_size=0) as ws:
            while time.monotonic() < end:
                try:
                    payload = await ws.receive_json(timeout=max(0.1, end - time.monotonic()))
                except (TimeoutError, TypeError):
                    break
                frames.append((int(payload["rev"]), time.monotonic()))
                if payload.get("status") == "over":
                    break
    except aiohttp.ClientError:
        frames.append((-1, time.monotonic()))


async def _watcher(spec: dict[str, Any]) -> dict[str, Any]:
    """One watcher process: a socket per game (the other seat's, or a spectator's), each frame
    noted as ``(rev, when)``; back when every game is over or the run's end has passed."""
    seen: dict[str, list[tuple[int, float]]] = {}
    end = time.monotonic() + spec["until"]
    sessions = []
    tasks = []
    for i in range(0, len(spec["games"]), WATCHERS_PER_ADDRESS):
        address = f"127.0.0.{spec['address'] + i // WATCHERS_PER_ADDRESS}"
        session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0), limit=0),
            timeout=aiohttp.ClientTimeout(total=None))
        sessions.append(session)
        for g in spec["games"][i:i + WATCHERS_PER_ADDRESS]:
            url = g["base"].replace("http://", "ws://") + f"/api/games/{g['id']}/live"
            if g.get("token"):
                url += f"?token={g['token']}"
            # bounded: a handshake the server never answers is given up after the run
            tasks.append(asyncio.create_task(asyncio.wait_for(
                _watch(session, url, g["id"], end, seen),
                timeout=max(1.0, end - time.monotonic()) + 5)))
            await asyncio.sleep(0.002)  # not a thousand handshakes at once
    cpu0, wall0 = time.process_time(), time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=True)
    for session in sessions:
        await session.close()
    return {"seen": seen, "cpu": time.process_time() - cpu0, "wall": time.monotonic() - wall0}


def watcher_main(spec: dict[str, Any], results: Any) -> None:
    results.put(asyncio.run(_watcher(spec)))


# -- one client process ---------------------------------------------------------------------


class Table:
    """One game as a client plays it: both seats' tokens, where its moves go."""

    def __init__(self, spec: dict[str, Any], bases: list[str]) -> None:
        self.id = spec["id"]
        self.auth = [{"Authorization": f"Bearer {t}"} for t in spec["tokens"]]
        self.bases = bases[spec["first"]:] + bases[:spec["first"]]
        self.moves = 0
        self.state: dict[str, Any] = {}
        self.busy = False
        self.sent: dict[int, tuple[float, float]] = {}  # rev -> (sent, replied), monotonic

    def base(self) -> str:
        return self.bases[self.moves % len(self.bases)]

    @property
    def over(self) -> bool:
        return self.state.get("status") == "over"


async def _seat_state(client: aiohttp.ClientSession, table: Table) -> None:
    base = table.base()
    params = {"since": table.state["cursor"]} if table.state.get("cursor") else {}
    _, spectator = await send(client, "GET", f"{base}/api/games/{table.id}", params=params)
    if spectator["status"] != "active" or not spectator["to_act"]:
        table.state = spectator
        return
    seat = spectator["to_act"][0]
    _, table.state = await send(client, "GET", f"{base}/api/games/{table.id}", params=params,
                                headers=table.auth[seat - 1])


async def _one_move(client: aiohttp.ClientSession, table: Table, rng: random.Random,
                    out: dict[str, Any]) -> None:
    if not table.state:  # lost by a failed request: read it again (not timed)
        await _seat_state(client, table)
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
    t0 = time.monotonic()
    status, reply = await send(client, "POST", f"{base}/api/games/{table.id}/moves",
                               params={"since": state["cursor"]} if state.get("cursor") else {},
                               json={"n": state["n"], "action": rng.choice(state["legal"])},
                               headers=table.auth[seat - 1])
    t1 = time.monotonic()
    if status == 200:
        out["latencies"].append((t1 - t0) * 1000)
        table.moves += 1
        table.state = reply
        table.sent[reply["rev"]] = (t0, t1)
    elif status == 409:
        out["refused"]["stale"] += 1
        table.state = reply.get("state") or {}
    else:
        out["refused"][str(status)] = out["refused"].get(str(status), 0) + 1
        table.state = {}
        await _seat_state(client, table)


async def _guarded(client: aiohttp.ClientSession, table: Table, rng: random.Random,
                   out: dict[str, Any]) -> None:
    """One move; a request that failed (a connection reset, no answer within the client's
    time-out) is counted in ``refused["error"]`` and the game goes on from a fresh read."""
    try:
        await _one_move(client, table, rng, out)
    except (aiohttp.ClientError, TimeoutError):
        out["refused"]["error"] = out["refused"].get("error", 0) + 1
        table.state = {}
        try:
            await _seat_state(client, table)
        except (aiohttp.ClientError, TimeoutError):
            pass


async def _client(spec: dict[str, Any]) -> dict[str, Any]:
    bases: list[str] = spec["bases"]
    think = spec["think_ms"] / 1000.0
    rng = random.Random(spec["seed"])
    tables = [Table(g, bases) for g in spec["games"]]
    out: dict[str, Any] = {"latencies": [], "refused": {"stale": 0}}
    connector = aiohttp.TCPConnector(limit=spec["connections"])
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as client:
        for i in range(0, len(tables), 50):
            await asyncio.gather(*(_seat_state(client, t) for t in tables[i:i + 50]))
        # the clock of the run: the same start for every client process
        await asyncio.sleep(max(0.0, spec["start_at"] - time.time()))
        end = time.monotonic() + spec["seconds"]
        cpu0, wall0 = time.process_time(), time.monotonic()

        async def paced(table: Table) -> None:
            """A whole game: a pause uniform in 0-2x think before each move, to its end."""
            r = random.Random(rng.random())
            while time.monotonic() < end and not table.over:
                await asyncio.sleep(min(r.uniform(0, 2 * think),
                                        max(0.0, end - time.monotonic())))
                if time.monotonic() < end:
                    await _guarded(client, table, r, out)

        async def loop(k: int) -> None:
            r = random.Random(rng.random() + k)
            while time.monotonic() < end and not all(t.over for t in tables):
                table = tables[r.randrange(len(tables))]
                if table.busy or table.over:
                    await asyncio.sleep(0)
                    continue
                table.busy = True
                try:
                    await _guarded(client, table, r, out)
                finally:
                    table.busy = False

        if think > 0:
            players = [asyncio.create_task(paced(t)) for t in tables]
        else:
            players = [asyncio.create_task(loop(k)) for k in range(spec["loops"])]
        # bounded: a request still unanswered a minute after the end is given up
        _, late = await asyncio.wait(players, timeout=max(0.0, end - time.monotonic()) + 60)
        for task in late:
            task.cancel()
        out["unfinished"] = len(late)
        wall = time.monotonic() - wall0
        cpu = time.process_time() - cpu0
    out.update(sent={t.id: t.sent for t in tables}, wall=wall, cpu=cpu,
               finished=sum(t.over for t in tables),
               game_moves=[t.moves for t in tables if t.over])
    return out


def client_main(spec: dict[str, Any], results: Any) -> None:
    results.put(asyncio.run(_client(spec)))


def fanout(sent: dict[str, dict[int, tuple[float, float]]],
           seen: dict[str, list[tuple[int, float]]]) -> tuple[list[float], list[float], int]:
    """For each move, the delay until its game's watcher had a frame of that revision or a
    later one (a frame carries every move before it: moves in quick succession may share
    one), from the move's request and from its reply; and how many moves no frame showed."""
    from_send, from_reply, missed = [], [], 0
    for gid, moves in sent.items():
        frames = seen.get(gid, [])
        revs = [r for r, _ in frames]
        for rev, (t0, t1) in moves.items():
            i = next((k for k, r in enumerate(revs) if r >= rev), None)
            if i is None:
                missed += 1
                continue
            when = frames[i][1]
            from_send.append((when - t0) * 1000)
            from_reply.append(max(0.0, when - t1) * 1000)
    return from_send, from_reply, missed


# -- the parent -----------------------------------------------------------------------------


async def _create(bases: list[str], count: int) -> list[dict[str, Any]]:
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(timeout=timeout) as client:
        created: list[dict[str, Any]] = []
        for i in range(0, count, 50):
            batch = await asyncio.gather(*(
                send(client, "POST", f"{bases[(i + k) % len(bases)]}/api/games",
                     json={"game": "trambahn", "seats": ["human", "human"]})
                for k in range(min(50, count - i))
            ))
            created.extend(c for _, c in batch)
        for i in range(0, count, 50):  # every process holds every game in its cache
            await asyncio.gather(*(send(client, "GET", f"{base}/api/games/{g['id']}")
                                   for g in created[i:i + 50] for base in bases))
    return created


def run(bases: list[str], pids: list[int], count: int, seconds: float, think_ms: float,
        clients: int, watch: int, loops: int, created: list[dict[str, Any]],
        watchers: int = 1) -> dict[str, Any]:
    """Play the ``created`` games to their end (at most ``seconds``), the first ``watch`` of
    them each watched by a socket of its second seat in ``watchers`` other processes."""
    games = [{"id": c["id"], "tokens": [s["token"] for s in c["seats"]], "first": i % len(bases)}
             for i, c in enumerate(created)]
    ctx = multiprocessing.get_context("spawn")
    results, seen_q = ctx.Queue(), ctx.Queue()
    watched = [{"id": g["id"], "token": g["tokens"][1], "base": bases[-1 - i % len(bases)]}
               for i, g in enumerate(games[:watch])]
    watchers = max(1, min(watchers, len(watched))) if watched else 0
    start_at = time.time() + 3.0 + len(games) / 200
    watcher_procs = [
        ctx.Process(target=watcher_main, args=({
            "games": watched[k::watchers], "address": 20 + k * 20,
            "until": start_at - time.time() + seconds + 10}, seen_q))
        for k in range(watchers)]
    for p in watcher_procs:
        p.start()
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
    load1 = os.getloadavg()[0]
    seen: dict[str, list[tuple[int, float]]] = {}
    watcher_cpu = []
    for _ in watcher_procs:
        w = seen_q.get(timeout=seconds + 240)
        seen.update(w["seen"])
        watcher_cpu.append(round(w["cpu"] / max(w["wall"], 1e-9), 2))
    for p in [*procs, *watcher_procs]:
        p.join(timeout=30)
        if p.is_alive():
            p.kill()
    latencies = [x for g in got for x in g["latencies"]]
    sent = {gid: moves for g in got for gid, moves in g["sent"].items()
            if gid in {w["id"] for w in watched}}
    fan, after, missed = fanout(sent, seen)
    refused: dict[str, int] = {}
    for g in got:
        for k, v in g["refused"].items():
            refused[k] = refused.get(k, 0) + v
    wall = max(g["wall"] for g in got)
    game_moves = sorted(m for g in got for m in g["game_moves"])
    return {
        "games": count,
        "mode": f"paced {think_ms:g} ms" if think_ms > 0 else f"closed loop x{loops}",
        "offered_moves_per_s": round(count / (think_ms / 1000), 1) if think_ms > 0 else None,
        "games_finished": sum(g["finished"] for g in got),
        "moves_per_game_median": game_moves[len(game_moves) // 2] if game_moves else None,
        "seconds": round(wall, 1),
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / wall, 1),
        "p50_ms": pct(latencies, 0.5),
        "p99_ms": pct(latencies, 0.99),
        "max_ms": pct(latencies, 1.0),
        "refused": refused,
        "unfinished": sum(g["unfinished"] for g in got),
        "watched_games": len(watched),
        "fanout_samples": len(fan),
        "fanout_missed": missed,
        "fanout_p50_ms": pct(fan, 0.5),
        "fanout_p99_ms": pct(fan, 0.99),
        "fanout_after_reply_p99_ms": pct(after, 0.99),
        "server_cpu_ms_per_move": round(cpu * 1000 / max(1, len(latencies)), 2),
        "client_cpu": [round(g["cpu"] / g["wall"], 2) for g in got],
        "watcher_cpu": watcher_cpu,
        "load_avg": [round(load0, 1), round(load1, 1)],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--database", default=os.environ.get("TRAMWAYS_TEST_POSTGRES_URL"))
    ap.add_argument("--games", default="1000", help="sizes, comma-separated (max 1000)")
    ap.add_argument("--seconds", type=float, default=MAX_SECONDS,
                    help=f"at most this long per run (max {MAX_SECONDS:g}; the games are "
                    "played to their end unless the time is up first)")
    ap.add_argument("--think-ms", type=float, default=5000.0,
                    help="mean pause of a game between its moves (uniform 0-2x; default 5000)")
    ap.add_argument("--watch", type=int, default=MAX_GAMES,
                    help="games watched by a socket of their second seat (default: all)")
    ap.add_argument("--watchers", type=int, default=2, help="watcher processes (max 4)")
    ap.add_argument("--closed-loop", type=int, default=0, metavar="N",
                    help="also a run per size with N loops playing back to back (max 64)")
    ap.add_argument("--clients", type=int, default=2, help="client processes (max 4)")
    args = ap.parse_args()
    if not args.database or not args.database.startswith("postgresql"):
        raise SystemExit("--database postgresql+psycopg://... (or TRAMWAYS_TEST_POSTGRES_URL)")
    sizes = [max(1, min(MAX_GAMES, int(s))) for s in args.games.split(",")]
    seconds = max(1.0, min(MAX_SECONDS, args.seconds))
    clients = max(1, min(MAX_CLIENTS, args.clients))
    watchers = max(1, min(MAX_CLIENTS, args.watchers))
    loops = max(0, min(64, args.closed_loop))
    watch = max(0, min(MAX_GAMES, args.watch))
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
                        min(watch, size), 0, created, watchers)
            paced["kb_per_idle_game"] = kb
            runs.append(paced)
            print(json.dumps(paced), file=sys.stderr)
            if loops:
                fresh = asyncio.run(_create(bases, size))
                closed = run(bases, pids, size, seconds, 0.0, min(clients, size),
                             min(watch, size), loops, fresh, watchers)
                runs.append(closed)
                print(json.dumps(closed), file=sys.stderr)
        print(json.dumps({"processes": 2, "database": "postgresql", "client_processes": clients,
                          "watcher_processes": watchers, "cores": os.cpu_count(),
                          "runs": runs}, indent=1))
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
