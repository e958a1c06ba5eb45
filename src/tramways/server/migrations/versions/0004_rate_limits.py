"""rate_limits: token buckets shared by every server process

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("stamp", sa.Float, nullable=False),
        sa.Column("allowed", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_limits")
