"""Table status, privacy, version and last activity for listing and expiry; state snapshots; leases.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ADD COLUMN (not a batch copy): SQLite would refuse to drop the referenced table.
    op.add_column("cc_tables", sa.Column("status", sa.String(16), nullable=False, server_default="open"))
    op.add_column("cc_tables", sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("cc_tables", sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("cc_tables", sa.Column("updated", sa.Float, nullable=False, server_default="0"))
    # Tables from before: status from their seats, version from the log.
    op.execute(
        "UPDATE cc_tables SET status = CASE WHEN finished THEN 'finished' WHEN EXISTS (SELECT 1 FROM "
        "cc_seats s WHERE s.table_id = cc_tables.id AND s.kind = 'human' AND s.token_hash IS NULL) "
        "THEN 'open' ELSE 'playing' END, "
        "updated = created, "
        "version = (SELECT COUNT(*) FROM cc_actions WHERE cc_actions.table_id = cc_tables.id)"
    )
    op.create_index("ix_cc_tables_listing", "cc_tables", ["private", "status", "created"])
    op.create_index("ix_cc_tables_updated", "cc_tables", ["finished", "updated"])
    op.create_table(
        "cc_snapshots",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("cc_tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
    )
    op.create_table(
        "cc_leases",
        sa.Column("table_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cc_leases")
    op.drop_table("cc_snapshots")
    op.drop_index("ix_cc_tables_updated", "cc_tables")
    op.drop_index("ix_cc_tables_listing", "cc_tables")
    with op.batch_alter_table("cc_tables") as batch:
        for name in ("updated", "version", "private", "status"):
            batch.drop_column(name)
