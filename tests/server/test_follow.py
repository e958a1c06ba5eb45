"""Another process's move, announced by PostgreSQL ``NOTIFY`` with the move itself, is played
on this process's cached position (``Positions.follow``): the cache is current before this
process's next write and before its sockets' frames, and it always equals a replay of the
record from the database (issue 29: the PostgreSQL path's cost per move)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any
from unittest.mock import patch

import pytest

from tramways.server.database import listen
from tramways.server.errors import ApiError
from tramways.server.positions import Live
from tramways.server.rows import ActionRow, Written
from tramways.server.service import GameService
from tramways.server.storage import Store


def test_a_written_move_travels_as_a_notify_payload_and_back():
    move = Written("g1", 8, ActionRow(7, "P1 lay 3 at B2 r1", 2, True), 4711, 3)
    assert move.payload() == "g1 8 7 2 1 4711 3 P1 lay 3 at B2 r1"
    assert Written.parse(move.payload()) == move
    quiet = Written("g1", 9, ActionRow(8, "pass", None, False), None, 0)
    assert Written.parse(quiet.payload()) == quiet
    assert Written.parse(Written("g1", 10).payload()) == Written("g1", 10)  # an undo
    assert Written.parse("chat:g1 0") == Written("chat:g1", 0)  # the chat's own payloads
    long = Written("g1", 8, ActionRow(7, "x" * 8000, 1, False), 1, 1)
    assert long.payload() == "g1 8"  # over PostgreSQL's limit: announced without the move


@pytest.fixture
def pg_url(db_url: str) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("the moves travel with PostgreSQL's NOTIFY")
    return db_url


class _Process:
    """A game service with its own store and ``LISTEN`` thread: a server process.  It keeps
    what its listener saw (``heard``: each notification's game and ``rev``; ``connections``:
    how many times it connected), which :func:`_settled` tells when a cache does not follow."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        self.service = GameService(self.store, bot_workers=1)
        self.heard: list[tuple[str, int]] = []
        self.connections = 0
        self.stop, ready = threading.Event(), threading.Event()
        self.thread = threading.Thread(
            target=listen, args=(url, self._publish, self.stop, ready, self._connected),
            daemon=True)
        self.thread.start()
        assert ready.wait(20)

    def _publish(self, written: Written) -> None:
        self.heard.append((written.game_id, written.rev))
        self.service.follow(written)

    def _connected(self) -> None:
        self.connections += 1

    def seen(self, gid: str) -> str:
        """What this process saw of ``gid``: the revisions its listener heard, how many
        times it connected, its cached revision and how its ``follow`` calls went."""
        cached = self.service.cached(gid)
        return (f"heard revs {[rev for g, rev in self.heard if g == gid]}, "
                f"LISTEN connected {self.connections} time(s), cached rev "
                f"{None if cached is None else cached.rev}, "
                f"follows {dict(self.service.follows)}")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        self.service.close()
        self.store.close()


@pytest.fixture
def processes(pg_url: str) -> Iterator[tuple[_Process, _Process, Store]]:
    a, b, c = _Process(pg_url), _Process(pg_url), Store(pg_url)
    try:
        yield a, b, c
    finally:
        a.close()
        b.close()
        c.close()


def _settled(process: _Process, store: Store, gid: str, timeout: float = 30.0,
             others: tuple[_Process, ...] = ()) -> Live:
    """``process``'s cached position of ``gid`` once it is the database's; on time-out, the
    failure tells what this process and ``others`` saw."""
    end = time.monotonic() + timeout
    while True:
        cached = process.service.cached(gid)
        rev = store.rev(gid)
        if cached is not None and cached.rev == rev:
            return cached
        if time.monotonic() >= end:
            seen = "; ".join(f"{name}: {p.seen(gid)}"
                             for name, p in (("this", process), *(("other", o) for o in others)))
            raise AssertionError(f"the cache of {gid} did not follow rev {rev}: {seen}")
        time.sleep(0.01)


def _same_as_replay(live: Live, store: Store) -> None:
    fresh_service = GameService(store, bot_workers=1)
    try:
        fresh = fresh_service._rebuild(live.row.id)
        assert live.row == fresh.row and live.log == fresh.log and live.log_id == fresh.log_id
        assert live.actions == fresh.actions and live.played == fresh.played
        for seat in (None, *range(1, len(live.seats) + 1)):
            assert fresh_service.payload(live, seat) == fresh_service.payload(fresh, seat)
    finally:
        fresh_service.close()


