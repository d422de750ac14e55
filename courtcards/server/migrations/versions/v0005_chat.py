"""Chat kept in the database: each table's messages (players' and spectators' channels), so a restart
or another server process still shows a table's recent chat.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cc_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_cc_chat_table_channel", "cc_chat", ["table_id", "channel", "id"])


def downgrade() -> None:
    op.drop_index("ix_cc_chat_table_channel", "cc_chat")
    op.drop_table("cc_chat")
