"""Server benchmark: N whole Trambahn games at once against one ``tramways serve`` on loopback,
each watched over a WebSocket by its other seat.

    nice .venv/bin/python benchmarks/server.py                     # 100 games, paced, SQLite
    nice .venv/bin/python benchmarks/server.py --games 10 --think-ms 0
    nice .venv/bin/python benchmarks/server.py --database postgresql+psycopg://...

Starts ``tramways serve`` (uvicorn, one process) on a free loopback port with a fresh SQLite
database (or ``--database``), creates N games (two human seats each; the rate limits off) and
plays every one of them to its end (at most ``--seconds``; about 160 moves a game), with the
client machinery of ``server_load.py``:

- the players are ``--clients`` client processes (aiohttp); each move is a real
  ``POST /api/games/{id}/moves`` (committed before the reply; the client sends the ``cursor``
  it holds, so the reply carries only the new lines), a random legal move after a pause
  uniform in 0-2x ``--think-ms`` (default 500: 0-1 s, faster than any person; 0: a closed
  loop of ``--loops`` players measuring throughput).  When the turn passes the client reads
  the other seat's moves with a ``GET`` (not timed);
- every game is watched by a WebSocket of its second seat, opened by a separate watcher
  process: **fan-out** is the time from a move's ``POST`` until its watcher holds a frame of
  that revision or a later one (``fanout_after_reply``: from the reply).

Prints one JSON object: per run ``games_finished``, ``moves``, ``moves_per_s``, ``p50_ms``,
``p99_ms``, ``max_ms`` of the moves, ``fanout_p50_ms``/``fanout_p99_ms``, the server process's
CPU per move (sockets' frames and untimed ``GET``s included: it stays meaningful when other
work loads the machine) and the machine's load average at the start and the end of the run
(``load_avg``): the clients, the watchers and whatever else runs share its cores.

Goal on the 2-core reference machine: 100 paced games on SQLite, p99 of the moves <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
from pathlib import Path

from server_load import _create, run, start  # the same server start-up, clients and watchers

MAX_GAMES = 500


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, action="append", help="concurrent games (repeatable; "
                    "default 100, at most 500)")
    ap.add_argument("--think-ms", type=float, action="append",
                    help="mean pause before each move, uniform in [0, 2x] (repeatable; default "
                    "500; 0: a closed loop measuring throughput)")
    ap.add_argument("--seconds", type=float, default=600.0,
                    help="at most this long per run (default and max 600)")
    ap.add_argument("--loops", type=int, default=16, help="players of a closed loop (max 64)")
    ap.add_argument("--clients", type=int, default=1, help="client processes (max 4)")
    ap.add_argument("--watch", type=int, default=MAX_GAMES,
                    help="games watched by a socket (default: all)")
    ap.add_argument("--database", help="SQLAlchemy URL (default: a fresh SQLite file)")
    args = ap.parse_args()
    counts = [max(1, min(MAX_GAMES, n)) for n in (args.games or [100])]
    seconds = max(1.0, min(600.0, args.seconds))
    clients = max(1, min(4, args.clients))
    loops = max(1, min(64, args.loops))
    with tempfile.TemporaryDirectory() as tmp:
        database = args.database or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        proc, base = start(database)
        try:
            runs = []
            for think in args.think_ms or [500.0]:
                for n in counts:
                    created = asyncio.run(_create([base], n))
                    runs.append(run([base], [proc.pid], n, seconds, think, min(clients, n),
                                    max(0, min(args.watch, n)), loops, created))
        finally:
            proc.terminate()
            proc.wait()
    print(json.dumps({"processes": 1, "database": database.split(":")[0],
                      "cores": os.cpu_count(), "runs": runs}))


if __name__ == "__main__":
    main()
