"""Backup and restore of a site's games: every game as one line of JSON (``export-all`` /
``import-all``).

A line holds a whole game as the database holds it: the ``games`` row (settings, seed and
set-up, status, ``n``, ``rev``, times, the webhook), its seats (kind, name, the SHA-256 hash
of the seat's token, the e-mail address), its actions and its log.  A restored site is the
same site: the same game ids, the same seat links (the tokens themselves were never stored;
their hashes come back), the same positions, logs and "your turn" settings.  The first line
is a header (``ExportHeader``) naming the format and the schema revision it was written from.

The export reads one snapshot (PostgreSQL: a repeatable-read transaction; SQLite: one read
transaction), game by game, so its memory does not grow with the site.  The import migrates
the target, checks every line (its fields, and with ``check`` that its actions replay
through the engine to its ``n`` and status) and writes everything in one transaction: a bad
line, or a game id already in the target, writes nothing at all.  Rate-limit buckets are
not exported (they refill by themselves).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any, TypeVar

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, ValidationError

from tramways.core import TramwaysError
from tramways.server.database import make_engine, migrate
from tramways.server.tables import actions, games, log, seats

FORMAT = "tramways-games"
FORMAT_VERSION = 1


class BackupError(TramwaysError):
    """A backup that cannot be read or restored (names the line and the reason)."""


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportHeader(_Line):
    format: str
    version: int
    schema_revision: str
    exported: datetime


class SeatLine(_Line):
    seat: int
    kind: str
    name: str
    token_hash: str
    last_seen: datetime | None = None
    email: str | None = None
    email_lang: str | None = None


class ActionLine(_Line):
    seq: int
    notation: str
    seat: int | None
    reveals: bool
    created: datetime


class LogLine(_Line):
    seq: int | None
    text: str
    created: datetime


class GameLine(_Line):
    """One game: the columns of its ``games`` row, and its seats, actions and log."""

    id: str
    game: str
    version: int
    settings: dict[str, Any]
    seed: int
    setup: dict[str, Any]
    status: str
    n: int
    rev: int
    created: datetime
    updated: datetime
    finished: datetime | None = None
    webhook: str | None = None
    webhook_lang: str | None = None
    seats: list[SeatLine]
    actions: list[ActionLine]
    log: list[LogLine]


L = TypeVar("L", bound=_Line)


@dataclass(frozen=True)
class BackupCounts:
    games: int
    actions: int


def _schema_revision(conn: sa.Connection) -> str:
    try:
        found = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    except sa.exc.DBAPIError:
        found = None
    if not found:
        raise BackupError("the database holds no tramways schema (no alembic_version)")
    return str(found)


def known_revisions() -> set[str]:
    """The schema revisions this version of tramways knows (its Alembic migrations)."""
    from pathlib import Path

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    return {s.revision for s in ScriptDirectory.from_config(cfg).walk_revisions()}


def _rows(conn: sa.Connection, table: sa.Table, game_id: str, order: sa.Column[Any],
          model: type[L]) -> list[L]:
    """The rows of ``table`` for one game as ``model`` lines (the game id left out)."""
    columns = [c for c in table.c if c.name not in ("game_id", "id")]
    found = conn.execute(sa.select(*columns).where(table.c.game_id == game_id).order_by(order))
    return [model(**r) for r in found.mappings()]


def dump_games(url: str) -> Iterator[BaseModel]:
    """The header, then every game of the database at ``url`` (one snapshot), by id."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if url.startswith("postgresql"):
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield ExportHeader(format=FORMAT, version=FORMAT_VERSION,
                                   schema_revision=_schema_revision(conn),
                                   exported=datetime.now().astimezone())
                ids: list[str] = list(
                    conn.execute(sa.select(games.c.id).order_by(games.c.id)).scalars())
                for game_id in ids:
                    row = conn.execute(
                        sa.select(games).where(games.c.id == game_id)).mappings().one()
                    yield GameLine(
                        **dict(row),
                        seats=_rows(conn, seats, game_id, seats.c.seat, SeatLine),
                        actions=_rows(conn, actions, game_id, actions.c.seq, ActionLine),
                        log=_rows(conn, log, game_id, log.c.id, LogLine),
                    )
    finally:
        engine.dispose()


