"""Helpers of the account tests: clients, sign-ups, forms with their CSRF token, whole games."""

from __future__ import annotations

import re
from typing import Any

from tests.server.helpers import auth

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def make_app_client(url: str, **settings: Any) -> Any:
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    base = {"moves_per_second": 0, "games_per_minute": 0, "bot_games_per_hour": 0,
            "max_bot_games": 0, "chat_per_minute": 0, "signups_per_hour": 0}
    return TestClient(create_app(ServerSettings(database_url=url, **{**base, **settings})),
                      follow_redirects=False)


def other_client(client: Any) -> Any:
    """A second browser on the same app (its own cookies)."""
    from fastapi.testclient import TestClient

    return TestClient(client.app, follow_redirects=False)


def csrf_of(client: Any, path: str = "/account/login") -> str:
    r = client.get(path)
    found = CSRF.search(r.text)
    assert found, (path, r.status_code)
    return found.group(1)


def signup(client: Any, name: str, password: str = "correct horse 1") -> Any:
    token = csrf_of(client, "/account/signup")
    r = client.post("/account/signup", data={"csrf": token, "name": name, "password": password,
                                             "next": "/lobby"})
    assert r.status_code == 303, r.text
    return r


def post_form(client: Any, path: str, page: str = "/lobby", **fields: str) -> Any:
    return client.post(path, data={"csrf": csrf_of(client, page), **fields})


def open_table(client: Any, **fields: str) -> str:
    """``client`` opens a table with the lobby's form (a two-seat Trambahn table in English
    unless ``fields`` say otherwise): the table's id."""
    form = {"game": "trambahn", "seats": "2", "lang": "en", **fields}
    r = post_form(client, "/lobby/new", **form)
    assert r.status_code == 303, r.text
    return str(r.headers["location"].rsplit("/", 1)[1])


def open_and_fill(a: Any, b: Any, game: str = "trambahn") -> str:
    """``a`` opens a two-seat table, ``b`` joins it: the game's id."""
    table = open_table(a, game=game)
    r = post_form(b, f"/lobby/{table}/join")
    assert r.status_code == 303, r.text
    started = a.app.state.accounts.open_game(table)
    assert started.status == "started" and started.game_id
    return str(started.game_id)


def links(client: Any) -> dict[str, str]:
    """``{game id: seat token}`` of the account's games."""
    return {g["id"]: g["link"].split("token=")[1] for g in client.get("/api/account/games").json()}


def play_to_end(client: Any, gid: str, tokens: dict[int, str], limit: int = 3000) -> dict[str, Any]:
    """Play the game through the API with the seats' tokens (an ending move when there is
    one, else the first legal move) until it is over."""
    state: dict[str, Any] = {}
    for _ in range(limit):
        state = client.get(f"/api/games/{gid}").json()
        if state["status"] != "active":
            return state
        seat = state["to_act"][0]
        mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json()
        ends = [m for m in mine["legal"] if m.endswith(" end")]
        move = (ends or mine["legal"])[0]
        r = client.post(f"/api/games/{gid}/moves", json={"n": mine["n"], "action": move},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def uniq(name: str) -> str:
    """A user name no other test took (the PostgreSQL database is shared by the tests)."""
    import secrets

    return f"{name}_{secrets.token_hex(3)}"
