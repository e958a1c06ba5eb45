"""The tables of accounts, sessions, open games, chat and ratings, and the store that reads
and writes them (every method one short transaction, on SQLite and PostgreSQL alike).

- ``accounts``: a user name (``name_key``: its lower case, unique), the argon2 hash of the
  password (never the password), an optional e-mail address, ``banned``;
- ``sessions``: the SHA-256 hash of each session id (the cookie carries the id, signed);
  "log out everywhere" deletes every row of an account;
- ``site_keys``: the site's secret (signs cookies and CSRF tokens, derives the seat links
  of accounts), made once and shared by every server process on the database, unless
  ``$TRAMWAYS_SECRET_KEY`` gives one;
- ``account_seats``: which account holds which seat of a game;
- ``open_games`` / ``open_seats``: games waiting for players, and who has sat down;
- ``chat`` / ``chat_mutes``: messages of a game (beside the game: never in its record), and
  the spectators its players muted;
- ``ratings`` / ``results``: a rating per player (``a:ACCOUNT`` or ``bot:NAME``) and game,
  and each rated game's places with the rating before and after (a game is rated once: the
  primary key ``(game_id, seat)`` of ``results`` refuses a second try in any process).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from tramways.server.accounts.open_store import LOBBY_KEY, OpenGame, OpenTables, SeatTaken
from tramways.server.accounts.schema import (
    ChatMessage,
    Rating,
    ResultRow,
    account_seats,
    accounts,
    chat,
    chat_mutes,
    ratings,
    results,
    sessions,
    site_keys,
)
from tramways.server.storage import Store, games, hash_token, now
from tramways.server.storage import seats as seat_table

__all__ = ["LOBBY_KEY", "Account", "AccountStore", "NameTaken", "OpenGame", "SeatTaken",
           "chat_key"]

NOTIFY_CHANNEL = "tramways_moves"
"""The channel of :func:`tramways.server.storage.listen`: a payload ``chat:GAME 0`` or
``lobby 0`` wakes the hub's subscribers of that key in every process."""
_NOTIFY = sa.text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :payload)")


def chat_key(game_id: str) -> str:
    return f"chat:{game_id}"


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    email: str | None = None
    banned: bool = False
    email_verified: bool = False

    @property
    def player(self) -> str:
        """The account's key in ``ratings`` and ``results``."""
        return f"a:{self.id}"


class NameTaken(Exception):
    """The user name is held by another account."""


def _row_account(row: Any) -> Account:
    return Account(row.id, row.name, row.email, bool(row.banned), bool(row.email_verified))


