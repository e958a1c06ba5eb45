"""The open games of the lobby: ``open_games`` / ``open_seats``, the
games waiting for players and who has sat down, each with its pace (``pace_kind``: ``none``,
``live`` or ``async``; ``pace``: seconds per move, what the deadline does, the stand-in),
which becomes the game's pace when the table starts.  A part of
:class:`~tramways.server.accounts.tables.AccountStore`."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tramways.server.accounts.schema import accounts, open_games, open_seats
from tramways.server.clocks.store import Pace
from tramways.server.storage import Store, now

LOBBY_KEY = "lobby"


@dataclass
class OpenGame:
    """A game waiting for players: ``players`` holds ``(seat, account id, name)``; its pace
    becomes the game's when it starts."""

    id: str
    game: str
    settings: dict[str, Any]
    seats: int
    lang: str
    owner: str
    status: str
    game_id: str | None
    players: list[tuple[int, str, str]] = field(default_factory=list)
    pace_kind: str = "none"
    pace: Pace | None = None
    on_resign: str = "bot"
    """What a resignation does in the game (docs/async.md): ``bot`` or ``end``."""

    @property
    def full(self) -> bool:
        return len(self.players) >= self.seats


class SeatTaken(Exception):
    """The seat (or the account's place at that table) is taken, or the game no longer open."""


