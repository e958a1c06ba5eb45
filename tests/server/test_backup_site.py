"""Backup and restore of a whole site (issue 24, item 6; docs/operations.md): accounts,
open games, chat, ratings, paces and clocks travel with the games, from SQLite to PostgreSQL
and back.  Restored into a fresh database, every table the backup carries holds the same
rows, every game gives the same payload, the accounts log in with their passwords and see
their games, the chat and the ratings are there, and the sessions are not (everyone logs in
again)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests.server.accounts.helpers import (
    csrf_of,
    links,
    make_app_client,
    open_and_fill,
    other_client,
    play_to_end,
    post_form,
    signup,
    uniq,
)
from tests.server.conftest import POSTGRES_ENV
from tramways.server.backup import GAME_TABLES, KEPT_OUT, carried_columns, site_tables

FILLED = {"site_keys", "accounts", "account_seats", "open_games", "open_seats", "chat",
          "ratings", "results", "game_pace", "seat_clocks"}
"""The tables the site below puts rows in (besides the games' own)."""


@contextmanager
def _fresh(kind: str, tmp_path: Path, name: str) -> Iterator[str]:
    """A new empty database: a SQLite file, or a PostgreSQL database dropped after."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / (name + '.sqlite3')}"
        return
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL: set {POSTGRES_ENV}")
    base = sa.engine.make_url(url)
    db = f"tramways_{name}_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{db}"')
    try:
        yield base.set(database=db).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{db}" WITH (FORCE)')
        admin.dispose()


def _chat(client: Any, gid: str, text: str) -> None:
    csrf = client.get("/api/account/csrf").json()["csrf"]
    r = client.post(f"/api/games/{gid}/chat", json={"text": text},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text


def _site(url: str) -> dict[str, Any]:
    """Two accounts with known passwords: a Trambahn game of theirs played to the end with
    chat (so rated), a game paced at 24 h a move with chat, and an open table waiting."""
    with make_app_client(url) as a:
        b = other_client(a)
        anna, bert = uniq("Anna"), uniq("Bert")
        signup(a, anna, "anna's password 1")
        signup(b, bert, "bert's password 2")
        done = open_and_fill(a, b)
        _chat(a, done, "good luck")
        _chat(b, done, "<i>you too</i>")
        play_to_end(a, done, {1: links(a)[done], 2: links(b)[done]})
        for _ in range(200):
            if a.app.state.accounts.is_rated(done):
                break
            time.sleep(0.05)
        assert a.app.state.accounts.is_rated(done)
        r = post_form(a, "/lobby/new", game="trambahn", seats="2", lang="en", pace="async",
                      hours="24", on_deadline="hand_over", bot="bot:strong")
        paced_table = r.headers["location"].rsplit("/", 1)[1]
        assert post_form(b, f"/lobby/{paced_table}/join").status_code == 303
        paced = str(a.app.state.accounts.open_game(paced_table).game_id)
        _chat(b, paced, "see you tomorrow")
        r = post_form(b, "/lobby/new", game="1840", seats="3", lang="de")
        assert r.status_code == 303
        return {"names": {anna: "anna's password 1", bert: "bert's password 2"},
                "games": [done, paced],
                "profile": {n: c.get("/api/account").json() for n, c in ((anna, a), (bert, b))}}


def _norm(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def _tables(url: str) -> tuple[set[str], dict[str, list[tuple[Any, ...]]]]:
    """Every table's name, and the carried rows of every table a backup carries."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            rows = {}
            for table in site_tables(conn):
                cols = carried_columns(table)
                found = conn.execute(sa.select(*(table.c[c] for c in cols))
                                     .order_by(*table.primary_key.columns))
                rows[table.name] = [tuple(_norm(v) for v in r) for r in found]
            rows["sessions"] = list(conn.execute(sa.text("SELECT id_hash FROM sessions")))
        return names, rows
    finally:
        engine.dispose()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tramways", *args], capture_output=True,
                          text=True, timeout=300)


