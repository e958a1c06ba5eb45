"""what a resignation does, chosen when a game is made (docs/async.md): "bot" (the seat
goes to the computer, as before) or "end" (the game ends at once); a game's choice in
game_resign (no row: "bot"), an open game's in open_games.on_resign

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_resign",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("on_resign", sa.String(8), nullable=False),
    )
    with op.batch_alter_table("open_games") as batch:
        batch.add_column(sa.Column("on_resign", sa.String(8), nullable=False,
                                   server_default="bot"))


def downgrade() -> None:
    with op.batch_alter_table("open_games") as batch:
        batch.drop_column("on_resign")
    op.drop_table("game_resign")
