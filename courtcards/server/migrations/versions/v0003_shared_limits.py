"""Rate-limit hits shared by every server process; rematch links.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cc_rate_hits",
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_cc_rate_hits_key_at", "cc_rate_hits", ["key", "at"])
    op.create_table(
        "cc_rematches",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
        sa.Column("rematch_id", sa.String(16), sa.ForeignKey("cc_tables.id"), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cc_rematches")
    op.drop_index("ix_cc_rate_hits_key_at", "cc_rate_hits")
    op.drop_table("cc_rate_hits")