def _play_one(service: GameService, gid: str, tokens: list[str], rng: random.Random) -> bool:
    spectator = service.state(gid, None)
    if spectator["status"] != "active":
        return False
    seat = spectator["to_act"][0]
    mine = service.state(gid, service.seat_for(gid, tokens[seat - 1]))
    if not mine["legal"]:
        return True  # the other process moved in between
    try:
        service.move(gid, seat, mine["n"], rng.choice(mine["legal"]))
    except ApiError as exc:
        assert exc.status in (403, 409, 422)  # the other process was first
    return True


def test_moves_alternating_between_processes_are_followed_without_a_catch_up(processes):
    """Moves alternate between two processes (a balancer without sticky sessions): each
    process's cache follows the other's moves from their notifications, so no write meets a
    stale cache and no read catches up from the database; the caches equal a replay."""
    a, b, store = processes
    created = a.service.create("trambahn", {}, ["human", "human"])
    gid = created["id"]
    a.service.state(gid, None)
    b.service.state(gid, None)  # both processes hold the game
    catch_ups: list[str] = []
    for p in (a, b):
        real = p.service._catch_up
        p.service._catch_up = (  # type: ignore[method-assign]
            lambda cached, real=real: (catch_ups.append(cached.row.id), real(cached))[1])
    rng = random.Random(29)
    for i in range(40):
        mover, other = (a, b) if i % 2 == 0 else (b, a)
        cached = mover.service.cached(gid)
        assert cached is not None
        seat = [p + 1 for p in cached.state.current_players()][0]
        legal = mover.service.payload(cached, seat)["legal"]
        mover.service.move(gid, seat, cached.n, rng.choice(legal))
        _settled(other, store, gid, others=(mover,))  # the other followed the move
    assert catch_ups == []
    for p in (a, b):
        _same_as_replay(_settled(p, store, gid), store)