def export_all(url: str, out: IO[str]) -> BackupCounts:
    """Write every game of ``url`` to ``out`` as JSON lines (after the header line)."""
    count = moves = 0
    for line in dump_games(url):
        out.write(line.model_dump_json() + "\n")
        if isinstance(line, GameLine):
            count += 1
            moves += len(line.actions)
    return BackupCounts(count, moves)


def read_backup(lines: Iterable[str]) -> Iterator[GameLine]:
    """The games of a backup, each checked against the format (``BackupError`` naming the
    first bad line)."""
    header: ExportHeader | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            if header is None:
                header = ExportHeader.model_validate_json(text)
                if header.format != FORMAT or header.version != FORMAT_VERSION:
                    raise BackupError(f"line {number}: not a {FORMAT} backup of version "
                                      f"{FORMAT_VERSION} ({header.format} {header.version})")
                if header.schema_revision not in known_revisions():
                    raise BackupError(f"line {number}: written by a newer tramways (schema "
                                      f"{header.schema_revision}): upgrade first")
                continue
            yield GameLine.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            what = "header" if header is None else "game"
            raise BackupError(f"line {number}: not a {what} line of a {FORMAT} backup "
                              f"({where}: {first.get('msg', '')})") from None
    if header is None:
        raise BackupError(f"empty: a {FORMAT} backup starts with its header line")


def _replays(line: GameLine) -> None:
    """``BackupError`` unless the game's actions replay through the engine to its ``n``
    and status (a game an admin closed replays to an active one: docs/accounts.md)."""
    from tramways.core import IllegalAction, NotationError
    from tramways.games import game_names, get_game

    if line.game not in game_names():
        raise BackupError(f"game {line.id}: unknown game {line.game!r}")
    if [a.seq for a in line.actions] != list(range(line.n)):
        raise BackupError(f"game {line.id}: {len(line.actions)} actions for n = {line.n}")
    game = get_game(line.game)
    try:
        state = game.new_state(line.settings, line.setup, line.seed)
        for a in line.actions:
            state.apply(game.parse_action(a.notation), a.seat - 1 if a.seat is not None else None)
    except (IllegalAction, NotationError, TramwaysError, ValueError, KeyError) as exc:
        raise BackupError(f"game {line.id}: does not replay ({exc})") from None
    status = "over" if state.is_over() else "active"
    if status != line.status and (status, line.status) != ("active", "closed"):
        raise BackupError(f"game {line.id}: replays to a game {status}, recorded {line.status}")


def import_all(url: str, lines: Iterable[str], *, check: bool = True) -> BackupCounts:
    """Restore a backup into the database at ``url`` (migrated first): all its games in one
    transaction, or nothing (``BackupError``)."""
    migrate(url)
    engine = make_engine(url)
    count = moves = 0
    try:
        with engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                for line in read_backup(lines):
                    if check:
                        _replays(line)
                    taken = conn.execute(
                        sa.select(games.c.id).where(games.c.id == line.id)).first()
                    if taken is not None:
                        raise BackupError(f"game {line.id} is already in the database")
                    row = line.model_dump(exclude={"seats", "actions", "log"})
                    conn.execute(games.insert().values(**row))
                    if line.seats:
                        conn.execute(seats.insert(), [
                            {"game_id": line.id, **s.model_dump()} for s in line.seats])
                    if line.actions:
                        conn.execute(actions.insert(), [
                            {"game_id": line.id, **a.model_dump()} for a in line.actions])
                    if line.log:
                        conn.execute(log.insert(), [
                            {"game_id": line.id, **g.model_dump()} for g in line.log])
                    count += 1
                    moves += len(line.actions)
    except sa.exc.IntegrityError as exc:
        first = (str(exc.orig).splitlines() or ["integrity error"])[0]
        raise BackupError(f"the database refused a row: {first}") from None
    finally:
        engine.dispose()
    return BackupCounts(count, moves)
