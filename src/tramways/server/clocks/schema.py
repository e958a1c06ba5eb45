"""The tables of play over days (migration 0007): server-side metadata of a game, never its
engine settings (the engine refuses keys it does not know) and never its record.

- ``game_pace``: a game's pace (seconds per move) and what its deadline does
  (``nothing``, ``remind``, ``bot_move``, ``hand_over``), with the bot that stands in;
- ``seat_clocks``: per seat, the move number ``n`` it came to act at and since when (on the
  server's clock), its vacation, and who holds it when it was handed over (``owner_kind``:
  the kind to give back; ``resigned``: never given back);
- ``deadline_fired``: one row per ``(game, seat, n, stage)`` that fired: the primary key lets
  one process fire it; ``done`` false with an old ``claimed`` is taken over by another process
  (its owner died);
- ``seat_votes``: the other human seats' votes to hand a seat over;
- ``game_resign`` (migration 0011): what a resignation does, chosen when the game was made:
  ``bot`` (the seat goes to the computer) or ``end`` (the game ends); no row: ``bot``.
"""

from __future__ import annotations

import sqlalchemy as sa

from tramways.server.tables import metadata

game_pace = sa.Table(
    "game_pace",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seconds", sa.Integer, nullable=False),
    sa.Column("on_deadline", sa.String(16), nullable=False),
    sa.Column("bot", sa.String(32), nullable=False),
)

seat_clocks = sa.Table(
    "seat_clocks",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer, nullable=False),
    sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    sa.Column("vacation_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("owner_kind", sa.String(32), nullable=True),
    sa.Column("resigned", sa.Boolean, nullable=False, server_default=sa.false()),
)

deadline_fired = sa.Table(
    "deadline_fired",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("stage", sa.String(16), primary_key=True),
    sa.Column("claimed", sa.DateTime(timezone=True), nullable=False),
    sa.Column("done", sa.Boolean, nullable=False),
)

seat_votes = sa.Table(
    "seat_votes",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("voter", sa.Integer, primary_key=True),
)

game_resign = sa.Table(
    "game_resign",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("on_resign", sa.String(8), nullable=False),
)
