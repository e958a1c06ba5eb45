"""the pace of an open game: its kind (none, live, async) and the pace
itself, which becomes the game's pace when the table starts

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("open_games") as batch:
        batch.add_column(sa.Column("pace_kind", sa.String(8), nullable=False,
                                   server_default="none"))
        batch.add_column(sa.Column("pace", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("open_games") as batch:
        batch.drop_column("pace")
        batch.drop_column("pace_kind")