def _public(url: str, games: list[str]) -> dict[str, Any]:
    """Each game's payload, record, chat and clocks (less what follows the server's clock:
    ``now`` and the seats' ``waiting_seconds``; ``since`` and ``deadline`` stay)."""
    with make_app_client(url) as c:
        seen = {}
        for gid in games:
            clocks = c.get(f"/api/games/{gid}/clocks").json()
            clocks.pop("now")
            for seat in clocks["seats"]:
                seat.pop("waiting_seconds")
            seen[gid] = (c.get(f"/api/games/{gid}").json(),
                         c.get(f"/api/games/{gid}/record").json(),
                         c.get(f"/api/games/{gid}/chat").json(), clocks)
        return seen


@pytest.mark.parametrize(("source_kind", "target_kind"), [
    ("sqlite", "sqlite"), ("sqlite", "postgresql"), ("postgresql", "sqlite"),
    ("postgresql", "postgresql")])
def test_backup_a_whole_site_restores_into_a_fresh_database(tmp_path: Path, source_kind: str,
                                                             target_kind: str) -> None:
    with _fresh(source_kind, tmp_path, "site") as source, \
            _fresh(target_kind, tmp_path, "restored") as target:
        site = _site(source)
        names, before = _tables(source)
        # no table escapes the backup: each is carried, a game's own, or left out on purpose
        assert names == set(before) - {"sessions"} | set(GAME_TABLES) | set(KEPT_OUT)
        assert all(before[t] for t in FILLED), [t for t in FILLED if not before[t]]
        assert before["sessions"]  # the site had sessions; the backup leaves them out
        public = _public(source, site["games"])

        backup = tmp_path / "site.jsonl"
        done = _cli("export-all", "--database", source, "-o", str(backup))
        assert done.returncode == 0, done.stderr
        assert done.stderr.startswith("exported 2 games")
        assert "hash" in backup.read_text() and "anna's password" not in backup.read_text()
        done = _cli("import-all", str(backup), "--database", target)
        assert done.returncode == 0, done.stderr
        assert done.stderr.startswith("imported 2 games")

        _names, after = _tables(target)
        assert after == {**before, "sessions": []}  # the same rows, no session
        restored = _public(target, site["games"])
        for gid in site["games"]:
            for i, part in enumerate(("payload", "record", "chat", "clocks")):
                assert restored[gid][i] == public[gid][i], (gid, part)
        with make_app_client(target) as c:
            for name, password in site["names"].items():
                c.cookies.clear()
                assert c.get("/api/account").status_code == 401  # logged out by the restore
                r = c.post("/account/login", data={"csrf": csrf_of(c), "name": name,
                                                   "password": password})
                assert r.status_code == 303, r.text
                assert c.get("/api/account").json() == site["profile"][name]
                assert set(links(c)) == set(site["games"])
            # the restored links hold their seats: the paced game's player to act moves
            paced = site["games"][1]
            state = c.get(f"/api/games/{paced}").json()
            token = links(c)[paced]
            mine = c.get(f"/api/games/{paced}", headers={"Authorization": f"Bearer {token}"})
            assert mine.json()["seat"] in (1, 2)
        again = _cli("import-all", str(backup), "--database", target)
        assert again.returncode == 2 and "already in the database" in again.stderr
        assert state["status"] == "active"


def test_backup_rows_of_an_unknown_table_or_with_other_columns_write_nothing(tmp_path: Path) -> None:
    import io
    import json

    from tramways.server.backup import BackupError, export_all, import_all

    source = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    with make_app_client(source) as a:
        signup(a, "Anna", "anna's password 1")
    out = io.StringIO()
    counts = export_all(source, out)
    assert (counts.games, counts.rows) == (0, {"accounts": 1, "site_keys": 2})
    lines = out.getvalue().splitlines()
    account = next(json.loads(t) for t in lines if '"accounts"' in t)
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    for bad, reason in (
            ({"table": "sessions", "row": {"id_hash": "x"}}, "not a table a backup restores"),
            ({"table": "accounts", "row": {**account["row"], "admin": True}}, "admin"),
            ({"table": "accounts", "row": {**account["row"], "created": "monday"}}, "no time")):
        with pytest.raises(BackupError, match=reason):
            import_all(target, [*lines, json.dumps(bad)])
        assert _tables(target)[1]["accounts"] == []  # nothing of the good lines either
    # a version 1 backup (games only) still restores
    header = {**json.loads(lines[0]), "version": 1}
    assert import_all(target, [json.dumps(header)]).games == 0
    assert import_all(target, lines).rows == {"accounts": 1, "site_keys": 2}
    assert len(_tables(target)[1]["accounts"]) == 1
