"""The clocks' reads and writes: each one short transaction on the server's
:class:`~tramways.server.storage.Store` (its engine, its write lock, its log and its
``NOTIFY``), so that a seat handed over is one write like a move: ``games.rev`` goes up, the
log gets its line, every process hears of it.

A row that may not exist yet (a pace, a seat's clock, a fired deadline) is written with an
``INSERT ... ON CONFLICT DO NOTHING`` before any update, never by "update, and insert if no
row was updated": on PostgreSQL two writers (a request and a bot's thread, or two server
processes) both find no row and both insert, and the second fails on the primary key
(the in-process clocks tests failed so on PostgreSQL; SQLite's one writer lock
hid it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from tramways.server.clocks.schema import (
    deadline_fired,
    game_pace,
    game_resign,
    seat_clocks,
    seat_votes,
)
from tramways.server.rows import Written
from tramways.server.storage import Store
from tramways.server.tables import games, seats


def utc(stamp: datetime | None) -> datetime | None:
    """SQLite gives back naive datetimes: they were written in UTC."""
    if stamp is None:
        return None
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Pace:
    """A game's pace: ``seconds`` per move, what its deadline does, and the stand-in bot."""

    seconds: int
    on_deadline: str
    bot: str


@dataclass(frozen=True)
class SeatClock:
    seat: int
    n: int
    since: datetime
    vacation_until: datetime | None
    owner_kind: str | None
    resigned: bool


