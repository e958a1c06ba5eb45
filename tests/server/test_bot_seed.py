"""Seeded bots (``ServerSettings.bot_seed``, ``tramways serve --bot-seed``): a bot draws its
randomness from the server's bot seed, the game's seed, its seat and the move number, so an
1840 game with a chosen seed and the same human moves replays alike (the browser tests rely
on it); without a bot seed every bot move draws fresh randomness."""

from __future__ import annotations

import time

import pytest

from tests.server.helpers import auth, token_of

pytest.importorskip("fastapi")


def _client(url: str, bot_seed: int | None):
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, bot_seed=bot_seed)))


def _bots_until_the_person(client, seed: int) -> list[str]:
    """Three random bots and a person in seat 4 of a seeded 1840 game: the person passes
    whenever it is their turn; the moves made until the end of the private auction (VI)."""
    # a chosen seed is the pages' option (the lobby's seed field), not the API's
    created = client.app.state.service.create("1840", {}, ["bot:random"] * 3 + ["human"],
                                              seed=seed)
    gid, token = created["id"], token_of(created, 4)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        client.app.state.service.wait_for_bots()
        state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        if state["view"]["round"] != "PRE":
            return list(client.get(f"/api/games/{gid}/record").json()["actions"])
        if 4 in state["to_act"]:
            move = next((m for m in state["legal"] if m.endswith(" pass")), state["legal"][0])
            r = client.post(f"/api/games/{gid}/moves", json={"n": state["n"], "action": move},
                            headers=auth(token))
            assert r.status_code == 200, r.text
        else:
            time.sleep(0.02)
    raise AssertionError("the private auction did not end")


def test_seeded_bots_play_a_seeded_1840_game_alike_twice(sqlite_url: str) -> None:
    with _client(sqlite_url, bot_seed=11) as client:
        first = _bots_until_the_person(client, seed=5)
        second = _bots_until_the_person(client, seed=5)
    assert len(first) > 4
    assert first == second
