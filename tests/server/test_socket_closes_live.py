"""Through a real ``tramways serve`` (uvicorn): a refused WebSocket reaches the client as a
close code after the handshake (4404, 4429), not as an HTTP 403 without a reason
(issues 24 and 29)."""

from __future__ import annotations

import contextlib
import json

import pytest

from tests.server.test_processes import _call
from tramways.server.limits import SOCKETS_PER_SEAT


def _close_code(url: str) -> int | None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with connect(url, open_timeout=30) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


def test_refused_sockets_close_with_4404_and_4429_after_the_handshake(live_server):
    from websockets.sync.client import connect

    ws_base = live_server.replace("http://", "ws://")
    assert _close_code(f"{ws_base}/api/games/nosuchgame/live") == 4404
    code, created = _call(live_server, "POST", "/api/games",
                          {"game": "trambahn", "seats": ["human", "human"]})
    assert code == 201
    seat = f"{ws_base}/api/games/{created['id']}/live?token={created['seats'][0]['token']}"
    assert _close_code(f"{ws_base}/api/games/{created['id']}/live?token=wrong") == 4403
    with contextlib.ExitStack() as held:
        for _ in range(SOCKETS_PER_SEAT):
            ws = held.enter_context(connect(seat, open_timeout=30))
            assert json.loads(ws.recv(timeout=30))["seat"] == 1
        assert _close_code(seat) == 4429  # one more for the same seat