class AccountStore(OpenTables):
    """Accounts and what hangs on them, in the database of a :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self.is_postgres = store.is_postgres
        self.publish: Callable[[str, int], None] | None = None
        """This process's hub (SQLite has no ``NOTIFY``: its own sockets are woken here)."""

    def _insert(self) -> Any:
        return postgresql.insert if self.is_postgres else sqlite.insert

    def announce(self, conn: Connection, key: str) -> None:
        """PostgreSQL: wake ``key``'s subscribers in every process (at commit)."""
        if self.is_postgres:
            conn.execute(_NOTIFY, {"payload": f"{key} 0"})

    def woken(self, key: str) -> None:
        """After the commit, on SQLite: wake this process's subscribers of ``key`` (other
        processes' look at the database every few seconds)."""
        if not self.is_postgres and self.publish is not None:
            self.publish(key, 0)

    # -- the site's secret ------------------------------------------------------------------

    def secret(self) -> str:
        """The site's secret, made on first use (the first process to insert it wins)."""
        with self.store._write() as conn:
            conn.execute(self._insert()(site_keys).values(
                name="secret", value=secrets.token_urlsafe(48)).on_conflict_do_nothing())
            value: str = conn.execute(
                sa.select(site_keys.c.value).where(site_keys.c.name == "secret")).scalar_one()
        return value

    def rekey_seats(self, mark: str, token: Callable[[str, int, str], str]) -> int:
        """After a change of the site's secret (``mark``: a fingerprint of the new one):
        give every account's seat its new token (``token(game, seat, account)``), so that
        "my games" links keep opening their seats; how many were changed.  The first start
        on a database only writes the mark."""
        with self.store._write() as conn:
            old = conn.execute(sa.select(site_keys.c.value)
                               .where(site_keys.c.name == "seat-mark")).scalar_one_or_none()
            if old == mark:
                return 0
            rows: list[Any] = conn.execute(sa.select(account_seats)).all() if old is not None else []
            for r in rows:
                conn.execute(seat_table.update().where(
                    seat_table.c.game_id == r.game_id, seat_table.c.seat == r.seat)
                    .values(token_hash=hash_token(token(r.game_id, int(r.seat), r.account_id))))
            stmt = self._insert()(site_keys).values(name="seat-mark", value=mark)
            conn.execute(stmt.on_conflict_do_update(index_elements=["name"],
                                                    set_={"value": mark}))
        return len(rows)

    # -- accounts and sessions --------------------------------------------------------------

    def create_account(self, name: str, password_hash: str) -> Account:
        account = Account(secrets.token_urlsafe(12), name)
        try:
            with self.store._write() as conn:
                conn.execute(accounts.insert().values(
                    id=account.id, name=name, name_key=name.lower(),
                    password_hash=password_hash, banned=False, created=now()))
        except sa.exc.IntegrityError as exc:
            raise NameTaken(name) from exc
        return account

    def login_row(self, name: str) -> tuple[Account, str] | None:
        """The account called ``name`` (any case) and its password hash."""
        with self.store._read() as conn:
            row = conn.execute(sa.select(accounts).where(
                accounts.c.name_key == name.lower())).first()
        return None if row is None else (_row_account(row), str(row.password_hash))

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with self.store._write() as conn:
            conn.execute(accounts.update().where(accounts.c.id == account_id)
                         .values(password_hash=password_hash))

    def set_email(self, account_id: str, email: str | None, verified: bool = False) -> None:
        with self.store._write() as conn:
            conn.execute(accounts.update().where(accounts.c.id == account_id)
                         .values(email=email, email_verified=verified))

    def password_hash(self, account_id: str) -> str | None:
        with self.store._read() as conn:
            value = conn.execute(sa.select(accounts.c.password_hash)
                                 .where(accounts.c.id == account_id)).scalar_one_or_none()
        return None if value is None else str(value)

    def by_email(self, email: str) -> Account | None:
        """The account whose verified address is ``email`` (any case)."""
        with self.store._read() as conn:
            row = conn.execute(sa.select(accounts).where(
                sa.func.lower(accounts.c.email) == email.lower(),
                accounts.c.email_verified.is_(True))).first()
        return None if row is None else _row_account(row)

    def account(self, account_id: str) -> Account | None:
        with self.store._read() as conn:
            row = conn.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else _row_account(row)

    def accounts_named(self, ids: Sequence[str]) -> dict[str, Account]:
        if not ids:
            return {}
        with self.store._read() as conn:
            rows = conn.execute(sa.select(accounts).where(accounts.c.id.in_(list(ids)))).all()
        return {r.id: _row_account(r) for r in rows}

    def add_session(self, account_id: str, session_id: str) -> None:
        with self.store._write() as conn:
            conn.execute(sessions.insert().values(
                id_hash=hash_token(session_id), account_id=account_id, created=now()))

    def session_account(self, session_id: str) -> Account | None:
        """The account of a live session (``None``: no such session, or a banned account)."""
        with self.store._read() as conn:
            row = conn.execute(
                sa.select(accounts).join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.id_hash == hash_token(session_id))).first()
        if row is None or row.banned:
            return None
        return _row_account(row)

    def drop_session(self, session_id: str) -> None:
        with self.store._write() as conn:
            conn.execute(sessions.delete().where(sessions.c.id_hash == hash_token(session_id)))

    def drop_sessions(self, account_id: str) -> int:
        with self.store._write() as conn:
            gone = conn.execute(sessions.delete().where(sessions.c.account_id == account_id))
        return int(gone.rowcount or 0)

    # -- seats held by accounts -------------------------------------------------------------

    def bind_seats(self, game_id: str, bound: Sequence[tuple[int, str, str]]) -> None:
        """Give seats to accounts: ``(seat, account id, seat token)``; the seat's token
        becomes ``token`` (its hash: the old link stops opening the seat)."""
        with self.store._write() as conn:
            for seat, account_id, token in bound:
                conn.execute(seat_table.update().where(
                    seat_table.c.game_id == game_id, seat_table.c.seat == seat)
                    .values(token_hash=hash_token(token)))
                conn.execute(account_seats.insert().values(
                    game_id=game_id, seat=seat, account_id=account_id))

    def seats_of(self, account_id: str, limit: int = 100) -> list[tuple[str, int]]:
        """``(game id, seat)`` of the seats the account holds, the games written last first
        (at most ``limit``: "my games" reads each game's position)."""
        with self.store._read() as conn:
            rows = conn.execute(
                sa.select(account_seats.c.game_id, account_seats.c.seat)
                .join(games, games.c.id == account_seats.c.game_id)
                .where(account_seats.c.account_id == account_id)
                .order_by(games.c.updated.desc()).limit(limit)).all()
        return [(r.game_id, int(r.seat)) for r in rows]

    def holders(self, game_id: str) -> dict[int, str]:
        """``{seat: account id}`` of a game's seats held by accounts."""
        with self.store._read() as conn:
            rows = conn.execute(sa.select(account_seats.c.seat, account_seats.c.account_id)
                                .where(account_seats.c.game_id == game_id)).all()
        return {int(r.seat): str(r.account_id) for r in rows}

    # -- chat -------------------------------------------------------------------------------

    def add_message(self, game_id: str, seat: int | None, account_id: str | None, name: str,
                    text: str) -> int:
        with self.store._write() as conn:
            new_id: int = conn.execute(chat.insert().values(
                game_id=game_id, seat=seat, account_id=account_id, name=name, text=text,
                created=now()).returning(chat.c.id)).scalar_one()
            self.announce(conn, chat_key(game_id))
        self.woken(chat_key(game_id))
        return int(new_id)

    def messages(self, game_id: str, after: int = 0, limit: int = 200) -> list[ChatMessage]:
        """The last ``limit`` messages after id ``after``, oldest first."""
        with self.store._read() as conn:
            rows = conn.execute(
                sa.select(chat).where(chat.c.game_id == game_id, chat.c.id > after)
                .order_by(chat.c.id.desc()).limit(limit)).all()
        return [ChatMessage(int(r.id), r.seat, r.name, r.text, _stamp(r.created))
                for r in reversed(rows)]

    def mute(self, game_id: str, account_id: str) -> None:
        with self.store._write() as conn:
            conn.execute(self._insert()(chat_mutes).values(
                game_id=game_id, account_id=account_id).on_conflict_do_nothing())

    def muted(self, game_id: str, account_id: str) -> bool:
        with self.store._read() as conn:
            return conn.execute(sa.select(chat_mutes.c.account_id).where(
                chat_mutes.c.game_id == game_id,
                chat_mutes.c.account_id == account_id)).first() is not None

    def chat_account(self, game_id: str, message_id: int) -> str | None:
        """The account that wrote a message (to mute it)."""
        with self.store._read() as conn:
            value = conn.execute(sa.select(chat.c.account_id).where(
                chat.c.game_id == game_id, chat.c.id == message_id)).scalar_one_or_none()
        return None if value is None else str(value)

    # -- ratings ----------------------------------------------------------------------------

    def ratings_of(self, players: Sequence[str], game: str) -> dict[str, Rating]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(ratings).where(
                ratings.c.game == game, ratings.c.player.in_(list(players)))).all()
        return {r.player: Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}

    def all_ratings(self, player: str) -> dict[str, Rating]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(ratings).where(ratings.c.player == player)).all()
        return {r.game: Rating(float(r.mu), float(r.sigma), int(r.games)) for r in rows}

    def top(self, game: str, limit: int = 20) -> list[tuple[str, Rating]]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(ratings).where(ratings.c.game == game)
                                .order_by(ratings.c.mu.desc()).limit(limit)).all()
        return [(r.player, Rating(float(r.mu), float(r.sigma), int(r.games))) for r in rows]

    def unrated_over(self, account_id: str, limit: int = 20) -> list[str]:
        """The games over (``games.status``) in which the account holds a seat and that have
        no result yet: the ones its profile rates before it is shown."""
        with self.store._read() as conn:
            rows = conn.execute(
                sa.select(account_seats.c.game_id)
                .join(games, games.c.id == account_seats.c.game_id)
                .where(account_seats.c.account_id == account_id, games.c.status == "over",
                       ~sa.exists().where(results.c.game_id == account_seats.c.game_id))
                .order_by(games.c.updated.desc()).limit(limit)).all()
        return [str(r.game_id) for r in rows]

    def is_rated(self, game_id: str) -> bool:
        with self.store._read() as conn:
            return conn.execute(sa.select(results.c.seat).where(
                results.c.game_id == game_id).limit(1)).first() is not None

    def save_results(self, game_id: str, game: str,
                     rows: Sequence[tuple[int, str, int, Rating, Rating]]) -> bool:
        """Store a game's places ``(seat, player, place, before, after)`` and the new
        ratings in one transaction; ``False`` when the game was rated already (by this or
        another process: the primary key of ``results``)."""
        stamp = now()
        try:
            with self.store._write() as conn:
                conn.execute(results.insert(), [
                    {"game_id": game_id, "seat": seat, "player": player, "game": game,
                     "place": place, "before": before.mu, "after": after.mu, "created": stamp}
                    for seat, player, place, before, after in rows])
                for _seat, player, _place, _before, after in rows:
                    stmt = self._insert()(ratings).values(
                        player=player, game=game, mu=after.mu, sigma=after.sigma,
                        games=after.games)
                    conn.execute(stmt.on_conflict_do_update(
                        index_elements=["player", "game"],
                        set_={"mu": after.mu, "sigma": after.sigma, "games": after.games}))
        except sa.exc.IntegrityError:
            return False
        return True

    def results_of(self, player: str, limit: int = 100) -> list[ResultRow]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(results).where(results.c.player == player)
                                .order_by(results.c.created.desc()).limit(limit)).all()
        return [ResultRow(r.game_id, int(r.seat), r.player, r.game, int(r.place),
                          float(r.before), float(r.after), _stamp(r.created)) for r in rows]

    def game_results(self, game_id: str) -> list[ResultRow]:
        with self.store._read() as conn:
            rows = conn.execute(sa.select(results).where(results.c.game_id == game_id)
                                .order_by(results.c.seat)).all()
        return [ResultRow(r.game_id, int(r.seat), r.player, r.game, int(r.place),
                          float(r.before), float(r.after), _stamp(r.created)) for r in rows]


def _stamp(value: datetime | None) -> str:
    """ISO 8601 in UTC with its offset on either database (SQLite gives back naive times,
    written in UTC; PostgreSQL gives them in its session's zone)."""
    if value is None:
        return ""
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value.isoformat(timespec="seconds")
