"""Accounts the operator suspended (`choux admin suspend`): when, and why (for the
operator's own listing; the player reads only that the account is suspended).

Existing accounts stay active (`suspended_at` null).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("accounts", sa.Column("suspended_reason", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("suspended_reason")
        batch.drop_column("suspended_at")