class OpenTables:
    """The open games' reads and writes (each one short transaction)."""

    store: Store
    announce: Callable[[Connection, str], None]
    woken: Callable[[str], None]


    def create_open(self, game: str, settings: dict[str, Any], seats: int, lang: str,
                    owner: str, pace_kind: str = "none", pace: Pace | None = None,
                    on_resign: str = "bot") -> str:
        open_id = secrets.token_urlsafe(9)
        with self.store._write() as conn:
            conn.execute(open_games.insert().values(
                id=open_id, game=game, settings=settings, seats=seats, lang=lang, owner=owner,
                status="open", created=now(), pace_kind=pace_kind if pace else "none",
                pace=None if pace is None else asdict(pace), on_resign=on_resign))
            conn.execute(open_seats.insert().values(open_id=open_id, seat=1, account_id=owner))
            self.announce(conn, LOBBY_KEY)
        self.woken(LOBBY_KEY)
        return open_id

    def _players(self, conn: Connection, ids: Sequence[str]) -> dict[str, list[tuple[int, str, str]]]:
        out: dict[str, list[tuple[int, str, str]]] = {i: [] for i in ids}
        if not ids:
            return out
        rows = conn.execute(
            sa.select(open_seats.c.open_id, open_seats.c.seat, accounts.c.id, accounts.c.name)
            .join(accounts, accounts.c.id == open_seats.c.account_id)
            .where(open_seats.c.open_id.in_(list(ids))).order_by(open_seats.c.seat)).all()
        for r in rows:
            out[r.open_id].append((int(r.seat), str(r.id), str(r.name)))
        return out

    def lobby_mark(self) -> str:
        """A short fingerprint of every table not yet started or closed: its id, its status
        (``open`` or ``starting``) and who sits where.  A socket that polls (SQLite: other
        processes cannot wake it) compares it, and a page carries the one read before its
        content.  Any change of what a lobby or table page shows changes it: a table that
        was ``starting`` when the poll looked and has ``started`` since leaves the set (the
        counts of open tables and taken seats, the mark before, were the same in both
        states, so a page polled in that window never learnt of the start), and a player
        leaving one table while another sits down at another is seen too."""
        live = open_games.c.status.in_(("open", "starting"))
        with self.store._read() as conn:
            tables = conn.execute(sa.select(open_games.c.id, open_games.c.status)
                                  .where(live).order_by(open_games.c.id)).all()
            seats = conn.execute(
                sa.select(open_seats.c.open_id, open_seats.c.seat, open_seats.c.account_id)
                .join(open_games, open_games.c.id == open_seats.c.open_id).where(live)
                .order_by(open_seats.c.open_id, open_seats.c.seat)).all()
        text = repr(([tuple(r) for r in tables], [tuple(r) for r in seats]))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def open_list(self, game: str | None = None, lang: str | None = None,
                  limit: int = 100, pace_kind: str | None = None) -> list[OpenGame]:
        """The games waiting for players, oldest first (filtered by game, language and the
        kind of pace)."""
        query = sa.select(open_games).where(open_games.c.status == "open")
        if pace_kind:
            query = query.where(open_games.c.pace_kind == pace_kind)
        if game:
            query = query.where(open_games.c.game == game)
        if lang:
            query = query.where(open_games.c.lang == lang)
        with self.store._read() as conn:
            rows = conn.execute(query.order_by(open_games.c.created).limit(limit)).all()
            players = self._players(conn, [r.id for r in rows])
        return [self._open(r, players[r.id]) for r in rows]

    @staticmethod
    def _open(r: Any, players: list[tuple[int, str, str]]) -> OpenGame:
        return OpenGame(r.id, r.game, dict(r.settings), int(r.seats), r.lang, r.owner,
                        r.status, r.game_id, players, str(r.pace_kind or "none"),
                        Pace(**r.pace) if r.pace else None, str(r.on_resign or "bot"))

    def open_game(self, open_id: str) -> OpenGame | None:
        with self.store._read() as conn:
            row = conn.execute(sa.select(open_games).where(open_games.c.id == open_id)).first()
            if row is None:
                return None
            return self._open(row, self._players(conn, [open_id])[open_id])

    def join(self, open_id: str, account_id: str) -> OpenGame:
        """Sit the account at the first free seat; :class:`SeatTaken` when it sits there
        already, the table is full or no longer open."""
        try:
            with self.store._write() as conn:
                row = conn.execute(sa.select(open_games).where(
                    open_games.c.id == open_id, open_games.c.status == "open")).first()
                if row is None:
                    raise SeatTaken("this game is not open")
                taken: set[int] = set(conn.execute(sa.select(open_seats.c.seat)
                                         .where(open_seats.c.open_id == open_id)).scalars())
                free = [s for s in range(1, int(row.seats) + 1) if s not in taken]
                if not free:
                    raise SeatTaken("every seat is taken")
                conn.execute(open_seats.insert().values(
                    open_id=open_id, seat=free[0], account_id=account_id))
                self.announce(conn, LOBBY_KEY)
        except sa.exc.IntegrityError as exc:
            raise SeatTaken("you sit at this table already") from exc
        self.woken(LOBBY_KEY)
        game = self.open_game(open_id)
        assert game is not None
        return game

    def leave(self, open_id: str, account_id: str) -> bool:
        """Stand up before the start; the owner leaving closes the table.  Whether the
        account sat there."""
        with self.store._write() as conn:
            row = conn.execute(sa.select(open_games).where(
                open_games.c.id == open_id, open_games.c.status == "open")).first()
            if row is None:
                return False
            gone = conn.execute(open_seats.delete().where(
                open_seats.c.open_id == open_id, open_seats.c.account_id == account_id))
            if row.owner == account_id:
                conn.execute(open_games.update().where(open_games.c.id == open_id)
                             .values(status="closed"))
            self.announce(conn, LOBBY_KEY)
        self.woken(LOBBY_KEY)
        return bool(gone.rowcount)

    def begin_start(self, open_id: str) -> bool:
        """Compare-and-set ``open`` to ``starting``: exactly one request starts a table."""
        with self.store._write() as conn:
            done = conn.execute(open_games.update().where(
                open_games.c.id == open_id, open_games.c.status == "open")
                .values(status="starting"))
        return done.rowcount == 1

    def finish_start(self, open_id: str, game_id: str | None) -> None:
        """The table's game (``None``: the start failed, the table is open again)."""
        with self.store._write() as conn:
            conn.execute(open_games.update().where(open_games.c.id == open_id).values(
                status="started" if game_id else "open", game_id=game_id))
            self.announce(conn, LOBBY_KEY)
        self.woken(LOBBY_KEY)
