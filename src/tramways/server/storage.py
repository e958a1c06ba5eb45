"""Storage: a game is its record (settings, seed and set-up, actions), kept in SQL.

:class:`Store` holds the queries, each one short transaction, on the tables of
:mod:`tramways.server.tables`, reading and writing the typed rows of
:mod:`tramways.server.rows`; the engine, the migrations and ``LISTEN`` are in
:mod:`tramways.server.database` (the names of those modules are also importable from here).

Every write is one transaction that also compare-and-sets ``games.rev``; it is committed
before the server replies.  SQLite's writes begin with ``BEGIN IMMEDIATE``; PostgreSQL runs
with its defaults (read committed: the conditional ``UPDATE`` of ``games`` waits for a
concurrent writer and then sees its row).
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tramways.server import pgappend
from tramways.server.buckets import SharedBuckets
from tramways.server.database import (
    LISTEN_APPLICATION,
    NOTIFY_CHANNEL,
    SQLITE_SYNCHRONOUS,
    default_url,
    listen,
    make_engine,
    migrate,
    migration_lock,
)
from tramways.server.facts import GameFacts
from tramways.server.rows import (
    ActionRow,
    Conflict,
    GameRow,
    Loaded,
    NotifyTargets,
    SeatRow,
    Written,
    hash_token,
    new_game_id,
    new_token,
    now,
)
from tramways.server.tables import actions, games, log, metadata, rate_limits, seats

__all__ = [
    "LISTEN_APPLICATION", "NOTIFY_CHANNEL", "SQLITE_SYNCHRONOUS", "ActionRow", "Conflict",
    "GameRow", "Loaded", "NotifyTargets", "SeatRow", "Store", "actions", "default_url", "games",
    "hash_token", "listen", "log", "make_engine", "metadata", "migrate", "migration_lock",
    "new_game_id", "new_token", "rate_limits", "seats",
]

# Statements built once (the hot path of a move only binds parameters).
_REV = sa.select(games.c.rev).where(games.c.id == sa.bindparam("gid"))
_CAS_APPEND = (
    games.update()
    .where(
        games.c.id == sa.bindparam("gid"),
        games.c.rev == sa.bindparam("old_rev"),
        games.c.n == sa.bindparam("old_n"),
    )
    .values(
        n=sa.bindparam("new_n"),
        rev=sa.bindparam("new_rev"),
        status=sa.bindparam("new_status"),
        updated=sa.bindparam("stamp"),
        finished=sa.bindparam("done"),
    )
)
_INSERT_ACTION = actions.insert()
_INSERT_LOG = log.insert().returning(log.c.id)
_TRY_LOCK = sa.text("SELECT pg_try_advisory_lock(:key)")
_UNLOCK = sa.text("SELECT pg_advisory_unlock(:key)")
_NOTIFY = sa.text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)")

class Store(SharedBuckets):
    """The database of games: every method is one short transaction."""

    def __init__(
        self, url: str, *, run_migrations: bool = True, sqlite_synchronous: str = SQLITE_SYNCHRONOUS
    ) -> None:
        self.url = url
        self.is_postgres = url.startswith("postgresql")
        if run_migrations:
            migrate(url)
        self.engine = make_engine(url, sqlite_synchronous)
        # one statement needs no transaction of its own: on PostgreSQL (read committed, where
        # each statement of a transaction has its own snapshot anyway) a single-statement
        # read runs in autocommit, without the BEGIN and COMMIT round trips (``_glance``)
        self._autocommit = (self.engine.execution_options(isolation_level="AUTOCOMMIT")
                         if self.is_postgres else self.engine)
        self.facts = GameFacts(enabled=self.is_postgres)
        """What this process remembers of each game (its pace, its notification targets)
        until a write of them is heard of (:mod:`tramways.server.facts`)."""
        # SQLite has one writer at a time and makes waiting writers poll (sleeping up to
        # 100 ms between tries): in one process, writers queue on a lock instead.
        self._writer: AbstractContextManager[Any] = threading.Lock() if url.startswith("sqlite") else nullcontext()

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self._writer, self.engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            with conn.begin():
                yield conn

    @contextmanager
    def _glance(self) -> Iterator[Connection]:
        """A connection for one read statement (PostgreSQL: in autocommit; SQLite: as
        :meth:`_read`)."""
        with self._autocommit.connect() as conn:
            with conn.begin():
                yield conn

    @contextmanager
    def settings_write(self, game_id: str) -> Iterator[Connection]:
        """A write of what processes remember of ``game_id`` (:mod:`tramways.server.facts`):
        it announces itself to every process (``NOTIFY ... 'GAME settings'``, delivered at
        commit), and this process forgets the game's facts once it has committed."""
        with self._write() as conn:
            yield conn
            self._notify(conn, Written.settings_of(game_id))
        self.facts.forget(game_id)

    # -- creating ---------------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        version: int,
        settings: dict[str, Any],
        seed: int,
        setup: dict[str, Any],
        seat_rows: Sequence[tuple[str, str]],
    ) -> tuple[str, list[str]]:
        """Store a new game with its seats (kind, name); return its id and the seat tokens."""
        game_id = new_game_id()
        tokens = [new_token() for _ in seat_rows]
        stamp = now()
        with self._write() as conn:
            conn.execute(
                games.insert().values(
                    id=game_id,
                    game=game,
                    version=version,
                    settings=settings,
                    seed=seed,
                    setup=setup,
                    status="active",
                    n=0,
                    rev=0,
                    created=stamp,
                    updated=stamp,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "game_id": game_id,
                        "seat": i + 1,
                        "kind": kind,
                        "name": name,
                        "token_hash": hash_token(token),
                    }
                    for i, ((kind, name), token) in enumerate(zip(seat_rows, tokens, strict=True))
                ],
            )
        return game_id, tokens

    # -- reading ----------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        with self._read() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).mappings().first()
        if row is None:
            return None
        return GameRow(
            id=row["id"],
            game=row["game"],
            version=row["version"],
            settings=dict(row["settings"]),
            seed=int(row["seed"]),
            setup=dict(row["setup"]),
            status=row["status"],
            n=row["n"],
            rev=row["rev"],
        )

    def rev(self, game_id: str) -> int | None:
        with self._glance() as conn:
            rev: int | None = conn.execute(_REV, {"gid": game_id}).scalar_one_or_none()
            return rev

    def load(self, game_id: str) -> tuple[GameRow, list[ActionRow], list[str]] | None:
        """The game, its actions and its log, read in one transaction (a consistent copy)."""
        loaded = self.load_since(game_id, 0, 0)
        return None if loaded is None else loaded[:3]

    def load_since(
        self, game_id: str, n: int, log_id: int
    ) -> tuple[GameRow, list[ActionRow], list[str], int] | None:
        """The game, its actions from number ``n`` on, its log lines after line ``log_id``,
        and the id of its last log line (:meth:`load_lines` without the lines' moves)."""
        loaded = self.load_lines(game_id, n, log_id)
        if loaded is None:
            return None
        return loaded.row, loaded.actions, loaded.lines, loaded.log_id

    def load_lines(self, game_id: str, n: int, log_id: int) -> Loaded | None:
        """The game, its actions from number ``n`` on, its log lines after line ``log_id``
        with the move that wrote each, and the id of its last log line: one snapshot
        (PostgreSQL: a repeatable-read transaction; SQLite's read transaction is one), so a
        position caught up from it is the database's at the game's ``rev``."""
        with self.engine.connect() as conn:
            if self.is_postgres:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                row = conn.execute(
                    sa.select(games).where(games.c.id == game_id)
                ).mappings().first()
                if row is None:
                    return None
                acts = conn.execute(
                    sa.select(actions.c.seq, actions.c.notation, actions.c.seat, actions.c.reveals)
                    .where(actions.c.game_id == game_id, actions.c.seq >= n)
                    .order_by(actions.c.seq)
                ).all()
                lines = conn.execute(
                    sa.select(log.c.id, log.c.text, log.c.seq)
                    .where(log.c.game_id == game_id, log.c.id > log_id)
                    .order_by(log.c.id)
                ).all()
        game = GameRow(
            id=row["id"],
            game=row["game"],
            version=row["version"],
            settings=dict(row["settings"]),
            seed=int(row["seed"]),
            setup=dict(row["setup"]),
            status=row["status"],
            n=row["n"],
            rev=row["rev"],
        )
        last = max((int(line.id) for line in lines), default=log_id)
        return Loaded(game, [ActionRow(a.seq, a.notation, a.seat, bool(a.reveals)) for a in acts],
                      [str(line.text) for line in lines],
                      [None if line.seq is None else int(line.seq) for line in lines], last)

    def seats(self, game_id: str) -> list[SeatRow]:
        with self._read() as conn:
            rows = conn.execute(
                sa.select(seats.c.seat, seats.c.kind, seats.c.name)
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.seat)
            ).all()
        return [SeatRow(r.seat, r.kind, r.name) for r in rows]

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        with self._glance() as conn:
            return conn.execute(
                sa.select(seats.c.seat).where(
                    seats.c.game_id == game_id, seats.c.token_hash == hash_token(token)
                )
            ).scalar_one_or_none()

    def seats_for_tokens(self, tokens: Sequence[str]) -> list[tuple[str, int]]:
        """(game id, seat) of every seat whose token is among ``tokens`` (the lobby's list)."""
        hashes = [hash_token(t) for t in tokens]
        if not hashes:
            return []
        with self._read() as conn:
            rows = conn.execute(
                sa.select(seats.c.game_id, seats.c.seat).where(seats.c.token_hash.in_(hashes))
            ).all()
        return [(r.game_id, r.seat) for r in rows]

    def active_bot_games(self, idle_since: datetime | None = None) -> list[str]:
        """Games not over that have a bot seat (to resume their bots after a restart); with
        ``idle_since``, only those not written since then (bots that may have stalled)."""
        query = sa.select(games.c.id).where(games.c.status == "active")
        if idle_since is not None:
            query = query.where(games.c.updated < idle_since)
        with self._read() as conn:
            ids: list[str] = list(
                conn.execute(
                    query
                    .where(
                        sa.exists().where(
                            seats.c.game_id == games.c.id, seats.c.kind.like("bot:%")
                        )
                    )
                ).scalars()
            )
            return ids

    def count_bot_only_games(self) -> int:
        """Games not over in which every seat is a bot's."""
        query = (
            sa.select(sa.func.count())
            .select_from(games)
            .where(games.c.status == "active")
            .where(~sa.exists().where(seats.c.game_id == games.c.id, seats.c.kind == "human"))
        )
        with self._read() as conn:
            return int(conn.execute(query).scalar_one())

    def notify_targets(self, game_id: str) -> NotifyTargets:
        """The game's webhook and the e-mail address of each seat that gave one, each with
        the language of the page it was set on."""
        with self._read() as conn:
            game = conn.execute(
                sa.select(games.c.webhook, games.c.webhook_lang).where(games.c.id == game_id)
            ).first()
            rows = conn.execute(
                sa.select(seats.c.seat, seats.c.email, seats.c.email_lang)
                .where(seats.c.game_id == game_id, seats.c.email.is_not(None))).all()
        return NotifyTargets(
            game.webhook if game else None, game.webhook_lang if game else None,
            {int(r.seat): (str(r.email), r.email_lang) for r in rows})

    def known_targets(self, game_id: str) -> NotifyTargets:
        """:meth:`notify_targets` as this process remembers them (PostgreSQL: read once, then
        kept until a write of them is heard of: :mod:`tramways.server.facts`); the "your turn"
        notifier asks this after every move that passes the turn."""
        return self.facts.get(game_id, "targets", lambda: self.notify_targets(game_id))

    def set_email(self, game_id: str, seat: int, email: str | None, lang: str | None = None
                  ) -> None:
        with self.settings_write(game_id) as conn:
            conn.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                         .values(email=email, email_lang=lang if email else None))

    def set_webhook(self, game_id: str, url: str | None, lang: str | None = None) -> None:
        with self.settings_write(game_id) as conn:
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(webhook=url, webhook_lang=lang if url else None))

    # -- writing ----------------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        rev: int,
        action: ActionRow,
        lines: Sequence[str],
        status: str,
    ) -> int | None:
        """Append action ``action.seq`` if the game is still at ``rev``; else ``Conflict``.
        The id of its last log line (``None``: it logged nothing).  PostgreSQL: one
        statement (:mod:`tramways.server.pgappend`)."""
        stamp = now()
        if self.is_postgres:
            try:
                with self._autocommit.connect() as conn, conn.begin():
                    row = conn.execute(pgappend.APPEND, pgappend.parameters(
                        game_id, rev, action, lines, status, stamp)).one()
            except sa.exc.IntegrityError as exc:
                raise Conflict(game_id) from exc
            if row.done != 1:
                raise Conflict(game_id)
            return None if row.last is None else int(row.last)
        try:
            with self._write() as conn:
                done = conn.execute(
                    _CAS_APPEND,
                    {
                        "gid": game_id,
                        "old_rev": rev,
                        "old_n": action.seq,
                        "new_n": action.seq + 1,
                        "new_rev": rev + 1,
                        "new_status": status,
                        "stamp": stamp,
                        "done": stamp if status == "over" else None,
                    },
                )
                if done.rowcount != 1:
                    raise Conflict(game_id)
                conn.execute(
                    _INSERT_ACTION,
                    {
                        "game_id": game_id,
                        "seq": action.seq,
                        "notation": action.notation,
                        "seat": action.seat,
                        "reveals": action.reveals,
                        "created": stamp,
                    },
                )
                last = self._log(conn, game_id, action.seq, lines, stamp)
                self._notify(conn, Written(game_id, rev + 1, action, last, len(lines)))
        except sa.exc.IntegrityError as exc:
            raise Conflict(game_id) from exc
        return last

    def truncate(self, game_id: str, rev: int, n: int, keep: int, lines: Sequence[str]) -> None:
        """Undo: keep the first ``keep`` of the ``n`` actions if the game is still at ``rev``."""
        stamp = now()
        with self._write() as conn:
            done = conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.rev == rev, games.c.n == n)
                .values(n=keep, rev=rev + 1, status="active", updated=stamp, finished=None)
            )
            if done.rowcount != 1:
                raise Conflict(game_id)
            conn.execute(
                actions.delete().where(actions.c.game_id == game_id, actions.c.seq >= keep)
            )
            self._log(conn, game_id, None, lines, stamp)
            self._notify(conn, Written(game_id, rev + 1))

    def close_game(self, game_id: str, line: str) -> int | None:
        """An admin closes an active game (docs/accounts.md): ``status`` becomes ``closed``,
        ``line`` is logged, the revision moves (every process reloads it); the new revision,
        ``None`` if the game is not active."""
        stamp = now()
        with self._write() as conn:
            rev = conn.execute(sa.select(games.c.rev).where(
                games.c.id == game_id, games.c.status == "active")).scalar()
            if rev is None:
                return None
            done = conn.execute(
                games.update().where(games.c.id == game_id, games.c.rev == rev)
                .values(rev=rev + 1, status="closed", updated=stamp, finished=stamp))
            if done.rowcount != 1:
                raise Conflict(game_id)
            self._log(conn, game_id, None, [line], stamp)
            self._notify(conn, Written(game_id, rev + 1))
        return int(rev) + 1

    @contextmanager
    def bot_lease(self, game_id: str) -> Iterator[bool]:
        """Whether this process may play ``game_id``'s bots now: on PostgreSQL a session
        advisory lock on the game, held on one connection while the bots play, so that
        exactly one server process plays them; a process that dies loses its connection and
        with it the lock, and the next process to look takes over.  SQLite: always ``True``
        (one machine; a second writer still fails the compare-and-set)."""
        if not self.is_postgres:
            yield True
            return
        key = int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big", signed=True)
        with self.engine.connect() as conn:
            got = bool(conn.execute(_TRY_LOCK, {"key": key}).scalar())
            conn.commit()
            try:
                yield got
            finally:
                if got:
                    try:
                        conn.execute(_UNLOCK, {"key": key})
                        conn.commit()
                    except sa.exc.DBAPIError:
                        conn.invalidate()  # the lock went with the connection

    def _notify(self, conn: Connection, written: Written) -> None:
        """PostgreSQL: announce the write to every server process (with the move, so that
        they can play it on their cached positions: :meth:`Written.payload`); delivered at
        commit."""
        if self.is_postgres:
            conn.execute(_NOTIFY, {"payload": written.payload()})

    def _log(
        self, conn: Connection, game_id: str, seq: int | None, lines: Sequence[str], stamp: datetime
    ) -> int | None:
        """Append ``lines`` to the log; the id of the last one."""
        if not lines:
            return None
        # one statement compiled once (a multi-row ``values()`` was compiled anew for every
        # move: a third of a move's CPU); the driver still sends the rows together
        ids: list[Any] = list(conn.execute(
            _INSERT_LOG,
            [{"game_id": game_id, "seq": seq, "text": t, "created": stamp} for t in lines],
        ).scalars())
        return max(int(i) for i in ids)
