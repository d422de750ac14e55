"""Accounts (optional): accounts, their sessions, the account a seat belongs to, a table's owner key;
ratings of accounts (and bots' anchors) per game, and their history.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cc_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "cc_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("cc_accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_cc_sessions_account", "cc_sessions", ["account_id"])
    # plain nullable columns: added in place on both databases, every existing row kept (NULL: a guest's)
    op.add_column("cc_seats", sa.Column("account_id", sa.Integer, nullable=True))
    op.create_index("ix_cc_seats_account", "cc_seats", ["account_id"])
    op.add_column("cc_tables", sa.Column("owner_hash", sa.String(64), nullable=True))
    op.create_table(
        "cc_ratings",
        sa.Column("player", sa.String(48), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "cc_rating_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(48), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_cc_rating_events_player", "cc_rating_events", ["player", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_cc_rating_events_player", "cc_rating_events")
    op.drop_table("cc_rating_events")
    op.drop_table("cc_ratings")
    op.drop_column("cc_tables", "owner_hash")
    op.drop_index("ix_cc_seats_account", "cc_seats")
    op.drop_column("cc_seats", "account_id")
    op.drop_index("ix_cc_sessions_account", "cc_sessions")
    op.drop_table("cc_sessions")
    op.drop_table("cc_accounts")