class ClockStore:
    """Paces, seat clocks, fired deadlines and votes in the server's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.store._write() as conn:  # the store's one writer (SQLite: its lock)
            yield conn

    def _insert_new(self, conn: Connection, table: sa.Table, **values: Any) -> bool:
        """Insert the row unless one with its primary key exists (written by anyone, even
        at this very moment): whether this insert made it."""
        insert = postgresql.insert if self.store.is_postgres else sqlite.insert
        key = table.primary_key.columns.values()[0]
        # RETURNING, not the rowcount: psycopg reports -1 for an insert that did nothing
        made = conn.execute(insert(table).values(**values).on_conflict_do_nothing()
                            .returning(key)).first()
        return made is not None

    # -- paces ------------------------------------------------------------------------------

    def pace(self, game_id: str) -> Pace | None:
        with self.store._read() as conn:
            row = conn.execute(sa.select(game_pace).where(game_pace.c.game_id == game_id)).first()
        return None if row is None else Pace(int(row.seconds), str(row.on_deadline), str(row.bot))

    def paced(self, game_id: str) -> bool:
        """Whether the game has a pace, as this process remembers it (asked after every move
        of this process: a query a move before; :mod:`tramways.server.facts`)."""
        return self.store.facts.get(game_id, "paced", lambda: self.pace(game_id) is not None)

    def set_pace(self, game_id: str, pace: Pace) -> None:
        """Set the game's pace (a settings write: every process forgets whether it had one)."""
        values = {"seconds": pace.seconds, "on_deadline": pace.on_deadline, "bot": pace.bot}
        with self.store.settings_write(game_id) as conn:
            if not self._insert_new(conn, game_pace, game_id=game_id, **values):
                conn.execute(game_pace.update().where(game_pace.c.game_id == game_id)
                             .values(**values))

    def on_resign(self, game_id: str) -> str:
        """What a resignation does in the game: ``bot`` (no row) or ``end``."""
        with self.store._read() as conn:
            found = conn.execute(sa.select(game_resign.c.on_resign)
                                 .where(game_resign.c.game_id == game_id)).scalar()
        return "bot" if found is None else str(found)

    def set_on_resign(self, game_id: str, on_resign: str) -> None:
        """The game's choice, written once when it is made (insert-or-nothing)."""
        with self._write() as conn:
            self._insert_new(conn, game_resign, game_id=game_id, on_resign=on_resign)

    def paced_games(self) -> list[str]:
        """Unfinished games that have a pace (the sweep's work)."""
        with self.store._read() as conn:
            found: list[Any] = list(conn.execute(
                sa.select(game_pace.c.game_id).join(games, games.c.id == game_pace.c.game_id)
                .where(games.c.status == "active")).scalars())
        return [str(g) for g in found]

    # -- seat clocks ------------------------------------------------------------------------

    def clocks(self, game_id: str) -> dict[int, SeatClock]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(seat_clocks).where(seat_clocks.c.game_id == game_id))
            return {int(r.seat): SeatClock(int(r.seat), int(r.n), utc(r.since) or r.since,
                                           utc(r.vacation_until), r.owner_kind, bool(r.resigned))
                    for r in rows}

    def touch(self, game_id: str, seat: int, n: int, now: datetime) -> None:
        """Seat ``seat`` is to act at move ``n``: its clock starts now unless it already runs
        for ``n`` (a conditional write: of two processes, the first sets it)."""
        with self._write() as conn:
            if not self._insert_new(conn, seat_clocks, game_id=game_id, seat=seat, n=n,
                                    since=now):
                conn.execute(
                    seat_clocks.update()
                    .where(seat_clocks.c.game_id == game_id, seat_clocks.c.seat == seat,
                           seat_clocks.c.n != n)
                    .values(n=n, since=now))

    def set_vacation(self, game_id: str, seat: int, until: datetime | None, n: int,
                     now: datetime) -> None:
        self.touch(game_id, seat, n, now)
        with self._write() as conn:
            conn.execute(seat_clocks.update()
                         .where(seat_clocks.c.game_id == game_id, seat_clocks.c.seat == seat)
                         .values(vacation_until=until))

    # -- firing once ------------------------------------------------------------------------

    def claim(self, game_id: str, seat: int, n: int, stage: str, now: datetime,
              lease: float) -> bool:
        """Whether this process fires ``stage`` of seat ``seat`` at move ``n``: the first to
        insert its row, or the one that takes over a claim left undone for ``lease`` seconds
        (its process died) by a conditional ``UPDATE``."""
        key = {"game_id": game_id, "seat": seat, "n": n, "stage": stage}
        with self._write() as conn:
            if self._insert_new(conn, deadline_fired, **key, claimed=now, done=False):
                return True
            taken = conn.execute(
                deadline_fired.update()
                .where(*(deadline_fired.c[k] == v for k, v in key.items()),
                       deadline_fired.c.done.is_(False),
                       deadline_fired.c.claimed < now - timedelta(seconds=lease))
                .values(claimed=now)).rowcount
        return bool(taken)

    def done(self, game_id: str, seat: int, n: int, stage: str) -> None:
        with self._write() as conn:
            conn.execute(deadline_fired.update().where(
                deadline_fired.c.game_id == game_id, deadline_fired.c.seat == seat,
                deadline_fired.c.n == n, deadline_fired.c.stage == stage).values(done=True))

    def fired(self, game_id: str) -> list[tuple[int, int, str, bool]]:
        """``(seat, n, stage, done)`` of every deadline fired in the game (tests, the page)."""
        with self.store._read() as conn:
            return [(int(r.seat), int(r.n), str(r.stage), bool(r.done)) for r in conn.execute(
                sa.select(deadline_fired).where(deadline_fired.c.game_id == game_id)
                .order_by(deadline_fired.c.n, deadline_fired.c.seat))]

    # -- who holds a seat -------------------------------------------------------------------

    def change_seat(self, game_id: str, seat: int, *, kind: str, owner_kind: str | None,
                    resigned: bool, line: str, expect: str, now: datetime,
                    n: int) -> int | None:
        """Give seat ``seat`` to ``kind`` if it is still held by ``expect``, with a line in
        the game's log, in one write that moves the game's revision (every process and socket
        sees it as it sees a move); the new revision, ``None`` when the seat was not
        ``expect``'s any more (another process changed it first)."""
        with self._write() as conn:
            changed = conn.execute(
                seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat,
                                     seats.c.kind == expect).values(kind=kind)).rowcount
            if changed != 1:
                return None
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(rev=games.c.rev + 1, updated=datetime.now(UTC)))
            rev = int(conn.execute(sa.select(games.c.rev).where(games.c.id == game_id))
                      .scalar_one())
            if not self._insert_new(conn, seat_clocks, game_id=game_id, seat=seat, n=n,
                                    since=now, owner_kind=owner_kind, resigned=resigned):
                conn.execute(
                    seat_clocks.update()
                    .where(seat_clocks.c.game_id == game_id, seat_clocks.c.seat == seat)
                    .values(owner_kind=owner_kind, resigned=resigned))
            conn.execute(seat_votes.delete().where(seat_votes.c.game_id == game_id,
                                                   seat_votes.c.seat == seat))
            self.store._log(conn, game_id, None, [line], datetime.now(UTC))
            self.store._notify(conn, Written(game_id, rev))
        return rev

    # -- votes ------------------------------------------------------------------------------

    def vote(self, game_id: str, seat: int, voter: int) -> set[int]:
        """Record ``voter``'s vote to hand ``seat`` over (once); the voters so far."""
        with self._write() as conn:
            self._insert_new(conn, seat_votes, game_id=game_id, seat=seat, voter=voter)
            voters: list[Any] = list(conn.execute(
                sa.select(seat_votes.c.voter).where(seat_votes.c.game_id == game_id,
                                                    seat_votes.c.seat == seat)).scalars())
        return {int(v) for v in voters}
