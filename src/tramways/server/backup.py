"""Backup and restore of a site: every game as one line of JSON, then every row of the
site's other tables (accounts, open games, chat, ratings, paces and clocks) as one line each
(``export-all`` / ``import-all``; docs/operations.md, "Backup and restore").

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
line, or a game id already in the target, writes nothing at all.

The other tables are read from the database itself (reflected), so a table added by a
migration is carried without the backup knowing it; only :data:`KEPT_OUT` is left out:
sessions (a restored site logs everyone out; the accounts log in again with their
passwords, whose hashes came back), rate-limit buckets (they refill) and Alembic's own
revision.  A table's single integer key (``chat.id``) is not carried: the rows come back in
its order and take new numbers.  Times travel as UTC with their offset, so a SQLite backup
restores into PostgreSQL and back.  Version 1 backups (games only) still restore.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any, TypeVar

import sqlalchemy as sa
from pydantic import BaseModel, ConfigDict, ValidationError

from tramways.core import TramwaysError
from tramways.server.database import make_engine, migrate
from tramways.server.tables import actions, games, log, seats

FORMAT = "tramways-games"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)  # 1: games only

#: The tables a backup leaves out, and why (every other table of the database is carried).
KEPT_OUT: dict[str, str] = {
    "alembic_version": "the schema revision: the header names it, the import migrates",
    "sessions": "a restored site logs everyone out (sessions are not worth a leak)",
    "rate_limits": "token buckets refill by themselves",
}
#: The tables a game's own line carries (:class:`GameLine`).
GAME_TABLES = ("games", "seats", "actions", "log")
#: Tables whose rows in a backup replace the target's rows of the same key (the site's
#: secret: a fresh database a server already started on made one of its own).
REPLACED = ("site_keys",)
_BATCH = 500


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


class RowLine(_Line):
    """One row of a table other than the games' (its columns by name; times as ISO 8601)."""

    table: str
    row: dict[str, Any]


L = TypeVar("L", bound=_Line)


@dataclass(frozen=True)
class BackupCounts:
    games: int
    actions: int
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        """``3 games (40 actions), 25 rows of 9 other tables``."""
        return (f"{self.games} games ({self.actions} actions), {sum(self.rows.values())} rows "
                f"of {len(self.rows)} other tables")


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


def site_tables(conn: sa.Connection) -> list[sa.Table]:
    """The database's tables a backup carries as rows, parents before children (read from
    the database itself: every table but the games' and :data:`KEPT_OUT`)."""
    found = sa.MetaData()
    found.reflect(conn)
    return [t for t in found.sorted_tables
            if t.name not in KEPT_OUT and t.name not in GAME_TABLES]


def _serial(table: sa.Table) -> str | None:
    """The table's single integer key (numbered by the database), if it has one."""
    keys = list(table.primary_key.columns)
    if len(keys) == 1 and isinstance(keys[0].type, sa.Integer):
        return keys[0].name
    return None


def carried_columns(table: sa.Table) -> list[str]:
    """The columns of ``table`` a backup carries (all but a single integer key)."""
    return [c.name for c in table.c if c.name != _serial(table)]


