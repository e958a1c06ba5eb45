"""The database itself: its URL, the engine (SQLite's pragmas and write transactions),
the migrations under a lock, and PostgreSQL's ``LISTEN`` for the writes of every process.

SQLite runs in WAL mode and writes begin with ``BEGIN IMMEDIATE`` (see
:data:`SQLITE_SYNCHRONOUS` for durability); PostgreSQL runs with its defaults.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from tramways.server.rows import Written

DATABASE_DOWN = (sa.exc.OperationalError, sa.exc.InterfaceError)
"""What SQLAlchemy raises when the database is away (a restart, a lost connection): callers
answer 503 or wait, without a traceback."""

NOTIFY_CHANNEL = "tramways_moves"
"""The PostgreSQL channel of the writes (``NOTIFY tramways_moves, 'GAME REV ...'``:
:meth:`~tramways.server.rows.Written.payload`)."""
LISTEN_APPLICATION = "tramways-listen"
"""The ``application_name`` of the ``LISTEN`` connections, followed by the process id
(:func:`listen_application`)."""

logger = logging.getLogger("tramways.server")


def listen_application(pid: int | None = None) -> str:
    """The ``application_name`` of process ``pid``'s ``LISTEN`` connection (this process's by
    default): ``tramways-listen PID``, so that ``pg_stat_activity`` tells the processes'
    listeners apart (an operator, or a test that cuts one server's listener: cutting every
    ``tramways-listen`` on a shared database also cut the listeners of the tests running
    beside it, whose notifications were then lost without a word)."""
    return f"{LISTEN_APPLICATION} {os.getpid() if pid is None else pid}"


def libpq_conninfo(url: str) -> str:
    """A SQLAlchemy PostgreSQL ``url`` (any driver) as the connection string ``psycopg``
    itself takes (for the ``LISTEN`` connection, which works below SQLAlchemy)."""
    return sa.engine.make_url(url).set(drivername="postgresql").render_as_string(
        hide_password=False)


def default_url(folder: str | Path = ".") -> str:
    return f"sqlite:///{Path(folder).resolve() / 'tramways.sqlite3'}"


SQLITE_SYNCHRONOUS = "NORMAL"
"""SQLite in WAL mode with ``synchronous=NORMAL``: a commit is in the WAL file (the operating
system's cache) before the reply, so a killed server process (``kill -9``) loses nothing; only
a power cut or an OS crash could lose the last commits.  ``FULL`` also waits for the disk on
every commit (several ms each here): set ``ServerSettings(sqlite_synchronous="FULL")``."""


def make_engine(url: str, sqlite_synchronous: str = SQLITE_SYNCHRONOUS) -> Engine:
    """An engine for ``url`` (SQLite: WAL, immediate write transactions)."""
    if sqlite_synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"sqlite synchronous: {sqlite_synchronous!r}")
    if url.startswith("sqlite"):
        engine = sa.create_engine(
            url, connect_args={"check_same_thread": False, "timeout": 30}, pool_size=8
        )

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # transactions are begun below
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_synchronous.upper()}")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            if conn.get_execution_options().get("write"):
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:
                conn.exec_driver_sql("BEGIN")

        return engine
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


MIGRATION_LOCK_KEY = 0x7472616D77617973  # "tramways": the PostgreSQL advisory lock's key
_MIGRATION_LOCK = sa.text("SELECT pg_advisory_lock(:key)")
_MIGRATION_UNLOCK = sa.text("SELECT pg_advisory_unlock(:key)")


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (Alembic ``upgrade head``), under
    a lock (:func:`migration_lock`): server processes started together migrate one after the
    other, and the later ones find the schema done."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    with migration_lock(url):
        command.upgrade(cfg, "head")


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """Held while one process migrates ``url``: on PostgreSQL a session advisory lock
    (``MIGRATION_LOCK_KEY``) on a connection of its own; on a SQLite file an exclusive
    ``flock`` of the file ``<database>.migrate-lock`` beside it (created once, left in place);
    an in-memory SQLite database needs none.  Without this, two servers started at once on a
    fresh file both created the tables and one died with "table games already exists"."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "postgresql":
        engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
        try:
            with engine.connect() as conn:
                conn.execute(_MIGRATION_LOCK, {"key": MIGRATION_LOCK_KEY})
                conn.commit()
                try:
                    yield
                finally:
                    conn.execute(_MIGRATION_UNLOCK, {"key": MIGRATION_LOCK_KEY})
                    conn.commit()
        finally:
            engine.dispose()
        return
    database = parsed.database or ""
    if (parsed.get_backend_name() != "sqlite" or database in ("", ":memory:")
            or database.startswith("file:")):
        yield
        return
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no lock
        yield
        return
    with open(f"{database}.migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)



def listen(
    url: str,
    publish: Any,
    stop: threading.Event,
    ready: threading.Event | None = None,
    resync: Any = None,
) -> None:
    """PostgreSQL ``LISTEN``: call ``publish(written)`` (a :class:`~.rows.Written`: the game,
    its new ``rev`` and, for a move, the move) for every write of any server process on this
    database, until ``stop`` is set (run it in a thread).  It reconnects after
    a lost connection (a warning: the notifications sent meanwhile are gone) and then calls
    ``resync()``, so that the listeners look at the database instead.  A ``publish`` that
    raises is logged and the next notification is read: it never costs the connection."""
    import psycopg

    conninfo = libpq_conninfo(url)
    while not stop.is_set():
        try:
            with psycopg.connect(
                conninfo, autocommit=True, application_name=listen_application()
            ) as conn:
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                if ready is not None:
                    ready.set()
                if resync is not None:
                    resync()
                while not stop.is_set():
                    for note in conn.notifies(timeout=1.0):
                        try:
                            written = Written.parse(note.payload)
                        except (ValueError, IndexError):
                            continue  # not ours
                        try:
                            publish(written)
                        except Exception:
                            logger.warning("a notification (%s) could not be published",
                                           note.payload[:80], exc_info=True)
        except Exception as exc:
            if stop.is_set():
                return
            logger.warning("the LISTEN connection failed (%s): connecting again in 1 s; "
                           "the notifications sent meanwhile are lost", exc)
            if stop.wait(1.0):
                return
