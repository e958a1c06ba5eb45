""""your turn" notifications: a seat's e-mail address, a game's webhook

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("webhook", sa.Text, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("email")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("webhook")
