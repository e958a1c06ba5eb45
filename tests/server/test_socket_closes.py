"""Live WebSockets end with a documented close code, never with a traceback or a bare HTTP
refusal: 1013 ("try again later") when the database does not answer, 1009 for a client
message over ``ServerSettings.ws_max_message_bytes``, 4000 + the HTTP status for a refusal
(4403, 4404, 4429) sent after the handshake, so real clients see the code."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import auth, new_game
from tramways.server import ServerSettings, create_app
from tramways.server.api import CLOSE_TOO_BIG, CLOSE_UNAVAILABLE


def _client(url: str, **extra: object) -> TestClient:
    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, **extra)))  # type: ignore[arg-type]


def _database_down(*_args: object, **_kw: object) -> None:
    raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))


def test_a_socket_woken_while_the_database_is_down_closes_with_1013(sqlite_url, monkeypatch):
    with _client(sqlite_url) as c:
        gid = new_game(c)["id"]
        with c.websocket_connect(f"/api/games/{gid}/live") as ws:
            assert ws.receive_json()["n"] == 0
            monkeypatch.setattr(c.app.state.service, "state", _database_down)
            c.app.state.hub.publish(gid, 99)  # a write elsewhere wakes the socket
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == CLOSE_UNAVAILABLE == 1013
        assert c.app.state.socket_limit.open == 0


def test_a_socket_opened_while_the_database_is_down_closes_with_1013(sqlite_url, monkeypatch):
    with _client(sqlite_url) as c:
        gid = new_game(c)["id"]
        monkeypatch.setattr(c.app.state.service, "state", _database_down)
        with pytest.raises(WebSocketDisconnect) as exc:
            with c.websocket_connect(f"/api/games/{gid}/live") as ws:
                ws.receive_json()
        assert exc.value.code == 1013
        monkeypatch.setattr(c.app.state.service, "seat_for", _database_down)
        with pytest.raises(WebSocketDisconnect) as exc:
            with c.websocket_connect(f"/api/games/{gid}/live?token=x") as ws:
                ws.receive_json()
        assert exc.value.code == 1013
        assert c.app.state.socket_limit.open == 0


def test_a_client_message_over_the_cap_closes_the_socket_with_1009(sqlite_url):
    with _client(sqlite_url, ws_max_message_bytes=1024) as c:
        created = new_game(c)
        gid = created["id"]
        with c.websocket_connect(f"/api/games/{gid}/live") as ws:
            assert ws.receive_json()["n"] == 0
            ws.send_text("x" * 1024)  # at the cap: read and ignored
            ws.send_bytes(b"\0" * 1024)
            ws.send_text("x" * (8 * 1024 * 1024))  # the 8 MB of issue 24
            # a move follows: a socket still open would carry its payload
            t1 = created["seats"][0]["token"]
            legal = c.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
            assert c.post(f"/api/games/{gid}/moves", json={"n": 0, "action": legal[0]},
                          headers=auth(t1)).status_code == 200
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == CLOSE_TOO_BIG == 1009
        assert c.app.state.socket_limit.open == 0
