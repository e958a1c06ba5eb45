""""your turn" messages in the language of the page they were set on

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("webhook_lang", sa.String(8), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("email_lang", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("email_lang")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("webhook_lang")
