"""Chat mutes kept in the database: the seats a table's creator muted, so every server process refuses
their messages and a restart keeps them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cc_chat_mutes",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cc_chat_mutes")
