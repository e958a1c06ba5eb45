"""Slow clients (issue 29): a connection whose request headers are not complete within
``--timeout-headers`` seconds is closed, whether the client sends nothing or trickles bytes,
with either HTTP parser; complete requests, keep-alive and upgraded WebSockets are not
touched by that deadline."""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.server.conftest import start_server, stop_server
from tests.server.test_processes import _call


@pytest.fixture(params=["httptools", "h11"], scope="module")
def slow_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("slow")
    proc, base = start_server(f"sqlite:///{folder / 'slow.sqlite3'}", None,
                              "--timeout-headers", "1", "--http", request.param)
    try:
        yield base
    finally:
        stop_server(proc)


def _open(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)), timeout=30)
    return s


def _response(s: socket.socket) -> bytes:
    """One whole HTTP response (its head and its ``Content-Length`` bytes of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += s.recv(4096)
    return head + b"\r\n\r\n" + body


def _closed_by_server(s: socket.socket, trickle: bytes = b"", limit: float = 30.0) -> bool:
    """Send ``trickle`` a byte every 0.2 s (then nothing) until the server closes the
    connection; ``False`` if it is still open after ``limit`` seconds."""
    s.settimeout(0.2)
    end = time.monotonic() + limit
    rest = trickle
    while time.monotonic() < end:
        try:
            if rest:
                s.sendall(rest[:1])
                rest = rest[1:]
            if s.recv(1024) == b"":
                return True
        except TimeoutError:
            continue
        except (BrokenPipeError, ConnectionResetError):
            return True
    return False


def test_a_client_sending_partial_headers_is_disconnected(slow_server):
    with _open(slow_server) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert _closed_by_server(s)


def test_a_client_trickling_its_headers_is_disconnected(slow_server):
    """Bytes keep coming, but the headers never end in time: the deadline does not move."""
    with _open(slow_server) as s:
        head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 150
        assert _closed_by_server(s, trickle=head)


def test_a_client_that_opens_and_says_nothing_is_disconnected(slow_server):
    with _open(slow_server) as s:
        assert _closed_by_server(s)


def test_whole_requests_keep_alive_and_websockets_outlive_the_header_deadline(slow_server):
    from websockets.sync.client import connect

    with _open(slow_server) as s:
        for _ in range(2):  # two requests on one connection, the second after a pause
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _response(s).startswith(b"HTTP/1.1 200")
            time.sleep(1.5)  # longer than the header deadline, shorter than the keep-alive
    code, created = _call(slow_server, "POST", "/api/games",
                          {"game": "trambahn", "seats": ["human", "human"]})
    assert code == 201
    gid, t1 = created["id"], created["seats"][0]["token"]
    ws_url = slow_server.replace("http://", "ws://") + f"/api/games/{gid}/live"
    with connect(ws_url, open_timeout=30) as ws:
        assert json.loads(ws.recv(timeout=30))["n"] == 0
        time.sleep(1.5)  # the upgraded socket has no header deadline
        state = _call(slow_server, "GET", f"/api/games/{gid}", token=t1)[1]
        assert _call(slow_server, "POST", f"/api/games/{gid}/moves",
                     {"n": 0, "action": state["legal"][0]}, token=t1)[0] == 200
        assert json.loads(ws.recv(timeout=30))["n"] == 1