def _utc(value: Any) -> Any:
    """A time in UTC with its offset (SQLite gives back naive times, written in UTC)."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def _time(table: str, column: str, text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise BackupError(f"table {table}: {column} is no time ({text!r})") from None


def _table_rows(conn: sa.Connection, table: sa.Table) -> Iterator[RowLine]:
    columns = carried_columns(table)
    query = sa.select(*(table.c[c] for c in columns)).order_by(*table.primary_key.columns)
    for row in conn.execute(query).mappings():
        yield RowLine(table=table.name, row={k: _utc(v) for k, v in row.items()})


def dump_games(url: str) -> Iterator[BaseModel]:
    """The header, every game of the database at ``url`` by id, then the rows of the other
    tables (:func:`site_tables`), all from one snapshot."""
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
                for table in site_tables(conn):
                    yield from _table_rows(conn, table)
    finally:
        engine.dispose()


def export_all(url: str, out: IO[str]) -> BackupCounts:
    """Write the site at ``url`` to ``out`` as JSON lines (after the header line)."""
    count = moves = 0
    rows: dict[str, int] = {}
    for line in dump_games(url):
        out.write(line.model_dump_json() + "\n")
        if isinstance(line, GameLine):
            count += 1
            moves += len(line.actions)
        elif isinstance(line, RowLine):
            rows[line.table] = rows.get(line.table, 0) + 1
    return BackupCounts(count, moves, rows)


def _header(text: str, number: int) -> ExportHeader:
    header = ExportHeader.model_validate_json(text)
    if header.format != FORMAT or header.version not in READABLE_VERSIONS:
        raise BackupError(f"line {number}: not a {FORMAT} backup of version "
                          f"{FORMAT_VERSION} ({header.format} {header.version})")
    if header.schema_revision not in known_revisions():
        raise BackupError(f"line {number}: written by a newer tramways (schema "
                          f"{header.schema_revision}): upgrade first")
    return header


def read_backup(lines: Iterable[str]) -> Iterator[GameLine | RowLine]:
    """The games and rows of a backup, each checked against the format (``BackupError``
    naming the first bad line)."""
    header: ExportHeader | None = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            if header is None:
                header = _header(text, number)
            elif text.lstrip().startswith('{"table"'):
                yield RowLine.model_validate_json(text)
            else:
                yield GameLine.model_validate_json(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            what = "header" if header is None else "game or row"
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


def _insert_game(conn: sa.Connection, line: GameLine) -> None:
    taken = conn.execute(sa.select(games.c.id).where(games.c.id == line.id)).first()
    if taken is not None:
        raise BackupError(f"game {line.id} is already in the database")
    conn.execute(games.insert().values(**line.model_dump(exclude={"seats", "actions", "log"})))
    if line.seats:
        conn.execute(seats.insert(), [{"game_id": line.id, **s.model_dump()} for s in line.seats])
    if line.actions:
        conn.execute(actions.insert(),
                     [{"game_id": line.id, **a.model_dump()} for a in line.actions])
    if line.log:
        conn.execute(log.insert(), [{"game_id": line.id, **g.model_dump()} for g in line.log])


class _RowWriter:
    """The rows of the other tables, checked against the target's tables and written in
    batches (in the backup's order: parents before children)."""

    def __init__(self, conn: sa.Connection) -> None:
        self.conn = conn
        self.tables = {t.name: t for t in site_tables(conn)}
        self.pending: list[dict[str, Any]] = []
        self.table: sa.Table | None = None
        self.counts: dict[str, int] = {}

    def _row(self, line: RowLine, table: sa.Table) -> dict[str, Any]:
        want = set(carried_columns(table))
        if set(line.row) != want:
            odd = sorted(set(line.row) ^ want)
            raise BackupError(f"table {line.table}: a row's columns differ from the "
                              f"database's ({', '.join(odd)})")
        row: dict[str, Any] = {}
        for name, value in line.row.items():
            if isinstance(table.c[name].type, sa.DateTime) and isinstance(value, str):
                value = _time(line.table, name, value)
            row[name] = _utc(value)
        return row

    def add(self, line: RowLine) -> None:
        table = self.tables.get(line.table)
        if table is None:
            raise BackupError(f"table {line.table!r}: not a table a backup restores")
        if table is not self.table or len(self.pending) >= _BATCH:
            self.flush()
            self.table = table
        row = self._row(line, table)
        if table.name in REPLACED:
            self.conn.execute(table.delete().where(sa.and_(
                *(c == row[c.name] for c in table.primary_key.columns))))
        self.pending.append(row)
        self.counts[table.name] = self.counts.get(table.name, 0) + 1

    def flush(self) -> None:
        if self.table is not None and self.pending:
            self.conn.execute(self.table.insert(), self.pending)
        self.pending = []


def import_all(url: str, lines: Iterable[str], *, check: bool = True) -> BackupCounts:
    """Restore a backup into the database at ``url`` (migrated first): all its games and
    rows in one transaction, or nothing (``BackupError``)."""
    migrate(url)
    engine = make_engine(url)
    count = moves = 0
    try:
        with engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                writer = _RowWriter(conn)
                for line in read_backup(lines):
                    if isinstance(line, RowLine):
                        writer.add(line)
                        continue
                    if check:
                        _replays(line)
                    _insert_game(conn, line)
                    count += 1
                    moves += len(line.actions)
                writer.flush()
    except sa.exc.IntegrityError as exc:
        first = (str(exc.orig).splitlines() or ["integrity error"])[0]
        raise BackupError(f"the database refused a row: {first}") from None
    finally:
        engine.dispose()
    return BackupCounts(count, moves, writer.counts)
