"""PostgreSQL restarted mid-game: the server answers 503 while the database is down and
recovers by itself.  The test runs its own throwaway cluster (``initdb`` as the ``postgres``
user, as ``.ci/run`` does), because it stops it; it skips without PostgreSQL's programs or
without the rights to run them, and without ``TRAMWAYS_TEST_POSTGRES_URL`` (so that a plain
developer run stays fast)."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest

from tests.server.conftest import POSTGRES_ENV, free_port, start_server, stop_server
from tests.server.test_processes import _call


def _as_postgres(*cmd: str) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else list(cmd)


@pytest.fixture
def own_cluster() -> Iterator[tuple[str, list[str], list[str]]]:
    """(URL, the command that stops the cluster, the command that starts it again)."""
    if not os.environ.get(POSTGRES_ENV):
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found or os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("needs PostgreSQL's programs and root (to run them as postgres)")
    pgbin = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="tramways-pg-restart.")
    shutil.chown(folder, "postgres")
    port = free_port()
    data = os.path.join(folder, "data")
    subprocess.run(_as_postgres(f"{pgbin}/initdb", "-D", data, "-A", "trust", "-U", "postgres"),
                   check=True, stdout=subprocess.DEVNULL)
    pg_ctl = f"{pgbin}/pg_ctl"
    opts = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    start = _as_postgres(pg_ctl, "-D", data, "-l", os.path.join(folder, "log"), "-w",
                         "-o", opts, "start")
    subprocess.run(start, check=True, stdout=subprocess.DEVNULL)
    stop = _as_postgres(pg_ctl, "-D", data, "-m", "fast", "-w", "stop")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", stop, start
    finally:
        subprocess.run(_as_postgres(pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)


def test_postgres_restarted_mid_game_503_then_the_server_recovers(own_cluster):
    url, stop, start = own_cluster
    proc, base = start_server(url)
    try:
        code, created = _call(base, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "human"]})
        assert code == 201
        gid, t1 = created["id"], created["seats"][0]["token"]
        tokens = [s["token"] for s in created["seats"]]
        state = _call(base, "GET", f"/api/games/{gid}", token=t1)[1]
        code, state = _call(base, "POST", f"/api/games/{gid}/moves",
                            {"n": 0, "action": state["legal"][0]}, token=t1)
        assert code == 200
        subprocess.run(stop, check=True, stdout=subprocess.DEVNULL)
        code, body = _call(base, "GET", f"/api/games/{gid}", token=t1)
        assert code == 503 and body["error"] == "unavailable"
        code, body = _call(base, "POST", f"/api/games/{gid}/moves",
                           {"n": 1, "action": "P1 end"}, token=t1)
        assert code == 503  # the seat's token is looked up first: the database is away
        subprocess.run(start, check=True, stdout=subprocess.DEVNULL)
        for _ in range(300):  # no restart of the server: its pool finds the database again
            code, again = _call(base, "GET", f"/api/games/{gid}", token=t1)
            if code == 200:
                break
            time.sleep(0.1)
        assert code == 200 and again["n"] == 1
        token = tokens[again["to_act"][0] - 1]
        mine = _call(base, "GET", f"/api/games/{gid}", token=token)[1]
        code, after = _call(base, "POST", f"/api/games/{gid}/moves",
                            {"n": 1, "action": mine["legal"][0]}, token=token)
        assert code == 200 and after["n"] == 2
    finally:
        stop_server(proc)



def test_a_live_socket_woken_while_postgres_is_down_closes_with_1013_and_reconnects(
        own_cluster, tmp_path):
    """Issue 29: sockets woken while PostgreSQL was down crashed in ``_stream`` (tracebacks);
    now each closes with 1013 ("try again later"), none logs a traceback, and a socket opened
    once the database is back works."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url, stop, start = own_cluster
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as err:
        # the sockets look at the database every 0.3 s: they wake while it is down
        proc, base = start_server(url, None, env={"TRAMWAYS_LIVE_POLL_SECONDS": "0.3"},
                                  stderr=err)
    try:
        code, created = _call(base, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "human"]})
        assert code == 201
        gid = created["id"]
        ws_url = base.replace("http://", "ws://") + f"/api/games/{gid}/live"
        with contextlib.ExitStack() as held:
            sockets = [held.enter_context(connect(ws_url, open_timeout=30)) for _ in range(3)]
            for ws in sockets:
                assert json.loads(ws.recv(timeout=30))["n"] == 0
            subprocess.run(stop, check=True, stdout=subprocess.DEVNULL)
            for ws in sockets:
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.recv(timeout=30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        with connect(ws_url, open_timeout=30) as ws:  # opened while it is still down
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        subprocess.run(start, check=True, stdout=subprocess.DEVNULL)
        for _ in range(300):  # the client retries; once the database is back it is served
            try:
                with connect(ws_url, open_timeout=30) as ws:
                    assert json.loads(ws.recv(timeout=30))["n"] == 0
                    break
            except ConnectionClosed:
                time.sleep(0.1)
        else:
            raise AssertionError("no socket was served after the restart")
    finally:
        stop_server(proc)
    assert "Traceback" not in errors.read_text()
