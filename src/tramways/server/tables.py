"""The schema: the tables of the server's database (created and upgraded by the Alembic
migrations in ``tramways/server/migrations``, which read :data:`metadata`).

- ``games``: game, record version, settings, seed and set-up (server-only), status, ``n``
  (actions in the record) and ``rev`` (bumped by every write: a move or an undo), the
  game's chat webhook;
- ``seats``: who sits where (``human`` or ``bot:NAME``), a display name, the SHA-256 hash
  of the seat's secret token (the token itself is never stored), and the e-mail address a
  seat gave for "your turn" messages;
- ``actions``: the record's actions; the primary key ``(game_id, seq)`` makes a second writer
  of move ``seq`` fail in the database, not in Python;
- ``log``: the game log as every viewer may read it (engine log lines, redacted notation, undo
  lines), appended in the same transaction as the move that wrote it;
- ``rate_limits``: token buckets shared by every server process (``Store.take_token``);
- ``analyses``: a finished game's post-game analysis (claim and result).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("setup", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("rev", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
    sa.Column("webhook", sa.Text, nullable=True),
    sa.Column("webhook_lang", sa.String(8), nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
    sa.Column("email", sa.String(254), nullable=True),
    sa.Column("email_lang", sa.String(8), nullable=True),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("notation", sa.Text, nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("reveals", sa.Boolean, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

log = sa.Table(
    "log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
    sa.Column("seq", sa.Integer, nullable=True),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("tokens", sa.Float, nullable=False),
    sa.Column("stamp", sa.Float, nullable=False),
    sa.Column("allowed", sa.Boolean, nullable=False),
)

analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("data", sa.JSON, nullable=True),
    sa.Column("started", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
)
"""A finished game's post-game analysis (``server/analyses.py``): the row
is its claim (``running``: one process analyses it), then its result (``done``, the
:class:`~tramways.bots.analysis.Analysis` as JSON) or ``failed``; ``n``: the actions of
the record analysed."""
