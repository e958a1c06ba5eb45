"""``tramways serve --workers N``: real processes on one loopback port.  On PostgreSQL (skipped
without ``TRAMWAYS_TEST_POSTGRES_URL``), the migrations run once in the parent, N worker
processes serve the port; a move made through any of them reaches a WebSocket held by any
other (``NOTIFY``), a worker killed with ``kill -9`` loses no acknowledged move and is replaced
while the others go on answering, and stopping the parent stops every worker.  On SQLite, the
workers share one set of rate-limit buckets (the database's)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.server.conftest import POSTGRES_ENV, start_server, stop_server
from tests.server.test_processes import _call


def _workers(pid: int) -> set[int]:
    """The worker processes of a ``--workers`` parent (uvicorn spawns them with
    multiprocessing: its other helper children are left out)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and "spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


def _two_workers(pid: int) -> set[int]:
    found = _workers(pid)
    return found if len(found) == 2 else set()


def _wait_for(predicate, timeout: float = 60.0):  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_serve_workers_share_one_port_live_updates_and_survive_a_killed_worker():
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    from websockets.sync.client import connect

    proc, base = start_server(url, None, "--workers", "2", "--moves-per-second", "0",
                              env={"TRAMWAYS_LIVE_POLL_SECONDS": "600"})
    workers: set[int] = set()
    try:
        workers = _wait_for(lambda: _two_workers(proc.pid))
        assert len(workers) == 2
        code, created = _call(base, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "human"]})
        assert code == 201
        gid = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        ws_url = base.replace("http://", "ws://") + f"/api/games/{gid}/live"
        acknowledged: list[tuple[int, str]] = []

        def play(count: int) -> None:
            for _ in range(count):  # each request on a new connection: either worker takes it
                state = _call(base, "GET", f"/api/games/{gid}")[1]
                token = tokens[state["to_act"][0] - 1]
                state = _call(base, "GET", f"/api/games/{gid}", token=token)[1]
                action = state["legal"][0]
                code, after = _call(base, "POST", f"/api/games/{gid}/moves",
                                    {"n": state["n"], "action": action}, token=token)
                assert code == 200, after
                acknowledged.append((state["n"], action))

        with connect(ws_url, open_timeout=30) as ws:
            assert json.loads(ws.recv(timeout=30))["n"] == 0
            play(12)
            seen = 0
            while seen < 12:  # the socket's worker learns of every move, whoever made it
                seen = json.loads(ws.recv(timeout=30))["n"]
            assert seen == 12
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        _wait_for(lambda: not _alive(victim))
        play(6)  # the other worker answers meanwhile
        replaced = _wait_for(lambda: _two_workers(proc.pid))
        assert len(replaced) == 2 and victim not in replaced
        workers |= replaced
        moves = _call(base, "GET", f"/api/games/{gid}")[1]["moves"]
        assert len(moves) == len(acknowledged) == 18  # no acknowledged move lost
        assert _call(base, "GET", "/healthz")[0] == 200
    finally:
        stop_server(proc)  # SIGTERM to the parent: it stops its workers
    assert _wait_for(lambda: not any(_alive(w) for w in workers), timeout=30)


def test_serve_workers_on_sqlite_share_the_rate_limit_buckets(tmp_path):
    """With ``--workers N`` the buckets are rows of the database even on SQLite: a seat gets
    its burst once, whichever worker its requests reach (each on a new connection)."""
    proc, base = start_server(f"sqlite:///{tmp_path / 'workers.sqlite3'}", None,
                              "--workers", "2", "--moves-per-second", "0.01",
                              "--games-per-minute", "0")
    try:
        assert len(_wait_for(lambda: _two_workers(proc.pid))) == 2
        code, created = _call(base, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "human"]})
        assert code == 201
        gid, t1 = created["id"], created["seats"][0]["token"]
        codes = [_call(base, "POST", f"/api/games/{gid}/moves", {"n": 7, "action": "P1 end"},
                       token=t1)[0] for _ in range(24)]
        assert codes == [409] * 20 + [429] * 4
    finally:
        stop_server(proc)


def test_workers_end_when_their_parent_is_killed_with_sigkill(tmp_path):
    """Issue 29: after ``kill -9`` of the ``--workers`` parent its workers went on serving
    the port; now each gets SIGTERM from the kernel (``PR_SET_PDEATHSIG``) and stops, and
    the port is free again."""
    import socket

    proc, base = start_server(f"sqlite:///{tmp_path / 'orphans.sqlite3'}", None,
                              "--workers", "2")
    workers: set[int] = set()
    try:
        workers = _wait_for(lambda: _two_workers(proc.pid))
        assert len(workers) == 2
        assert _call(base, "GET", "/healthz")[0] == 200
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _wait_for(lambda: not any(_alive(w) for w in workers), timeout=60)
        port = int(base.rsplit(":", 1)[1])
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0  # nobody serves the port
    finally:
        for w in workers:  # a failed test leaves no orphan behind
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            stop_server(proc)


def test_a_worker_whose_parent_is_already_gone_exits_at_once():
    """The race before the kernel was asked: a worker whose parent is not the one named
    (it died meanwhile) ends at once instead of serving."""
    import subprocess
    import sys

    code = ("from tramways.server.workers import die_with_parent\n"
            "die_with_parent(1)\n"  # not our parent
            "print('still serving')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "still serving" not in done.stdout
