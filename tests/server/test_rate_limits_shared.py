"""Rate limits that hold across server processes, and that the pages obey too.

On PostgreSQL the token buckets are rows of ``rate_limits`` taken by one atomic statement
(``Store.take_token``), so two processes behind a balancer allow one seat the rate once, not
twice (tested with two real processes).  The pages (``server.web``) count moves, undos and new
games against the same buckets as the API."""

from __future__ import annotations

import os
import re

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import POSTGRES_ENV, start_server, stop_server
from tests.server.helpers import auth, new_game, token_of
from tests.server.test_processes import _call
from tramways.server import ServerSettings, create_app


def test_a_shared_bucket_gives_burst_tokens_then_refuses_without_taking(db_url):
    from tramways.server.storage import Store, new_game_id

    store = Store(db_url)
    key = "test:" + new_game_id()
    try:
        assert store.take_token(key, 0.001, 2) is None
        assert store.take_token(key, 0.001, 2) is None
        left = store.take_token(key, 0.001, 2)
        assert left is not None and 0.0 <= left < 1.0
        assert store.take_token(key, 0.001, 2) is not None  # a refusal took nothing
        assert store.take_token("test:" + new_game_id(), 0.001, 2) is None  # its own bucket
        # a fast bucket refills: at 1000 a second one is back at once
        fast = "test:" + new_game_id()
        assert store.take_token(fast, 1000.0, 1) is None
        import time

        time.sleep(0.01)
        assert store.take_token(fast, 1000.0, 1) is None
        assert store.forget_buckets("test:", 0.0) >= 3  # full again: the rows may go
    finally:
        store.close()


@pytest.mark.parametrize("where", ["memory", "database"])
def test_the_api_limits_a_seat_with_buckets_in_memory_or_in_the_database(sqlite_url, where):
    settings = ServerSettings(database_url=sqlite_url, moves_per_second=0.01, move_burst=2,
                              games_per_minute=0, rate_limits=where)
    with TestClient(create_app(settings)) as c:
        assert c.app.state.move_limiter.shared is (where == "database")
        created = new_game(c)
        gid, t1 = created["id"], token_of(created, 1)
        codes = [c.post(f"/api/games/{gid}/moves", json={"n": 5, "action": "P1 end"},
                        headers=auth(t1)).status_code for _ in range(3)]
        assert codes == [409, 409, 429]


def test_the_pages_count_moves_undos_and_new_games_against_the_limits(sqlite_url):
    settings = ServerSettings(database_url=sqlite_url, moves_per_second=0.01, move_burst=2,
                              games_per_minute=0.01, game_burst=2)
    with TestClient(create_app(settings)) as c:
        created = new_game(c)  # one new game through the API ...
        gid, t1 = created["id"], token_of(created, 1)
        legal = c.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
        form = {"act_token": t1, "token": t1, "n": "0", "action": legal[0], "fragment": "1"}
        assert "too many" not in c.post(f"/g/{gid}/move", data=form).text  # played
        undo = {"act_token": t1, "token": t1, "n": "1", "fragment": "1"}
        assert "too many" not in c.post(f"/g/{gid}/undo", data=undo).text  # taken back
        page = c.post(f"/g/{gid}/move", data=form).text
        assert re.search(r"too many moves for this seat", page)
        assert c.get(f"/api/games/{gid}").json()["n"] == 0  # the refused move was not played
        # the API's bucket for that seat is the same one
        r = c.post(f"/api/games/{gid}/moves", json={"n": 0, "action": legal[0]}, headers=auth(t1))
        assert r.status_code == 429
        # ... and one through the lobby page; the third from this address is refused
        lobby = {"seat1": "human", "seat2": "bot:rule"}
        assert c.post("/new", data=lobby).status_code == 200
        refused = c.post("/new", data=lobby)
        assert refused.status_code == 429 and "too many new games" in refused.text


def test_two_processes_share_one_seat_bucket(tmp_path):
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    # 0.01 moves a second after a burst of 20: the test takes far less than the 100 s a
    # token needs to come back
    limits = ("--moves-per-second", "0.01", "--games-per-minute", "0")
    a, base_a = start_server(url, None, *limits)
    try:
        b, base_b = start_server(url, None, *limits)
    except BaseException:
        stop_server(a)
        raise
    try:
        code, created = _call(base_a, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "human"]})
        assert code == 201
        gid, t1 = created["id"], created["seats"][0]["token"]
        codes = []
        for i in range(24):  # stale moves (n = 7) count as requests and change nothing
            base = (base_a, base_b)[i % 2]
            codes.append(_call(base, "POST", f"/api/games/{gid}/moves",
                               {"n": 7, "action": "P1 end"}, token=t1)[0])
        # per process the two would have allowed 40; shared, the 21st is refused wherever
        assert codes == [409] * 20 + [429] * 4
        assert _call(base_b, "GET", f"/api/games/{gid}")[1]["n"] == 0
    finally:
        stop_server(a)
        stop_server(b)
