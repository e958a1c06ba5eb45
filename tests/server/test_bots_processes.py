"""Bots across server processes on one PostgreSQL (skipped without the URL): exactly one
process plays a game's bots (a session advisory lock on the game, ``Store.bot_lease``), and
when the process holding it dies (``kill -9``) another takes over."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from tests.server.conftest import POSTGRES_ENV, start_server, stop_server
from tests.server.test_processes import _call

HOLDER = """
import sys, time
from tramways.server.storage import Store
store = Store(sys.argv[1], run_migrations=False)
with store.bot_lease(sys.argv[2]) as got:
    print("held" if got else "refused", flush=True)
    time.sleep(600)
"""


def _holder(url: str, game_id: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, url, game_id],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


@pytest.fixture
def pg_url() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV} (.ci/run does)")
    return url


def test_a_bot_lease_held_by_one_process_is_refused_to_others_until_it_dies(pg_url):
    from tramways.server.storage import Store

    store = Store(pg_url)
    try:
        holder = _holder(pg_url, "lease-test-game")
        with store.bot_lease("lease-test-game") as got:
            assert got is False
        with store.bot_lease("another-game") as got:
            assert got is True
        holder.kill()  # kill -9: its connection, and with it the lock, goes
        holder.wait()
        for _ in range(300):
            with store.bot_lease("lease-test-game") as got:
                if got:
                    break
            time.sleep(0.1)
        assert got is True
    finally:
        store.close()


def test_the_bot_of_a_dead_process_is_taken_over_by_a_live_one(pg_url):
    proc, base = start_server(pg_url, None, env={"TRAMWAYS_BOT_SWEEP_SECONDS": "1"})
    try:
        code, created = _call(base, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "bot:random"]})
        assert code == 201
        gid, t1 = created["id"], created["seats"][0]["token"]
        holder = _holder(pg_url, gid)  # another process is deciding this game's bot move
        try:
            state = _call(base, "GET", f"/api/games/{gid}", token=t1)[1]
            for _ in range(50):  # seat 1 plays its turn to the end: then the bot is to act
                if state["to_act"] != [1]:
                    break
                ends = [m for m in state["legal"] if m.endswith(" end")]
                code, state = _call(base, "POST", f"/api/games/{gid}/moves",
                                    {"n": state["n"], "action": (ends or state["legal"])[0]},
                                    token=t1)
                assert code == 200, state
            assert state["to_act"] == [2]
            n = state["n"]
            # while the other process holds the lease, this one leaves the bot alone
            for _ in range(5):
                time.sleep(0.2)
                assert _call(base, "GET", f"/api/games/{gid}")[1]["n"] == n
        finally:
            holder.kill()
            holder.wait()
        # it died: the sweep (every second here) or the next request takes the bot over
        for _ in range(300):
            state = _call(base, "GET", f"/api/games/{gid}")[1]
            if 1 in state["to_act"] and state["n"] > n:
                break
            time.sleep(0.1)
        assert state["n"] > n and state["to_act"] == [1]
    finally:
        stop_server(proc)


def _lease_held(pg_url: str, game_id: str) -> bool:
    """Whether some session holds ``game_id``'s bot lease (read from ``pg_locks``, without
    trying the lock: a try could make the holder's own try fail)."""
    import hashlib

    import sqlalchemy as sa

    key = int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big", signed=True)
    k = key & 0xFFFF_FFFF_FFFF_FFFF
    engine = sa.create_engine(pg_url)
    try:
        with engine.connect() as conn:
            return bool(conn.execute(sa.text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid = :hi AND objid = :lo AND objsubid = 1"),
                {"hi": k >> 32, "lo": k & 0xFFFF_FFFF}).scalar())
    finally:
        engine.dispose()


def test_kill_9_of_a_process_in_the_middle_of_a_bot_decision_another_takes_over(pg_url):
    from tramways.server.storage import Store

    # A's bots take 60 s over each move (their choice made, the lease held); B sweeps for
    # stalled bots every second
    a, base_a = start_server(pg_url, None, env={"TRAMWAYS_BOT_DELAY_SECONDS": "60",
                                                 "TRAMWAYS_BOT_SWEEP_SECONDS": "600"})
    b = None
    try:
        b, base_b = start_server(pg_url, None, env={"TRAMWAYS_BOT_SWEEP_SECONDS": "1"})
        code, created = _call(base_a, "POST", "/api/games",
                              {"game": "trambahn", "seats": ["human", "bot:random"]})
        assert code == 201
        gid, t1 = created["id"], created["seats"][0]["token"]
        acknowledged: list[tuple[int, str]] = []
        state = _call(base_a, "GET", f"/api/games/{gid}", token=t1)[1]
        for _ in range(50):  # seat 1 plays its turn to the end through A
            if state["to_act"] != [1]:
                break
            ends = [m for m in state["legal"] if m.endswith(" end")]
            action = (ends or state["legal"])[0]
            code, state = _call(base_a, "POST", f"/api/games/{gid}/moves",
                                {"n": state["n"], "action": action}, token=t1)
            assert code == 200, state
            acknowledged.append((state["n"] - 1, action))
        assert state["to_act"] == [2]
        n = state["n"]
        for _ in range(300):  # A's bot is deciding: it holds the game's lease
            if _lease_held(pg_url, gid):
                break
            time.sleep(0.1)
        assert _lease_held(pg_url, gid)
        time.sleep(1.5)  # B's sweep has looked (and found the lease taken): nothing moved
        assert _call(base_b, "GET", f"/api/games/{gid}")[1]["n"] == n
        a.kill()  # kill -9 in the middle of the bot's decision
        a.wait()
        for _ in range(300):  # B takes the bot over (its sweep, or this request)
            state = _call(base_b, "GET", f"/api/games/{gid}", token=t1)[1]
            if state["n"] > n and state["to_act"] == [1]:
                break
            time.sleep(0.1)
        assert state["n"] > n and state["to_act"] == [1]
        # nothing acknowledged was lost: every move A answered 200 is in the record
        store = Store(pg_url, run_migrations=False)
        try:
            loaded = store.load(gid)
        finally:
            store.close()
        assert loaded is not None
        rows = {r.seq: (r.notation, r.seat) for r in loaded[1]}
        assert all(rows[seq] == (action, 1) for seq, action in acknowledged)
        assert all(rows[seq][1] == 2 for seq in range(n, state["n"]))  # then the bot's moves
        # and the game goes on through B: seat 1 moves, B's bot answers
        ends = [m for m in state["legal"] if m.endswith(" end")]
        code, after = _call(base_b, "POST", f"/api/games/{gid}/moves",
                            {"n": state["n"], "action": (ends or state["legal"])[0]}, token=t1)
        assert code == 200
    finally:
        if a.poll() is None:
            a.kill()
            a.wait()
        if b is not None:
            stop_server(b)
