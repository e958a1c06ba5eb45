"""The tables of accounts, sessions, open games, chat and ratings (Alembic migration
``0005``), on the metadata of :mod:`tramways.server.storage` (what each holds:
:mod:`tramways.server.accounts.tables`), and the rows read from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tramways.server.storage import metadata

site_keys = sa.Table(
    "site_keys", metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.String(128), nullable=False),
)
accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(24), nullable=False),
    sa.Column("name_key", sa.String(24), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("banned", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
account_seats = sa.Table(
    "account_seats", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False,
              index=True),
)
open_games = sa.Table(
    "open_games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("seats", sa.Integer, nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("owner", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("pace_kind", sa.String(8), nullable=False, server_default="none"),  # 0008
    sa.Column("pace", sa.JSON, nullable=True),
    sa.Column("on_resign", sa.String(8), nullable=False, server_default="bot"),  # 0011
)
open_seats = sa.Table(
    "open_seats", metadata,
    sa.Column("open_id", sa.String(32), sa.ForeignKey("open_games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    sa.UniqueConstraint("open_id", "account_id"),
)
chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
chat_mutes = sa.Table(
    "chat_mutes", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
)
ratings = sa.Table(
    "ratings", metadata,
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
)
results = sa.Table(
    "results", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(64), nullable=False, index=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("before", sa.Float, nullable=False),
    sa.Column("after", sa.Float, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)


@dataclass(frozen=True)
class ChatMessage:
    id: int
    seat: int | None
    name: str
    text: str
    created: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "created": self.created}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class ResultRow:
    game_id: str
    seat: int
    player: str
    game: str
    place: int
    before: float
    after: float
    created: str


seat_invites = sa.Table(  # migration 0009: one-use invitations of a substitute to a seat
    "seat_invites", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("invited_by", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used", sa.DateTime(timezone=True), nullable=True),
)
seat_substitutes = sa.Table(  # the owner's token (hash) and account while a substitute plays
    "seat_substitutes", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("owner_hash", sa.String(64), nullable=False),
    sa.Column("owner_account", sa.String(32), nullable=True),
)
