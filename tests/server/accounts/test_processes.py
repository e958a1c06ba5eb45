"""Accounts, the lobby and the chat across two real server processes on one database
(issue 24): a session made on one process is good on the other (the secret is the
database's), a table opened on A reaches B's lobby socket, a message posted to B reaches
A's chat socket (PostgreSQL: ``NOTIFY``; SQLite: the sockets' poll)."""

from __future__ import annotations

import json
import re
import time

import httpx
from websockets.sync.client import connect

from tests.server.accounts.helpers import uniq
from tests.server.conftest import start_server, stop_server


def _signup(client: httpx.Client, name: str) -> None:
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/account/signup").text)
    assert token
    r = client.post("/account/signup", data={"csrf": token.group(1), "name": name,
                                             "password": "long password"})
    assert r.status_code == 303, r.text


def _csrf(client: httpx.Client, page: str = "/lobby") -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(page).text)
    assert found
    return found.group(1)


def _receive(ws, seconds: float) -> dict:
    return json.loads(ws.recv(timeout=seconds))


def test_sessions_lobby_and_chat_cross_two_server_processes(db_url: str) -> None:
    a, base_a = start_server(db_url)
    try:
        b, base_b = start_server(db_url)
        try:
            _run(base_a, base_b)
        finally:
            stop_server(b)
    finally:
        stop_server(a)


def _run(base_a: str, base_b: str) -> None:
    anna = httpx.Client(base_url=base_a, follow_redirects=False, timeout=30)
    bert = httpx.Client(base_url=base_b, follow_redirects=False, timeout=30)
    _signup(anna, uniq("Anna"))
    _signup(bert, uniq("Bert"))
    # the session cookie made by A is good on B
    anna_on_b = httpx.Client(base_url=base_b, cookies=anna.cookies, timeout=30)
    assert anna_on_b.get("/api/account").status_code == 200
    ws_b = base_b.replace("http", "ws")
    with connect(f"{ws_b}/api/lobby/live") as lobby:
        time.sleep(0.3)
        r = anna.post("/lobby/new", data={"csrf": _csrf(anna), "game": "trambahn",
                                          "seats": "2", "lang": "en"})
        assert r.status_code == 303
        assert _receive(lobby, 10) == {"lobby": "changed"}  # opened on A, seen on B
        table = r.headers["location"].rsplit("/", 1)[1]
        r = bert.post(f"/lobby/{table}/join", data={"csrf": _csrf(bert)})
        assert r.status_code == 303
    gid = anna.get("/api/account/games").json()[0]["id"]
    ws_a = base_a.replace("http", "ws")
    with connect(f"{ws_a}/api/games/{gid}/chat/live") as chat:
        assert _receive(chat, 10) == {"chat": []}
        token = bert.get("/api/account/csrf").json()["csrf"]
        started = time.monotonic()
        r = bert.post(f"/api/games/{gid}/chat", json={"text": "hello from B"},
                      headers={"X-CSRF-Token": token})
        assert r.status_code == 201, r.text
        frame = _receive(chat, 10)
        assert [m["text"] for m in frame["chat"]] == ["hello from B"]
        assert frame["chat"][0]["seat"] == 2
        assert time.monotonic() - started < 5  # at once on PostgreSQL, within a poll on SQLite


def test_the_same_under_tramways_serve_workers_2(db_url: str) -> None:
    """``--workers 2``: one port, two worker processes taking the requests and sockets in
    turn; sessions, the lobby's and the chat's sockets work whichever worker answers."""
    proc, base = start_server(db_url, None, "--workers", "2")
    try:
        _run(base, base)
        _run(base, base)
    finally:
        stop_server(proc)
