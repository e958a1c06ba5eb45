"""The done-when test of issue 25 (docs/async.md), with real processes: two ``tramways
serve`` on one database (PostgreSQL when ``TRAMWAYS_TEST_POSTGRES_URL`` is set, SQLite
otherwise: the ``db_url`` fixture runs it on both), their clocks moved by test-only offset
files (``TRAMWAYS_CLOCK_OFFSET_FILE``), one per process.

A 4-player 1840 game: two people on a 1-hour pace whose deadline hands a late seat to a bot,
the other two seats bots.  Person 1 programs a pass in every Share Round and a pass in the
auctions, person 2 programs buying W until holding 2 shares, then stops answering.  The
programs fire; person 2 is reminded half-way by process A (only A's clock has moved on: the
reminder cannot fire in B), A is killed (``kill -9``), and at the deadline process B hands
the seat to the rule bot (once); the game goes on to its end after CR6 with person 1
answering through both processes, then through B.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.server.conftest import start_server, stop_server

ENDS_WITHIN = 600.0  # seconds: the rule bots play three of the four seats


@pytest.fixture
def own_db_url(db_url: str) -> Iterator[str]:
    """``db_url``, on PostgreSQL a database of this test's own on the same server (dropped
    afterwards): each ``tramways serve`` resumes the bots of every unfinished game of its
    database, and the shared one holds the other tests' games (hundreds by the end of the
    suite), which the two processes would otherwise play to their end meanwhile."""
    if not db_url.startswith("postgresql"):
        yield db_url
        return
    url = sa.make_url(db_url)
    name = f"tw_async_{secrets.token_hex(4)}"
    admin = sa.create_engine(url, poolclass=sa.pool.NullPool, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield url.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def _fired(url: str, game_id: str) -> list[tuple[int, str, bool]]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT seat, stage, done FROM deadline_fired WHERE game_id = :g "
                "ORDER BY stage"), {"g": game_id}).all()
    finally:
        engine.dispose()
    return [(int(r[0]), str(r[1]), bool(r[2])) for r in rows]


def _choose(legal: list[str]) -> str:
    """Person 1's own move when no program plays it: a pass if there is one, else the
    first legal move that is not a program."""
    plain = [a for a in legal if " program " not in a]
    passes = [a for a in plain if a.endswith(" pass")]
    return (passes or plain)[0]


def test_async_a_paced_game_with_programs_and_a_silent_seat_finishes_on_its_own(
        own_db_url: str, tmp_path: Path) -> None:
    db_url = own_db_url
    offset_a, offset_b = tmp_path / "clock-offset-a", tmp_path / "clock-offset-b"
    env = {"TRAMWAYS_DEADLINE_SWEEP_SECONDS": "0.2", "TRAMWAYS_BOT_SWEEP_SECONDS": "1"}
    for offset in (offset_a, offset_b):
        offset.write_text("0")
    a, base_a = start_server(db_url, None, "--moves-per-second", "0",
                             env={**env, "TRAMWAYS_CLOCK_OFFSET_FILE": str(offset_a)})
    b, base_b = start_server(db_url, None, "--moves-per-second", "0",
                             env={**env, "TRAMWAYS_CLOCK_OFFSET_FILE": str(offset_b)})
    try:
        with httpx.Client(timeout=30) as http:
            made = http.post(f"{base_a}/api/games", json={
                "game": "1840", "seats": ["human", "human", "bot:rule", "bot:rule"]}).json()
            gid, t1, t2 = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
            h1, h2 = ({"Authorization": f"Bearer {t}"} for t in (t1, t2))
            assert http.post(f"{base_a}/api/games/{gid}/pace", headers=h1, json={
                "hours": 1, "on_deadline": "hand_over", "bot": "bot:rule"}).status_code == 200

            def post(base: str, headers: dict[str, str], action: str) -> httpx.Response:
                """The move at the record's current length; asked again when a bot's move
                came between the read and the post (409: the record moved on)."""
                for _ in range(20):
                    n = http.get(f"{base}/api/games/{gid}").json()["n"]
                    reply = http.post(f"{base}/api/games/{gid}/moves", headers=headers,
                                      json={"n": n, "action": action})
                    if reply.status_code != 409:
                        break
                return reply

            for action in ("P1 program pass always indefinitely", "P1 program auctions"):
                assert post(base_a, h1, action).status_code == 200
            assert post(base_b, h2, "P2 program buy W 2 then-pass").status_code == 200

            end = time.monotonic() + ENDS_WITHIN
            bases = [base_a, base_b]
            reminded = handed = False
            moves_by_person_1 = 0
            while time.monotonic() < end:
                base = bases[moves_by_person_1 % len(bases)]
                state = http.get(f"{base}/api/games/{gid}", headers=h1).json()
                if state["status"] == "over":
                    break
                seat2 = state["seats"][1]["kind"]
                if 1 in state["to_act"] and state["legal"]:
                    reply = http.post(f"{base}/api/games/{gid}/moves", headers=h1, json={
                        "n": state["n"], "action": _choose(state["legal"])})
                    assert reply.status_code in (200, 409), reply.text
                    moves_by_person_1 += 1
                elif 2 in state["to_act"] and seat2 == "human" and not reminded:
                    # the seat's clock runs (set by whichever process touched it first, on
                    # the unmoved clocks) before A's clock moves on
                    while http.get(f"{base_b}/api/games/{gid}/clocks").json()[
                            "seats"][1]["since"] is None:
                        assert time.monotonic() < end, "seat 2's clock never started"
                        time.sleep(0.05)
                    offset_a.write_text(str(31 * 60))  # half the pace, in A only: A reminds
                    while not any(s == "remind" and done for _p, s, done in _fired(db_url, gid)):
                        assert time.monotonic() < end, "no reminder"
                        time.sleep(0.1)
                    reminded = True
                    assert _fired(db_url, gid) == [(2, "remind", True)]  # no hand-over yet
                    a.kill()  # kill -9 of the process that reminded
                    a.wait()
                    bases = [base_b]
                    offset_b.write_text(str(62 * 60))  # the deadline, in B: B hands it over
                elif seat2 != "human" and not handed:
                    handed = True
                else:
                    time.sleep(0.05)
            else:
                pytest.fail(f"the game did not end within {ENDS_WITHIN} s")
            final = http.get(f"{base_b}/api/games/{gid}").json()
            record = http.get(f"{base_b}/api/games/{gid}/record").json()
        log = "\n".join(final["log"])
        assert final["status"] == "over" and final["view"]["finished"]
        assert "CR6" in log or final["view"]["round"].startswith("CR6")
        assert reminded and handed
        assert final["seats"][1]["kind"] == "bot:rule"
        assert "Player 1's programmed action" in log
        assert "Player 2's programmed action" in log or "Player 2 programs" in log
        assert log.count("'s deadline passed: the computer (rule) plays the seat") == 1
        assert sorted(_fired(db_url, gid)) == [(2, "deadline", True), (2, "remind", True)]
        assert record["settings"]["programs"] is True
    finally:
        for proc in (a, b):
            if proc.poll() is None:
                stop_server(proc)
