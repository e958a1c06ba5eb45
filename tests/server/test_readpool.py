"""The costly reads' worker processes (issue 29 item 2: reads hammered must not slow the
others): the 1840 previews and past tables computed in another process give the same answers
as in the server's threads; results are kept by (game, revision, what); a full queue is 503
``busy``; a worker killed mid-read is a clean 503 ``read_failed`` and the server goes on."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import start_server, stop_server
from tests.server.helpers import new_game
from tramways.server import ServerSettings, create_app
from tramways.server.errors import ApiError
from tramways.server.readpool import ReadPool

LAY = "L1 lay D18 235 r0"


def _client(url: str, processes: int) -> TestClient:
    return TestClient(create_app(ServerSettings(
        database_url=url, moves_per_second=0, games_per_minute=0, reads_per_second=0,
        read_processes=processes)))


def _played(c: TestClient, created: dict, moves: int = 4) -> str:
    """A 4-player 1840 game with its first ``moves`` moves played (each the first legal
    move of the seat to act), so that ``at=1`` is a past position."""
    gid = created["id"]
    for _ in range(moves):
        state = c.get(f"/api/games/{gid}").json()
        seat = state["to_act"][0]
        token = created["seats"][seat - 1]["token"]
        mine = c.get(f"/api/games/{gid}", params={"token": token}).json()
        r = c.post(f"/api/games/{gid}/moves", params={"token": token},
                   json={"n": mine["n"], "action": mine["legal"][0]})
        assert r.status_code == 200, r.text
    return gid


def _answers(c: TestClient, gid: str) -> dict[str, object]:
    board = c.get(f"/g/{gid}/board?lay={LAY}")
    route = c.get(f"/g/{gid}/route?line=1&route=D18")
    past = c.get(f"/g/{gid}/table?at=1")
    page = c.get(f"/g/{gid}?at=2")
    assert board.status_code == 200 and past.status_code == 200 and page.status_code == 200
    return {"board": board.text, "run": board.headers["X-Run-Total"],
            "route": (route.status_code, route.json()), "past": past.text,
            "page": page.text.replace(gid, "ID")}


def test_the_read_workers_answer_as_the_server_threads_do(sqlite_url):
    """Previews, a claimed route (refused: IX.7, the rule named as in-process) and the table
    of a past position: the same bytes from a worker process as from a thread."""
    with _client(sqlite_url, 1) as c:
        gid = _played(c, new_game(c, ["human"] * 4, game="1840", settings={"players": 4}))
        pooled = _answers(c, gid)
        assert c.app.state.reads.computed == 3  # the board, the past table and page
        in_threads = ReadPool(0, lane=c.app.state.heavy)
        c.app.state.reads = in_threads
        threaded = _answers(c, gid)
        assert in_threads.computed == 3
    assert pooled == threaded
    assert pooled["route"][0] == 422 and pooled["route"][1]["rule"]


def test_a_read_asked_again_is_kept_by_game_revision_and_what(sqlite_url):
    with _client(sqlite_url, 1) as c:
        gid = _played(c, new_game(c, ["human"] * 4, game="1840", settings={"players": 4}))
        reads = c.app.state.reads
        first = c.get(f"/g/{gid}/board?lay={LAY}").text
        computed = reads.computed
        assert c.get(f"/g/{gid}/board?lay={LAY}").text == first
        assert c.get(f"/g/{gid}/table?at=1").status_code == 200
        assert c.get(f"/g/{gid}/table?at=1").status_code == 200
        assert reads.computed == computed + 1  # the board once, the past table once


def test_the_same_read_asked_while_computed_waits_for_that_one():
    async def both() -> list[object]:
        pool = ReadPool(processes=1)
        try:
            return await asyncio.gather(pool.run("k", time.sleep, 0.3),
                                        pool.run("k", time.sleep, 0.3))
        finally:
            pool.close()

    assert asyncio.run(both()) == [None, None]


def test_a_full_queue_of_costly_reads_is_503_busy_with_retry_after():
    async def three() -> list[object]:
        pool = ReadPool(processes=1, queue=2)
        try:
            return await asyncio.gather(*(pool.run(None, time.sleep, 0.5) for _ in range(3)),
                                        return_exceptions=True)
        finally:
            pool.close()

    results = asyncio.run(three())
    refused = [r for r in results if isinstance(r, ApiError)]
    assert len(refused) == 1 and results.count(None) == 2
    assert refused[0].status == 503 and refused[0].body["error"] == "busy"
    assert refused[0].body["retry_after"] == 1


def test_a_worker_killed_mid_read_is_503_read_failed_and_the_next_read_works():
    async def killed() -> tuple[object, int, int]:
        pool = ReadPool(processes=1)
        try:
            pool.start(wait=30.0)
            [pid] = pool.worker_pids()
            reading = asyncio.ensure_future(pool.run(None, time.sleep, 30))
            await asyncio.sleep(0.5)
            os.kill(pid, signal.SIGKILL)
            failed = await asyncio.gather(reading, return_exceptions=True)
            again = await pool.run(None, os.getpid)
            return failed[0], again, pool.restarts
        finally:
            pool.close()

    failed, again, restarts = asyncio.run(killed())
    assert isinstance(failed, ApiError)
    assert failed.status == 503 and failed.body["error"] == "read_failed"
    assert failed.body["retry_after"] == 1
    assert again != os.getpid() and restarts == 1


@pytest.mark.parametrize("idle", [True, False])
def test_the_server_goes_on_after_its_read_worker_is_killed(sqlite_url, idle):
    """Killed between reads (the next read starts a fresh worker) or during one (that read
    is a 503 with ``Retry-After``, the next one is served)."""
    with _client(sqlite_url, 1) as c:
        gid = _played(c, new_game(c, ["human"] * 4, game="1840", settings={"players": 4}))
        reads = c.app.state.reads
        assert c.get(f"/g/{gid}/table?at=1").status_code == 200
        [pid] = reads.worker_pids()
        if idle:
            os.kill(pid, signal.SIGKILL)
            end = time.monotonic() + 30  # until the pool has noticed (its manager thread)
            while not getattr(reads._executor, "_broken", True) and time.monotonic() < end:
                time.sleep(0.05)
        else:
            reads.queue = 2

            async def slow_then_kill() -> None:
                asyncio.get_running_loop().call_later(0.5, os.kill, pid, signal.SIGKILL)
                with pytest.raises(ApiError) as refused:
                    await reads.run(None, time.sleep, 30)
                assert refused.value.body["error"] == "read_failed"

            c.portal.call(slow_then_kill)
        assert c.get(f"/g/{gid}/board?lay={LAY}").status_code == 200
        assert c.get("/healthz").status_code == 200
        assert reads.worker_pids() and reads.worker_pids() != [pid]


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (the fork server, the read workers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[0] != "Z":
                parents[int(entry.name)] = int(stat[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _gone(pids: set[int], timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not any(Path(f"/proc/{p}").exists() and "Z" != (Path(f"/proc/{p}/stat").read_text()
                   .rsplit(")", 1)[1].split()[0]) for p in pids):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_read_workers_end_when_the_server_is_killed_with_sigkill(tmp_path):
    """The read workers' parent is the fork server, which lives while they do: each watches
    the server's process itself and ends with it (no orphan keeps computing or waiting)."""
    proc, base = start_server(f"sqlite:///{tmp_path / 'reads.sqlite3'}")
    below: set[int] = set()
    try:
        below = _descendants(proc.pid)
        end = time.monotonic() + 60
        while len(below) < 2 and time.monotonic() < end:  # the fork server and a worker
            time.sleep(0.2)
            below = _descendants(proc.pid)
        assert len(below) >= 2
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _gone(below, timeout=30)
    finally:
        for p in below:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)
        if proc.poll() is None:
            stop_server(proc)
