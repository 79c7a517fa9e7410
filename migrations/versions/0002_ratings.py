"""Guest identities on seats, and a rating ladder per game.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("player", sa.String(40), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game", "player"),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player")
