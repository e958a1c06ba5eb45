"""Backup and restore (``tramways export-all`` / ``import-all``): a site exported from
SQLite and imported into a fresh database (SQLite, and PostgreSQL when available) is the same
site: every game replays to the same payload for every seat and spectator, the seat links
(their tokens) still hold their seats and can move, the "your turn" settings and the finished
games' records are back; a bad backup or a game already present writes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.server.conftest import make_client
from tests.server.helpers import auth, new_game, token_of
from tramways.server.backup import FORMAT, BackupError, GameLine, import_all
from tramways.server.storage import actions, games, log, seats


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tramways", *args], capture_output=True,
                          text=True, timeout=300)


def _play(client, gid: str, tokens: dict[int, str], moves: int) -> None:
    """``moves`` moves, each the first legal one of the seat to act."""
    for _ in range(moves):
        state = client.get(f"/api/games/{gid}").json()
        seat = state["to_act"][0]
        mine = client.get(f"/api/games/{gid}", headers=auth(tokens[seat])).json()
        r = client.post(f"/api/games/{gid}/moves", json={"n": mine["n"], "action": mine["legal"][0]},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def _site(url: str) -> dict[str, dict[int, str]]:
    """A small site: Trambahn played and with an undo, an 1840 game begun, a finished game of
    bots, a seat with an e-mail address; the seat tokens of each game."""
    out: dict[str, dict[int, str]] = {}
    with make_client(url) as c:
        t = new_game(c)
        tokens = {1: token_of(t, 1), 2: token_of(t, 2)}
        _play(c, t["id"], tokens, 12)
        n = c.get(f"/api/games/{t['id']}").json()["n"]
        state = c.get(f"/api/games/{t['id']}").json()
        seat = state["to_act"][0]
        _play(c, t["id"], tokens, 1)
        assert c.post(f"/api/games/{t['id']}/undo", json={"n": n + 1},
                      headers=auth(tokens[seat])).status_code == 200
        assert c.put(f"/api/games/{t['id']}/notify", json={"email": "ann@example.org"},
                     headers=auth(tokens[1])).status_code == 200
        out[t["id"]] = tokens
        g = new_game(c, game="1840", seats=["human", "human", "human"])
        out[g["id"]] = {s: token_of(g, s) for s in (1, 2, 3)}
        _play(c, g["id"], out[g["id"]], 5)
        bots = new_game(c, seats=["bot:random", "bot:random"])
        assert c.app.state.service.wait_for_bots(120)
        assert c.get(f"/api/games/{bots['id']}").json()["status"] == "over"
        out[bots["id"]] = {}
    return out


def _views(url: str, site: dict[str, dict[int, str]]) -> dict[str, object]:
    """Every payload of every seat and of a spectator, the records, the notify settings."""
    seen: dict[str, object] = {}
    with make_client(url) as c:
        for gid, tokens in site.items():
            seen[f"{gid}/-"] = c.get(f"/api/games/{gid}").json()
            for seat, token in tokens.items():
                seen[f"{gid}/{seat}"] = c.get(f"/api/games/{gid}", headers=auth(token)).json()
                seen[f"{gid}/{seat}/notify"] = c.get(f"/api/games/{gid}/notify",
                                                     headers=auth(token)).json()
            record = c.get(f"/api/games/{gid}/record")
            seen[f"{gid}/record"] = (record.status_code, record.json())
    return seen


@pytest.fixture
def target(db_url: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a new SQLite file, or a new PostgreSQL database dropped after."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    base = sa.engine.make_url(db_url)
    name = f"tramways_restore_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.dispose()


def _counts(url: str) -> tuple[int, ...]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(int(conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one())
                         for t in (games, seats, actions, log))
    finally:
        engine.dispose()


def test_export_from_sqlite_import_into_a_fresh_database_is_the_same_site(tmp_path, target):
    source = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    site = _site(source)
    backup = tmp_path / "games.jsonl"
    done = _cli("export-all", "--database", source, "-o", str(backup))
    assert done.returncode == 0, done.stderr
    assert "exported 3 games" in done.stderr
    lines = backup.read_text().splitlines()
    games_lines = [t for t in lines[1:] if not t.startswith('{"table"')]
    assert json.loads(lines[0])["format"] == FORMAT and len(games_lines) == 3
    # after the games, the rows of the other tables (here the site's secret and seat mark)
    assert [json.loads(t)["table"] for t in lines[4:]] == ["site_keys", "site_keys"]
    exported = [GameLine.model_validate_json(t) for t in games_lines]
    assert {g.id for g in exported} == set(site)
    assert all(s.token_hash and len(s.token_hash) == 64 for g in exported for s in g.seats)
    assert {g.status for g in exported} == {"active", "over"}

    done = _cli("import-all", str(backup), "--database", target)
    assert done.returncode == 0, done.stderr
    assert "imported 3 games" in done.stderr
    assert _counts(target) == _counts(source)
    assert _views(target, site) == _views(source, site)
    # the seat links still hold their seats: the player to act moves on the restored site
    with make_client(target) as c:
        gid, tokens = next((g, t) for g, t in site.items() if len(t) == 2)
        state = c.get(f"/api/games/{gid}").json()
        mine = c.get(f"/api/games/{gid}", headers=auth(tokens[state["to_act"][0]])).json()
        assert mine["seat"] == state["to_act"][0] and mine["legal"]
        r = c.post(f"/api/games/{gid}/moves", json={"n": mine["n"], "action": mine["legal"][0]},
                   headers=auth(tokens[state["to_act"][0]]))
        assert r.status_code == 200 and r.json()["n"] == mine["n"] + 1
        mine_games = c.post("/api/games/mine", json={"tokens": [tokens[1]]}).json()
        assert [(g["id"], g["seat"]) for g in mine_games] == [(gid, 1)]


def test_a_restore_is_all_or_nothing(tmp_path):
    source = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    target = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    _site(source)
    backup = tmp_path / "games.jsonl"
    assert _cli("export-all", "--database", source, "-o", str(backup)).returncode == 0
    lines = [t for t in backup.read_text().splitlines() if not t.startswith('{"table"')]
    # the last game's record tampered with: its first action is no move of that game
    bad = json.loads(lines[-1])
    bad["actions"][0]["notation"] = "P1 buys the moon"
    with pytest.raises(BackupError, match="does not replay"):
        import_all(target, [*lines[:-1], json.dumps(bad)])
    assert _counts(target) == (0, 0, 0, 0)  # the good games before it were not kept either
    done = _cli("import-all", str(backup), "--database", target)
    assert done.returncode == 0, done.stderr
    again = _cli("import-all", str(backup), "--database", target)
    assert again.returncode == 2 and "already in the database" in again.stderr
    assert again.stderr.count("\n") == 1  # one line, no traceback
    assert _counts(target) == _counts(source)
    with pytest.raises(BackupError, match="header"):
        import_all(target, lines[1:])  # no header line
    with pytest.raises(BackupError, match="line 2"):
        import_all(target, [lines[0], '{"id": "x"}'])


def test_export_all_of_a_missing_database_is_one_line(tmp_path):
    done = _cli("export-all", "--database", f"sqlite:///{tmp_path}/missing/db.sqlite3",
                "-o", str(tmp_path / "out.jsonl"))
    assert done.returncode == 2 and done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "out.jsonl").exists()


def test_the_backup_lines_carry_every_column_of_the_tables():
    """A column added to a table without the backup knowing it would be lost on restore."""
    from tramways.server.backup import ActionLine, LogLine, SeatLine

    assert set(GameLine.model_fields) - {"seats", "actions", "log"} == {c.name for c in games.c}
    assert set(SeatLine.model_fields) == {c.name for c in seats.c} - {"game_id"}
    assert set(ActionLine.model_fields) == {c.name for c in actions.c} - {"game_id"}
    assert set(LogLine.model_fields) == {c.name for c in log.c} - {"game_id", "id"}

