"""Correspondence tables: each seat's time per move, what happens when it runs out, and the
pending deadline (kept in the store so that it survives restarts).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "correspondence",
        sa.Column(
            "table_id",
            sa.Integer,
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("move_seconds", sa.Integer, nullable=False),
        sa.Column("on_timeout", sa.String(10), nullable=False),
        sa.Column("due_version", sa.Integer, nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_correspondence_due", "correspondence", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_correspondence_due", table_name="correspondence")
    op.drop_table("correspondence")
