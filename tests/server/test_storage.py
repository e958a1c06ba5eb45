"""Storage: migrations, one writer per game (unique (game, seq)), concurrent moves, kill -9."""

from __future__ import annotations

import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import sqlalchemy as sa

from tests.server.conftest import make_client, start_server
from tests.server.helpers import auth, new_game, token_of
from tramways.server.storage import ActionRow, Conflict, Store, actions, metadata


def test_migrations_build_exactly_the_declared_schema(db_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import tramways.server.accounts.schema  # noqa: F401  (its tables join the metadata)
    import tramways.server.clocks.schema  # noqa: F401  (so do the clocks': run alone, the
    # test saw the database's clock tables as tables to remove)

    store = Store(db_url)
    Store(db_url)  # a second start finds the schema at head and changes nothing
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    store.close()
    assert diff == []


def test_tokens_are_stored_only_as_hashes(db_url):
    store = Store(db_url)
    gid, tokens = store.create_game("trambahn", 1, {}, 1, {}, [("human", "A"), ("human", "B")])
    with store.engine.connect() as conn:
        stored = conn.execute(sa.text("SELECT token_hash FROM seats WHERE game_id = :g"),
                              {"g": gid}).scalars().all()
    assert len(stored) == 2 and not set(stored) & set(tokens)
    assert store.seat_for_token(gid, tokens[1]) == 2 and store.seat_for_token(gid, "x") is None
    store.close()


def test_the_database_refuses_a_second_action_with_the_same_number(db_url):
    """One writer per game: the unique key (game, seq) holds even without the revision check."""
    store = Store(db_url)
    gid, _ = store.create_game("trambahn", 1, {}, 1, {}, [("human", "A"), ("human", "B")])
    row = {"game_id": gid, "seq": 0, "notation": "P1 end", "seat": 1, "reveals": True,
           "created": sa.func.now()}
    with store.engine.begin() as conn:
        conn.execute(actions.insert().values(**row))
    with pytest.raises(sa.exc.IntegrityError):
        with store.engine.begin() as conn:
            conn.execute(actions.insert().values(**{**row, "notation": "P1 income 3b"}))
    store.close()


def test_concurrent_writers_of_the_same_move_one_wins(db_url):
    """Two stores (as two processes would) race to append move n: exactly one succeeds."""
    stores = [Store(db_url), Store(db_url, run_migrations=False)]
    gid, _ = stores[0].create_game("trambahn", 1, {}, 1, {}, [("human", "A"), ("human", "B")])
    for seq in range(12):
        barrier = threading.Barrier(4)

        def write(i: int, seq: int = seq, barrier: threading.Barrier = barrier) -> bool:
            barrier.wait()
            try:
                stores[i % 2].append(gid, seq, ActionRow(seq, f"move {seq} by {i}", 1, False),
                                     [f"line {i}"], "active")
                return True
            except Conflict:
                return False

        with ThreadPoolExecutor(4) as pool:
            won = list(pool.map(write, range(4)))
        assert won.count(True) == 1
    game, rows, lines = stores[1].load(gid)
    assert game.n == 12 and game.rev == 12 and [r.seq for r in rows] == list(range(12))
    assert len(lines) == 12
    for s in stores:
        s.close()


def test_concurrent_requests_from_two_servers_never_corrupt_a_game(db_url):
    """Clients of two app instances on one database post competing moves at once."""
    with make_client(db_url) as a, make_client(db_url) as b:
        created = new_game(a)
        gid = created["id"]
        for n in range(8):
            seat = a.get(f"/api/games/{gid}").json()["to_act"][0]
            t1 = token_of(created, seat)
            legal = a.get(f"/api/games/{gid}", headers=auth(t1)).json()["legal"]
            candidates = [m for m in legal if not m.endswith(" end")][:4] or legal
            barrier = threading.Barrier(len(candidates))

            def post(i: int, n: int = n, barrier: threading.Barrier = barrier,
                     candidates: list[str] = candidates, t1: str = t1) -> int:
                client = (a, b)[i % 2]
                barrier.wait()
                return client.post(f"/api/games/{gid}/moves",
                                   json={"n": n, "action": candidates[i]},
                                   headers=auth(t1)).status_code

            with ThreadPoolExecutor(len(candidates)) as pool:
                codes = list(pool.map(post, range(len(candidates))))
            assert codes.count(200) == 1 and set(codes) <= {200, 409}, codes
        seen_a = a.get(f"/api/games/{gid}", headers=auth(t1)).json()
        seen_b = b.get(f"/api/games/{gid}", headers=auth(t1)).json()
        assert seen_a["n"] == seen_b["n"] == 8
        assert seen_a["view"] == seen_b["view"] and seen_a["moves"] == seen_b["moves"]


def test_no_acknowledged_move_is_lost_when_the_server_is_killed(db_url, tmp_path):
    """A real ``tramways serve`` is killed with SIGKILL while moves stream in; after a restart
    on the same database every acknowledged move is there, in order."""
    proc, base = start_server(db_url)
    acknowledged: list[str] = []
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            created = http.post("/api/games", json={"game": "trambahn",
                                                    "seats": ["human", "human"]}).json()
            gid = created["id"]
            tokens = [token_of(created, 1), token_of(created, 2)]
            stop = threading.Event()

            def stream() -> None:
                n = 0
                while not stop.is_set():
                    try:
                        state = http.get(f"/api/games/{gid}").json()
                        token = tokens[state["to_act"][0] - 1]
                        mine = http.get(f"/api/games/{gid}", headers=auth(token)).json()
                        move = mine["legal"][n % len(mine["legal"])]
                        r = http.post(f"/api/games/{gid}/moves",
                                      json={"n": mine["n"], "action": move}, headers=auth(token))
                    except httpx.HTTPError:
                        return
                    if r.status_code == 200:
                        acknowledged.append(move)
                    n += 1

            writer = threading.Thread(target=stream)
            writer.start()
            while len(acknowledged) < 40:
                time.sleep(0.01)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            stop.set()
            writer.join()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc, base = start_server(db_url)
    try:
        record = httpx.get(f"{base}/api/games/{gid}").json()
        assert record["n"] >= len(acknowledged) >= 40
        store = Store(db_url, run_migrations=False)
        _game, rows, _lines = store.load(gid)
        store.close()
        assert [r.notation for r in rows[: len(acknowledged)]] == acknowledged
    finally:
        proc.terminate()
        proc.wait()
