"""What a server process remembers of a game (its pace, its notification targets:
``tramways.server.facts``) and the move written in one statement on PostgreSQL
(``tramways.server.pgappend``): the per-move queries are gone, and a change made through
another process is still seen (docs/load.md, docs/async.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient

from tests.server.test_notify import _Hooks
from tramways.server import ServerSettings, create_app
from tramways.server.database import NOTIFY_CHANNEL, libpq_conninfo
from tramways.server.facts import GameFacts
from tramways.server.rows import ActionRow, Conflict, Written
from tramways.server.storage import Store


def test_a_fact_is_read_once_and_read_again_after_it_is_forgotten() -> None:
    facts = GameFacts(enabled=True)
    reads: list[str] = []

    def read(answer: bool) -> bool:
        reads.append("read")
        return answer

    assert facts.get("g1", "paced", lambda: read(False)) is False
    assert facts.get("g1", "paced", lambda: read(True)) is False  # kept: no second read
    assert facts.get("g1", "targets", lambda: read(True)) is True  # another question
    assert len(reads) == 2
    facts.forget("g1")
    assert facts.get("g1", "paced", lambda: read(True)) is True
    facts.forget()  # every game (a lost LISTEN)
    assert facts.get("g1", "paced", lambda: read(False)) is False
    assert len(reads) == 4 and facts.reads == 4


def test_an_answer_read_while_the_game_was_forgotten_is_not_kept() -> None:
    """A read that began before a write's commit may have the old answer: the write's
    forgetting comes during the read, and the answer is used once but not kept."""
    facts = GameFacts(enabled=True)
    answers = iter([False, True])

    def read_across_a_write() -> bool:
        answer = next(answers)
        facts.forget("g1")  # the write commits (and is heard of) while this read runs
        return answer

    assert facts.get("g1", "paced", read_across_a_write) is False
    assert facts.get("g1", "paced", lambda: next(answers)) is True  # read again
    assert facts.get("g1", "paced", lambda: False) is True  # now kept


def test_without_notifications_every_question_goes_to_the_database() -> None:
    """SQLite (no NOTIFY; several processes may share the file): nothing is kept."""
    facts = GameFacts(enabled=False)
    assert facts.get("g1", "paced", lambda: False) is False
    assert facts.get("g1", "paced", lambda: True) is True
    assert facts.reads == 2


def test_a_settings_change_travels_as_its_own_notify_payload() -> None:
    change = Written.settings_of("g1")
    assert change.payload() == "g1 settings"
    assert Written.parse(change.payload()) == change
    assert Written.parse("g1 3") == Written("g1", 3)  # a revision is not a settings change


@pytest.fixture
def pg_url(db_url: str) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("the facts are kept on PostgreSQL only (its NOTIFY tells of changes)")
    return db_url


def _new_game(store: Store) -> str:
    gid, _tokens = store.create_game("trambahn", 1, {}, 1, {}, [("human", "A"), ("human", "B")])
    return gid


def test_a_move_written_in_one_statement_is_announced_as_written(pg_url: str) -> None:
    """The move's statement writes the row, the action and the lines in their order, and its
    NOTIFY carries the id of the last line: the same payload as ``Written.payload``."""
    store = Store(pg_url)
    conninfo = libpq_conninfo(pg_url)
    try:
        gid = _new_game(store)
        with psycopg.connect(conninfo, autocommit=True) as listener:
            listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
            action = ActionRow(0, "P1 play x y", 1, False)
            last = store.append(gid, 0, action, ["first", "second", "third"], "active")
            quiet = store.append(gid, 1, ActionRow(1, "pass", None, True), [], "over")
            heard: list[str] = []  # this game's only: other tests share the channel
            for note in listener.notifies(timeout=5):
                if note.payload.startswith(f"{gid} "):
                    heard.append(note.payload)
                if len(heard) == 2:
                    break
        assert last is not None and quiet is None
        assert heard == [Written(gid, 1, action, last, 3).payload(),
                         Written(gid, 2, ActionRow(1, "pass", None, True), None, 0).payload()]
        loaded = store.load_lines(gid, 0, 0)
        assert loaded is not None and loaded.lines == ["first", "second", "third"]
        assert loaded.log_id == last and loaded.seqs == [0, 0, 0]
        assert loaded.row.n == 2 and loaded.row.rev == 2 and loaded.row.status == "over"
        assert [(a.seq, a.notation, a.seat, a.reveals) for a in loaded.actions] == [
            (0, "P1 play x y", 1, False), (1, "pass", None, True)]
        with pytest.raises(Conflict):  # a stale revision: nothing written
            store.append(gid, 1, ActionRow(2, "pass", 2, False), ["late"], "active")
        with pytest.raises(Conflict):  # a move number written already
            store.append(gid, 2, ActionRow(1, "pass", 2, False), ["again"], "active")
        after = store.load_lines(gid, 0, 0)
        assert after is not None and after.row.rev == 2 and after.lines == loaded.lines
    finally:
        store.close()


@pytest.fixture
def hooks() -> Iterator[_Hooks]:
    server = _Hooks()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _client(url: str) -> TestClient:
    return TestClient(create_app(ServerSettings(
        database_url=url, moves_per_second=0, games_per_minute=0, bot_games_per_hour=0,
        max_bot_games=0, allow_loopback_webhooks=True)))


def _until(check: object, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, "not seen in time"
        time.sleep(0.02)


def _pass_turn(client: TestClient, gid: str, tokens: list[str]) -> int:
    """Play the first legal moves of whoever acts until the turn passes; the seat to act."""
    first = client.get(f"/api/games/{gid}").json()["to_act"][0]
    while True:
        mine = client.get(f"/api/games/{gid}?token={tokens[first - 1]}").json()
        r = client.post(f"/api/games/{gid}/moves?token={tokens[first - 1]}",
                        json={"n": mine["n"], "action": mine["legal"][0]})
        assert r.status_code == 200, r.text
        if first not in r.json()["to_act"]:
            return int(r.json()["to_act"][0])


def test_a_webhook_set_through_one_process_is_used_by_the_other(pg_url: str,
                                                                 hooks: _Hooks) -> None:
    """Process B remembers that the game has no targets; A sets a webhook: B hears of it
    (``GAME settings``) and its next move that passes the turn calls the webhook."""
    with _client(pg_url) as a, _client(pg_url) as b:
        assert a.app.state.listening.wait(20) and b.app.state.listening.wait(20)
        r = a.post("/api/games", json={"game": "1840", "seats": ["human", "human"]})
        gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
        _pass_turn(b, gid, tokens)
        b.app.state.notifier.wait_idle()
        store = b.app.state.store
        assert store.facts.holds(gid, "targets")  # remembered: no webhook
        assert store.known_targets(gid).webhook is None
        url = f"http://127.0.0.1:{hooks.server_address[1]}/hook"
        assert a.put(f"/api/games/{gid}/notify?token={tokens[0]}",
                     json={"webhook": url}).status_code == 200
        _until(lambda: not store.facts.holds(gid, "targets"))  # forgotten in B
        told = _pass_turn(b, gid, tokens)
        assert hooks.got.wait(20)
        b.app.state.notifier.wait_idle()
    assert [body["seats"][0]["seat"] for body in hooks.bodies] == [told]


def test_a_pace_set_through_one_process_starts_the_clocks_of_the_others_moves(
        pg_url: str) -> None:
    """Process B remembers that the game has no pace (it asked after its own move); a seat
    sets a pace through A: B hears of it, and its next move starts the clock of the seat
    that comes to act (docs/async.md)."""
    with _client(pg_url) as a, _client(pg_url) as b:
        assert a.app.state.listening.wait(20) and b.app.state.listening.wait(20)
        r = a.post("/api/games", json={"game": "1840", "seats": ["human", "human"]})
        gid, tokens = r.json()["id"], [s["token"] for s in r.json()["seats"]]
        _pass_turn(b, gid, tokens)
        clocks = b.app.state.deadlines.store
        assert clocks.paced(gid) is False
        assert a.post(f"/api/games/{gid}/pace?token={tokens[0]}",
                      json={"hours": 24}).status_code == 200
        _until(lambda: clocks.paced(gid))
        to_act = _pass_turn(b, gid, tokens)
        n = b.get(f"/api/games/{gid}").json()["n"]
        assert clocks.clocks(gid)[to_act].n == n  # started by B's move
