"""Whether a table's game counts for the ladder: a guided first game (« Apprendre à jouer »),
on a deal everyone may know in advance, does not.

Existing tables stay rated (`rated` true for every row).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables",
        sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.text("true")),
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
