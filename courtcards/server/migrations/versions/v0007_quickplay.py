"""Quick-play tickets kept in the database: every server process on one database matches the same
queues, and a restart keeps the waiting tickets.

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
        "cc_quickplay",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("wait", sa.Float, nullable=False),
        sa.Column("deadline", sa.Float, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("done_at", sa.Float, nullable=True),
    )
    op.create_index("ix_cc_quickplay_queue", "cc_quickplay", ["status", "game", "players", "id"])
    op.create_index("ix_cc_quickplay_deadline", "cc_quickplay", ["status", "deadline"])


def downgrade() -> None:
    op.drop_index("ix_cc_quickplay_deadline", "cc_quickplay")
    op.drop_index("ix_cc_quickplay_queue", "cc_quickplay")
    op.drop_table("cc_quickplay")
