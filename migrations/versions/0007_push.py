"""Web push subscriptions: one row per device that asked for « À vous de jouer ».

Revision ID: 0007_push
Revises: 0006_correspondence
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_push"
down_revision = "0006_correspondence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1000), primary_key=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player"])


def downgrade() -> None:
    op.drop_index("ix_push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