def test_caches_under_concurrent_writers_equal_a_replay_from_the_database(processes):
    """Two processes write the same games at once (refused moves included): once the
    notifications are in, each process's cached position is the database's position,
    equal to a replay of its record."""
    a, b, store = processes
    games = []
    for _ in range(3):
        created = a.service.create("trambahn", {}, ["human", "human"])
        games.append((created["id"], [s["token"] for s in created["seats"]]))

    def writer(p: _Process, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(30):
            gid, tokens = rng.choice(games)
            _play_one(p.service, gid, tokens, rng)

    threads = [threading.Thread(target=writer, args=(p, seed))
               for p, seed in ((a, 1), (b, 2), (a, 3), (b, 4))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for gid, _tokens in games:
        assert (store.rev(gid) or 0) > 5
        for p in (a, b):
            _same_as_replay(_settled(p, store, gid), store)


def test_a_move_of_this_process_makes_one_frame_though_its_notify_wakes_the_socket_again(
        pg_url):
    """On PostgreSQL a move of this process wakes its sockets twice (at once, and by its own
    ``NOTIFY``): the second wake builds no frame."""
    import tramways.server.api as api
    from tests.server.conftest import make_client
    from tests.server.helpers import auth, new_game, token_of

    frames: list[int | None] = []
    on_loop, in_thread = api.frame_on_loop, api.frame

    def built_on_loop(*args: Any) -> Any:
        found = on_loop(*args)
        if found is not None:
            frames.append(args[-1])
        return found

    def built_in_thread(*args: Any) -> Any:
        frames.append(args[-1])
        return in_thread(*args)

    with make_client(pg_url) as c, \
            patch.object(api, "frame_on_loop", built_on_loop), \
            patch.object(api, "frame", built_in_thread):
        assert c.app.state.listening.wait(20)
        created = new_game(c)
        gid, tokens = created["id"], [token_of(created, 1), token_of(created, 2)]
        with c.websocket_connect(f"/api/games/{gid}/live") as ws:
            first = ws.receive_json()
            for i in range(3):
                seat = c.get(f"/api/games/{gid}").json()["to_act"][0]
                held = c.get(f"/api/games/{gid}", headers=auth(tokens[seat - 1])).json()
                c.post(f"/api/games/{gid}/moves", json={"n": i, "action": held["legal"][0]},
                       headers=auth(tokens[seat - 1]))
                assert ws.receive_json()["rev"] == first["rev"] + i + 1
                time.sleep(0.3)  # the move's own NOTIFY comes back meanwhile
        assert frames == [first["rev"] + 1, first["rev"] + 2, first["rev"] + 3]


def test_a_move_is_not_followed_while_this_process_writes_the_game(processes):
    """While this process holds the game's write lock (its own write in flight: the very move
    announced, or a write whose compare-and-set will fail and catch up), a notification
    leaves the cached position alone; once the lock is free it is followed."""
    a, b, store = processes
    created = a.service.create("trambahn", {}, ["human", "human"])
    gid = created["id"]
    held = a.service.live(gid)
    seat = held.state.current_players()[0] + 1
    b.service.state(gid, None)
    b.stop.set()  # b's own LISTEN thread is stopped: the notification is handed in below
    b.thread.join(5)
    a.service.move(gid, seat, 0, a.service.payload(held, seat)["legal"][0])
    row = store.load_since(gid, 0, 0)
    assert row is not None
    game_row, acts, lines, log_id = row
    written = Written(gid, game_row.rev, acts[0], log_id, len(lines) - len(held.log))
    with b.service._lock(gid):
        b.service.follow(written)
        assert b.service.cached(gid).rev == game_row.rev - 1  # not while the lock is held
    b.service.follow(written)
    followed = b.service.cached(gid)
    assert followed.rev == game_row.rev
    _same_as_replay(followed, store)


def test_a_move_announced_while_this_process_holds_the_game_is_followed_on_release(processes):
    """The ``LISTEN`` thread does not wait for a writer of this process: a move announced
    while the game's lock is held (a write, or a catch-up that read the record just before
    that move) is kept, and followed when the lock is released, so the cache does not stay
    one move behind until the next request."""
    a, b, store = processes
    created = a.service.create("trambahn", {}, ["human", "human"])
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    b.service.state(gid, None)  # b holds the game
    guard = b.service._lock(gid)
    with guard:
        assert _play_one(a.service, gid, tokens, random.Random(5))
        end = time.monotonic() + 20
        while not guard.missed:  # the move's NOTIFY reached b while its lock was held
            assert time.monotonic() < end, "the move was not announced"
            time.sleep(0.01)
        cached = b.service.cached(gid)
        assert cached is not None and cached.rev == store.rev(gid) - 1
    cached = b.service.cached(gid)
    assert cached is not None and cached.rev == store.rev(gid)
    assert guard.missed == []
    _same_as_replay(cached, store)


def test_a_move_announced_while_an_earlier_one_waits_for_the_lock_is_followed_after_it(
        sqlite_url):
    """A write of this process releases the game's lock and, before its hand-over runs, the
    ``LISTEN`` thread brings the next move: that move is not tried before the one waiting
    (the cache is two moves behind it: it was dropped, and the cache stayed a move behind);
    both are followed, in the order of their revisions."""
    writer_store, store = Store(sqlite_url), Store(sqlite_url)
    writer = GameService(writer_store, bot_workers=1)
    follower = GameService(store, bot_workers=1)
    try:
        gid = writer.create("trambahn", {}, ["human", "human"])["id"]
        follower.state(gid, None)  # the follower holds the game
        sent: list[Written] = []
        with patch.object(writer_store, "_notify", lambda _conn, w: sent.append(w)):
            for _ in range(2):
                live = writer.live(gid)
                seat = live.state.current_players()[0] + 1
                writer.move(gid, seat, live.n, writer.payload(live, seat)["legal"][0])
        first, second = sent
        guard = follower._lock(gid)
        guard.lock.acquire()  # a write of this process holds the game
        follower.follow(first)  # left waiting for the writer
        guard.lock.release()  # the write ends; its hand-over has not run yet
        follower.follow(second)
        guard.hand_over()  # the write's hand-over
        followed = follower.cached(gid)
        assert followed is not None and followed.rev == store.rev(gid) == second.rev
        assert follower.follows["followed"] == 2 and guard.missed == []
        _same_as_replay(followed, store)
    finally:
        writer.close()
        follower.close()
        writer_store.close()
        store.close()


def test_a_failing_publish_costs_the_listener_neither_its_connection_nor_a_notification(
        pg_url, caplog):
    """A ``publish`` that raises is logged and the next notification is read on the same
    connection (it used to end the connection: the notifications sent while it connected
    again were lost, without a word)."""
    import psycopg

    from tramways.server.database import NOTIFY_CHANNEL, libpq_conninfo

    got: list[Written] = []
    connections: list[int] = []
    tag = f"failing-{random.randrange(10**9)}"  # the database is shared with other tests

    def publish(written: Written) -> None:
        if written.game_id != tag:
            return
        got.append(written)
        if len(got) == 1:
            raise RuntimeError("a listener failed")

    stop, ready = threading.Event(), threading.Event()
    thread = threading.Thread(target=listen, daemon=True, args=(
        pg_url, publish, stop, ready, lambda: connections.append(1)))
    thread.start()
    conninfo = libpq_conninfo(pg_url)
    try:
        assert ready.wait(20)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            for rev in (1, 2):
                conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{tag} {rev}"))
                end = time.monotonic() + 20
                while len(got) < rev:
                    assert time.monotonic() < end, f"notification {rev} was not published"
                    time.sleep(0.01)
        assert [w.rev for w in got] == [1, 2] and len(connections) == 1
        assert "could not be published" in caplog.text
    finally:
        stop.set()
        thread.join(5)
