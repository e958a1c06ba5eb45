"""No client can starve the bots of a person's game (the bot scheduler,
``tramways.server.bots``): one address creates 20 games of six searching 1840 bots (within the
default creation limit), then a person sits down against a bot; every reply of that bot comes
within 2 s, while the 20 games of bots go on in turn on the thread they may use.

Before the scheduler, a game of bots only kept a bot thread for its whole run, and the
person's bot did not answer for minutes."""

from __future__ import annotations

import time

import pytest

from tests.server.helpers import auth, new_game, token_of

pytest.importorskip("fastapi")

REPLY_WITHIN = 2.0


def _wait_for_turn(client, gid: str, token: str, seat: int, within: float) -> dict | None:
    """The state once ``seat`` is to act again (or the game is over), or ``None`` if that
    takes longer than ``within`` seconds."""
    end = time.monotonic() + within
    while True:
        state = client.get(f"/api/games/{gid}", headers=auth(token)).json()
        if seat in state["to_act"] or state["status"] == "over":
            return state
        if time.monotonic() > end:
            return None
        time.sleep(0.02)


def test_a_bots_reply_to_a_person_comes_within_2s_while_20_bot_games_run(sqlite_url):
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    # the default creation limit (60 a minute, bursts of 30) and two bot workers; the limit
    # on games of bots only is off: the scheduler alone must keep the person's bot answering
    settings = ServerSettings(database_url=sqlite_url, moves_per_second=0,
                              bot_games_per_hour=0, max_bot_games=0)
    with TestClient(create_app(settings)) as client:
        for _ in range(20):
            new_game(client, ["bot:search"] * 6, game="1840")
        time.sleep(0.5)  # the bot games are under way
        service = client.app.state.service
        before = service._scheduler.decisions
        created = new_game(client, ["human", "bot:rule"])
        gid, token = created["id"], token_of(created, 1)
        waits = []
        state = _wait_for_turn(client, gid, token, 1, REPLY_WITHIN)
        for _ in range(200):  # a person's turn is several actions: until the bot replied 3 times
            if len(waits) >= 3:
                break
            assert state is not None, f"no reply within {REPLY_WITHIN} s: {waits}"
            if state["status"] == "over":
                break
            started = time.monotonic()
            r = client.post(f"/api/games/{gid}/moves", headers=auth(token),
                            json={"n": state["n"], "action": state["legal"][0]})
            assert r.status_code == 200, r.text
            state = r.json()
            if 1 not in state["to_act"]:
                state = _wait_for_turn(client, gid, token, 1, REPLY_WITHIN)
                waits.append(round(time.monotonic() - started, 3))
        assert state is not None, f"no reply within {REPLY_WITHIN} s: {waits}"
        assert waits, "the bot never had to reply"
        # the games of bots went on meanwhile, one decision at a time
        assert service._scheduler.decisions > before + len(waits)


def _limited_client(url: str, **limits):
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    return TestClient(create_app(ServerSettings(database_url=url, moves_per_second=0,
                                                games_per_minute=0, resume_bots=False,
                                                bot_workers=1, **limits)))


def _create(client, seats: list[str]):
    return client.post("/api/games", json={"game": "trambahn", "settings": {}, "seats": seats})


def test_games_of_bots_only_are_limited_per_address_and_people_are_not(sqlite_url):
    with _limited_client(sqlite_url, bot_games_per_hour=10, bot_game_burst=2,
                         max_bot_games=0) as client:
        assert _create(client, ["bot:rule", "bot:random"]).status_code == 201
        assert _create(client, ["bot:rule", "bot:rule"]).status_code == 201
        r = _create(client, ["bot:random", "bot:rule"])
        assert r.status_code == 429
        assert r.json()["error"] == "rate_limited"
        assert "games of bots only from this address" in r.json()["message"]
        assert int(r.headers["Retry-After"]) >= 1
        assert _create(client, ["human", "bot:rule"]).status_code == 201  # a person plays


def test_games_of_bots_only_have_a_cap_on_the_site(sqlite_url):
    # bots that pause 30 s before each move: the two games are still running at the third
    with _limited_client(sqlite_url, bot_games_per_hour=0, max_bot_games=2,
                         bot_delay_seconds=30) as client:
        assert _create(client, ["bot:rule", "bot:rule"]).status_code == 201
        assert _create(client, ["bot:rule", "bot:rule"]).status_code == 201
        assert client.app.state.store.count_bot_only_games() == 2
        r = _create(client, ["bot:rule", "bot:rule"])
        assert r.status_code == 429
        assert "its most games of bots only (2)" in r.json()["message"]
        assert _create(client, ["human", "bot:rule"]).status_code == 201  # a person plays
        assert client.app.state.store.count_bot_only_games() == 2
