"""Tables, seats, the action log and finished game records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("clock", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("prev_code", sa.String(16), nullable=True),
        sa.Column("next_code", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("level", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("host", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "actions",
        sa.Column(
            "table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id", sa.Integer, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_records_table", "records", ["table_id"])
    op.create_table(
        "meta",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("meta")
    op.drop_table("records")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
