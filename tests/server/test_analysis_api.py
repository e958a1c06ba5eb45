"""GET /api/games/ID/analysis (issue 26, item 4): a finished game is analysed once, in the
background, and served; a game in play is not."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from tests.server.conftest import POSTGRES_ENV
from tests.server.helpers import new_game


def _client(url: str) -> Any:
    from fastapi.testclient import TestClient

    from tramways.server import ServerSettings, create_app

    return TestClient(create_app(ServerSettings(
        database_url=url, moves_per_second=0, games_per_minute=0, bot_games_per_hour=0,
        max_bot_games=0, analysis="thread")))


@pytest.fixture
def analysing(db_url: str) -> Iterator[Any]:
    with _client(db_url) as c:
        yield c


def _wait_until_over(c: Any, gid: str, seconds: float = 180.0) -> None:
    """This game's bots play it to its end (on a shared PostgreSQL database the process also
    plays the unfinished games of other tests it resumed: wait for this one, not for all)."""
    end = time.monotonic() + seconds
    while c.get(f"/api/games/{gid}").json()["status"] == "active":
        assert time.monotonic() < end, f"{gid} did not end"
        c.app.state.service.wait_for_bots(5, gid)


def test_issue26_finished_game_analysed_once_and_served(analysing: Any) -> None:
    c = analysing
    created = new_game(c, seats=["bot:normal", "bot:normal"])
    gid = created["id"]
    _wait_until_over(c, gid)
    assert c.app.state.analyser.wait(120)
    r = c.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "done"
    a = body["analysis"]
    record = c.get(f"/api/games/{gid}/record").json()
    assert a["game"] == "trambahn" and a["seats"] == 2
    assert a["actions"] == len(record["actions"])
    assert len(a["decisions"]) > 50
    for d in a["decisions"]:
        assert d["played"] == record["actions"][d["index"]]
        assert d["loss"] >= 0
    assert len(a["curve"]) == len(a["decisions"])
    store = c.app.state.store
    from tramways.server.tables import analyses

    with store.engine.connect() as conn:  # one row: analysed once
        rows = conn.execute(sa.select(analyses.c.status).where(
            analyses.c.game_id == gid)).all()
    assert [r.status for r in rows] == ["done"]
    assert c.app.state.analyser.analyse(gid) is False  # claimed already: not again


def test_issue26_game_in_play_not_analysed(analysing: Any) -> None:
    created = new_game(analysing, seats=["human", "human"])
    r = analysing.get(f"/api/games/{created['id']}/analysis")
    assert r.status_code == 409
    assert r.json()["error"] == "not_over"
    assert analysing.get("/api/games/nosuchgame/analysis").status_code == 404


def test_issue26_second_process_leaves_a_claimed_game(db_url: str) -> None:
    """Two servers on one database (PostgreSQL: two processes): the second finds the claim."""
    if db_url.startswith("postgresql") and not os.environ.get(POSTGRES_ENV):
        pytest.skip("no PostgreSQL")
    with _client(db_url) as first:
        created = new_game(first, seats=["bot:random", "bot:random"])
        gid = created["id"]
        _wait_until_over(first, gid)
        assert first.app.state.analyser.wait(120)
        with _client(db_url) as second:
            assert second.app.state.analyser.analyse(gid) is False
            r = second.get(f"/api/games/{gid}/analysis")
            assert r.status_code == 200 and r.json()["status"] == "done"


def test_issue26_pending_until_analysed(sqlite_url: str) -> None:
    """A finished game whose analysis is not ready answers 202 pending (here: a server that
    analyses nothing, TRAMWAYS_ANALYSIS=off, so it stays pending)."""
    from tests.server.conftest import make_client

    with make_client(sqlite_url) as c:
        created = new_game(c, seats=["bot:random", "bot:random"])
        assert c.app.state.service.wait_for_bots(120)
        r = c.get(f"/api/games/{created['id']}/analysis")
        assert r.status_code == 202
        assert r.json() == {"status": "pending", "analysis": None}


def test_issue26_analysis_runs_in_a_worker_process(sqlite_url: str) -> None:
    """The server's default: the analysis runs in a spawned process of its own (the server's
    threads keep the interpreter), and its result is the same as in process."""
    from fastapi.testclient import TestClient

    from tramways.bots.analysis import analyse
    from tramways.core.record import GameRecord
    from tramways.server import ServerSettings, create_app

    settings = ServerSettings(database_url=sqlite_url, moves_per_second=0, games_per_minute=0,
                              bot_games_per_hour=0, max_bot_games=0, analysis="process")
    with TestClient(create_app(settings)) as c:
        created = new_game(c, seats=["bot:random", "bot:random"])
        gid = created["id"]
        assert c.app.state.service.wait_for_bots(120)
        assert c.app.state.analyser.wait(180)
        body = c.get(f"/api/games/{gid}/analysis").json()
        assert body["status"] == "done"
        record = GameRecord.model_validate(c.get(f"/api/games/{gid}/record").json())
        seed = int(c.app.state.service.live(gid).row.seed) % (2**31)
    here = analyse(record, seed=seed).figures()
    there = dict(body["analysis"])
    there.pop("seconds")
    assert there == {**here, "decisions": [
        {**d, "played_log": list(d["played_log"]), "best_log": list(d["best_log"])}
        for d in here["decisions"]],
        "curve": [{"index": p["index"], "values": list(p["values"])} for p in here["curve"]],
        "turning_points": list(here["turning_points"])}


def test_issue26_tramways_serve_analyses_in_a_spawned_process(tmp_path) -> None:
    """``python -m tramways serve`` with its default (``process``): the spawned worker imports
    ``tramways.__main__`` without starting another server, and the analysis is served."""
    import time

    import httpx

    from tests.server.conftest import start_server, stop_server

    proc, base = start_server(f"sqlite:///{tmp_path / 'tramways.sqlite3'}", None,
                              "--moves-per-second", "0",
                              env={"TRAMWAYS_ANALYSIS": "process"})
    try:
        created = httpx.post(f"{base}/api/games", json={
            "game": "trambahn", "settings": {}, "seats": ["bot:random", "bot:random"]}).json()
        gid = created["id"]
        deadline = time.monotonic() + 180
        while True:
            r = httpx.get(f"{base}/api/games/{gid}/analysis", timeout=30)
            if r.status_code == 200:
                break
            assert r.status_code in (202, 409), r.text  # 409: the bots still play
            assert time.monotonic() < deadline
            time.sleep(0.5)
        assert r.json()["status"] == "done"
        assert len(r.json()["analysis"]["decisions"]) > 20
    finally:
        stop_server(proc)


def test_issue26_a_dead_process_claim_is_taken_over(analysing: Any) -> None:
    """A ``running`` claim older than STALE (its process died) is claimed again when the
    analysis is asked for, and the game is analysed."""
    from datetime import UTC, datetime, timedelta

    from tramways.server.tables import analyses

    c = analysing
    gid = new_game(c, seats=["bot:random", "bot:random"])["id"]
    assert c.app.state.service.wait_for_bots(120)
    assert c.app.state.analyser.wait(120)
    with c.app.state.store.engine.begin() as conn:
        conn.execute(analyses.update().where(analyses.c.game_id == gid).values(
            status="running", data=None,
            started=datetime.now(UTC) - timedelta(hours=1)))
    assert c.get(f"/api/games/{gid}/analysis").status_code == 202
    assert c.app.state.analyser.wait(120)
    r = c.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 200 and r.json()["status"] == "done"
