"""Live WebSockets are capped per server process: in all, per client address and per seat
token; a socket over a cap is closed with 4429 right after its handshake, and a closed socket
gives its place back."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.helpers import new_game, token_of
from tramways.server import ServerSettings, create_app
from tramways.server.limits import SocketLimit


def _client(url: str, **caps: int) -> TestClient:
    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, **caps)))


def _close_code_of_refused_socket(client: TestClient, url: str) -> int:
    with pytest.raises(WebSocketDisconnect) as exc:
        with client.websocket_connect(url) as ws:
            ws.receive_json()
    return exc.value.code


def test_sockets_beyond_the_seat_and_address_caps_are_refused_with_4429(sqlite_url):
    with _client(sqlite_url, sockets_per_seat=2, sockets_per_address=3, sockets_total=10) as c:
        created = new_game(c)
        gid, t1, t2 = created["id"], token_of(created, 1), token_of(created, 2)
        seat1 = f"/api/games/{gid}/live?token={t1}"
        with c.websocket_connect(seat1) as a, c.websocket_connect(seat1) as b:
            assert a.receive_json()["seat"] == 1 and b.receive_json()["seat"] == 1
            assert _close_code_of_refused_socket(c, seat1) == 4429  # a third for the same seat
            with c.websocket_connect(f"/api/games/{gid}/live?token={t2}") as other:
                assert other.receive_json()["seat"] == 2  # another seat has its own count
                # three from this address now: a spectator is refused too
                assert _close_code_of_refused_socket(c, f"/api/games/{gid}/live") == 4429
            assert c.app.state.socket_limit.open == 2
        # every socket closed gave its place back
        assert c.app.state.socket_limit.open == 0
        with c.websocket_connect(seat1) as again:
            assert again.receive_json()["seat"] == 1


def test_the_total_cap_and_a_refused_game_leave_no_place_taken(sqlite_url):
    with _client(sqlite_url, sockets_total=1) as c:
        gid = new_game(c)["id"]
        assert _close_code_of_refused_socket(c, "/api/games/nope/live") == 4404
        with c.websocket_connect(f"/api/games/{gid}/live") as ws:
            assert ws.receive_json()["n"] == 0
            assert _close_code_of_refused_socket(c, f"/api/games/{gid}/live") == 4429
        assert c.app.state.socket_limit.open == 0


def test_a_zero_cap_is_no_cap():
    limit = SocketLimit(total=0, per_address=0, per_seat=0)
    slots = [limit.take("a", "g/1") for _ in range(50)]
    assert all(isinstance(s, tuple) for s in slots) and limit.open == 50
    for s in slots:
        assert isinstance(s, tuple)
        limit.give_back(s)
    assert limit.open == 0 and not limit._by_address and not limit._by_seat
