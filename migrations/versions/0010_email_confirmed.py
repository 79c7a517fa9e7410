"""E-mail addresses confirmed by their owner (a link mailed to them) before any « À vous de
jouer » or password link goes there: someone else's address typed on a page got mails it
never asked for.

Addresses given before this revision were taken under the old rule and keep working: they
count as confirmed when they were given.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "email_notifications",
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.execute("update email_notifications set confirmed_at = created_at")


def downgrade() -> None:
    with op.batch_alter_table("email_notifications") as batch:
        batch.drop_column("confirmed_at")
