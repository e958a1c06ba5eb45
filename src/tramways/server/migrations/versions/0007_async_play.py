"""play over days: paces, seat clocks, deadlines fired once, votes

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_pace",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("on_deadline", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=False),
    )
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("vacation_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("owner_kind", sa.String(32), nullable=True),
        sa.Column("resigned", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "deadline_fired",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("stage", sa.String(16), primary_key=True),
        sa.Column("claimed", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done", sa.Boolean, nullable=False),
    )
    op.create_table(
        "seat_votes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("voter", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    for name in ("seat_votes", "deadline_fired", "seat_clocks", "game_pace"):
        op.drop_table(name)
