"""Accounts (pseudonym, password hash, server-side sessions), follows between players,
private tables with an invite secret, when quick play fills a table with bots, seats the host gave to a bot for good (`excluded`),
and an index to find a person's seats.

Existing tables stay public (`private` false for every row) and keep their seats.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables",
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.text("false")),
    )
    op.add_column("tables", sa.Column("secret", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("fill_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "seats",
        sa.Column("excluded", sa.Boolean, nullable=False, server_default=sa.text("false")),
    )
    op.create_index("ix_seats_player", "seats", ["player"])
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pseudo", sa.String(24), nullable=False),
        sa.Column("pseudo_key", sa.String(24), nullable=False, unique=True),
        sa.Column("player", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(40), nullable=False),
        sa.Column("followed", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("follower", "followed"),
    )


def downgrade() -> None:
    op.drop_table("follows")
    op.drop_index("ix_account_sessions_account", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
    op.drop_index("ix_seats_player", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("excluded")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fill_at")
        batch.drop_column("secret")
        batch.drop_column("private")
