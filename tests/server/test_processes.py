"""Several server processes on one PostgreSQL (skipped without ``TRAMWAYS_TEST_POSTGRES_URL``).

Two real ``tramways serve`` processes on two loopback ports share one database:

- one writer per game: concurrent different moves for the same move number, half sent through
  each process, leave exactly one accepted per number (the compare-and-set on ``games.rev``
  and the primary key ``(game_id, seq)`` decide it in the database);
- fan-out: a move posted to one process reaches a WebSocket client of the other (PostgreSQL
  ``NOTIFY`` carries ``game rev``, never a view).
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import POSTGRES_ENV, start_server, stop_server


def _call(base: str, method: str, path: str, body: Any = None,
          token: str | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")




def _read_when_answered(base: str, path: str, token: str) -> Any:
    """The body of a read that answered 200, asked again for up to 30 s: on the shared
    PostgreSQL of a full run, the process left may first answer a refusal of the moment (the
    address's read allowance, shared by every process on the database, spent by the stream
    the kill cut; a 503 while the pool refills). A body that is not the game's fails with its
    status."""
    import time

    deadline = time.monotonic() + 30
    while True:
        code, body = _call(base, "GET", path, token=token)
        if code == 200 or time.monotonic() > deadline:
            assert code == 200, (code, body)
            return body
        time.sleep(0.5)


_PIDS: dict[str, int] = {}
"""The process id of each server :func:`two_servers` started, by its base URL."""


@pytest.fixture(scope="module")
def two_servers() -> Iterator[tuple[str, str]]:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    # B looks at the database only every 10 minutes on its own: what reaches its sockets
    # sooner came by NOTIFY (or by the catch-up after a lost LISTEN)
    slow = {"TRAMWAYS_LIVE_POLL_SECONDS": "600"}
    a, base_a = start_server(url, None, env=slow)
    try:
        b, base_b = start_server(url, None, env=slow)
    except BaseException:
        stop_server(a)
        raise
    _PIDS.update({base_a: a.pid, base_b: b.pid})
    try:
        yield base_a, base_b
    finally:
        stop_server(a)
        stop_server(b)


def _new_game(base: str) -> tuple[str, str, str]:
    code, created = _call(base, "POST", "/api/games",
                          {"game": "trambahn", "seats": ["human", "human"]})
    assert code == 201, created
    return created["id"], created["seats"][0]["token"], created["seats"][1]["token"]


def test_concurrent_moves_through_two_processes_leave_one_per_move_number(two_servers):
    base_a, base_b = two_servers
    gid, t1, t2 = _new_game(base_a)
    accepted_per_n: dict[int, list[str]] = {}
    for _ in range(4):
        state = _call(base_a, "GET", f"/api/games/{gid}", token=t1)[1]
        if not state["legal"]:
            state = _call(base_a, "GET", f"/api/games/{gid}", token=t2)[1]
        token = t1 if state["legal"] and state["to_act"] == [1] else t2
        state = _call(base_b, "GET", f"/api/games/{gid}", token=token)[1]
        n, legal = state["n"], state["legal"]
        assert len(legal) >= 2
        choices = legal[:4]
        results: list[tuple[int, str]] = []
        barrier = threading.Barrier(len(choices))

        def send(i: int, action: str, n: int = n, results: list = results,
                 barrier: threading.Barrier = barrier, token: str = token) -> None:
            barrier.wait()
            code, _ = _call((base_a, base_b)[i % 2], "POST", f"/api/games/{gid}/moves",
                            {"n": n, "action": action}, token=token)
            results.append((code, action))

        threads = [threading.Thread(target=send, args=(i, a)) for i, a in enumerate(choices)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(c for c, _ in results) == [200] + [409] * (len(choices) - 1), results
        accepted_per_n[n] = [a for c, a in results if c == 200]
    # both processes read the same record: one action per move number, the accepted one
    moves_a = _call(base_a, "GET", f"/api/games/{gid}", token=t1)[1]
    moves_b = _call(base_b, "GET", f"/api/games/{gid}", token=t1)[1]
    assert moves_a["n"] == moves_b["n"] == len(accepted_per_n)
    assert moves_a["moves"] == moves_b["moves"]
    import sqlalchemy as sa

    engine = sa.create_engine(os.environ[POSTGRES_ENV])
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT seq, notation FROM actions WHERE game_id = :g ORDER BY seq"),
                {"g": gid}).all()
    finally:
        engine.dispose()
    assert {seq: notation for seq, notation in rows} == {
        n: action for n, (action,) in accepted_per_n.items()}

def test_a_move_posted_to_one_process_reaches_a_websocket_of_the_other(two_servers):
    from websockets.sync.client import connect

    base_a, base_b = two_servers
    gid, t1, _ = _new_game(base_a)
    ws_url = base_b.replace("http://", "ws://") + f"/api/games/{gid}/live"
    with connect(ws_url, open_timeout=30) as ws:
        first = json.loads(ws.recv(timeout=30))
        assert first["n"] == 0
        legal = _call(base_a, "GET", f"/api/games/{gid}", token=t1)[1]["legal"]
        code, after = _call(base_a, "POST", f"/api/games/{gid}/moves",
                            {"n": 0, "action": legal[0]}, token=t1)
        assert code == 200
        pushed = json.loads(ws.recv(timeout=30))
        assert pushed["n"] == 1 and pushed["rev"] == after["rev"]
        assert pushed["moves"] == after["moves"] and pushed["seat"] is None


def _conninfo() -> str:
    from tramways.server.database import libpq_conninfo

    return libpq_conninfo(os.environ[POSTGRES_ENV])


def _cut_listeners(*bases: str) -> int:
    """Cut the ``LISTEN`` connections of the servers at ``bases`` (``pg_terminate_backend``);
    how many were cut.  Only theirs: the database is shared with the tests running beside
    these (``pytest -n 2``), whose listeners lost a notification when every
    ``tramways-listen`` was cut (a flake of tests/server/test_follow.py in one CI run of ten)."""
    import psycopg

    from tramways.server.database import listen_application

    with psycopg.connect(_conninfo(), autocommit=True) as admin:
        cut = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE application_name = ANY(%s)",
            ([listen_application(_PIDS[base]) for base in bases],)).fetchone()
    assert cut is not None
    return int(cut[0])


def test_a_listener_that_lost_its_connection_catches_up_from_the_database(two_servers):
    """The LISTEN connections are cut (``pg_terminate_backend``) and a move is made at once,
    while no process listens: its NOTIFY is lost, and B's socket still receives it (after
    reconnecting, the listener wakes every socket and each one reads the database)."""
    from websockets.sync.client import connect

    base_a, base_b = two_servers
    gid, t1, _ = _new_game(base_a)
    ws_url = base_b.replace("http://", "ws://") + f"/api/games/{gid}/live"
    with connect(ws_url, open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=30))["n"] == 0
        legal = _call(base_a, "GET", f"/api/games/{gid}", token=t1)[1]["legal"]
        assert _cut_listeners(base_a, base_b) == 2
        code, after = _call(base_a, "POST", f"/api/games/{gid}/moves",
                            {"n": 0, "action": legal[0]}, token=t1)
        assert code == 200
        pushed = json.loads(ws.recv(timeout=30))
        assert pushed["n"] == 1 and pushed["rev"] == after["rev"]


def test_cutting_the_servers_listeners_leaves_another_process_listening(two_servers):
    """Cutting the two servers' ``LISTEN`` connections leaves the listener of another process
    on the same database alone (a test's running beside them): it stays connected and hears
    the next notification."""
    import psycopg

    from tramways.server.database import NOTIFY_CHANNEL, listen

    base_a, base_b = two_servers
    heard: list[str] = []
    connections: list[int] = []
    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(target=listen, daemon=True, args=(
        os.environ[POSTGRES_ENV], lambda w: heard.append(w.game_id), stop, ready,
        lambda: connections.append(1)))
    thread.start()
    try:
        assert ready.wait(20)
        assert _cut_listeners(base_a, base_b) == 2
        gid, _, _ = _new_game(base_a)
        with psycopg.connect(_conninfo(), autocommit=True) as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{gid} 1"))
        for _ in range(400):
            if gid in heard:
                break
            thread.join(0.05)
        assert gid in heard and len(connections) == 1
    finally:
        stop.set()
        thread.join(5)


def test_kill_9_of_a_process_mid_stream_loses_no_acknowledged_move(two_servers):
    """A client streams moves to a third process C; C is killed with ``kill -9`` while
    moves are in flight; every move C acknowledged is in the record B reads, and the client
    carries on through B."""
    import signal

    _, base_b = two_servers
    proc_c, base_c = start_server(os.environ[POSTGRES_ENV], None)
    gid, t1, t2 = _new_game(base_c)
    tokens = {1: t1, 2: t2}
    acked: list[tuple[int, str, int]] = []
    errors: list[BaseException] = []

    def stream() -> None:
        try:
            for _ in range(400):
                spectator = _call(base_c, "GET", f"/api/games/{gid}")[1]
                seat = spectator["to_act"][0]
                state = _call(base_c, "GET", f"/api/games/{gid}", token=tokens[seat])[1]
                action = state["legal"][-1]
                code, _ = _call(base_c, "POST", f"/api/games/{gid}/moves",
                                {"n": state["n"], "action": action}, token=tokens[seat])
                if code == 200:
                    acked.append((state["n"], action, seat))
        # C is gone: refused, reset, or cut mid-body (http.client.IncompleteRead)
        except (OSError, ValueError, KeyError, IndexError, http.client.HTTPException) as exc:
            errors.append(exc)

    thread = threading.Thread(target=stream)
    thread.start()
    try:
        for _ in range(600):
            if len(acked) >= 6:
                break
            thread.join(0.05)
        os.kill(proc_c.pid, signal.SIGKILL)
        proc_c.wait()
        thread.join(60)
    finally:
        if proc_c.poll() is None:
            proc_c.kill()
            proc_c.wait()
    assert len(acked) >= 6 and errors  # the stream was cut by the kill
    seen = {s: _read_when_answered(base_b, f"/api/games/{gid}", t) for s, t in tokens.items()}
    assert seen[1]["n"] >= len(acked)
    for n, action, seat in acked:
        assert seen[seat]["moves"][n] == action
    # the client reconnects to B and plays on
    state = seen[seen[1]["to_act"][0]]
    code, after = _call(base_b, "POST", f"/api/games/{gid}/moves",
                        {"n": state["n"], "action": state["legal"][-1]},
                        token=tokens[state["seat"]])
    assert code == 200 and after["n"] == state["n"] + 1
