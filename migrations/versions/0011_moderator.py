"""Moderators are accounts the operator names with `choux admin moderator PSEUDO`: a right
stored with the account, which goes with it. It was a list of pseudonyms in
`CHOUX_MODERATORS`: whoever registered a listed pseudonym (one not taken yet, or freed by
an erasure) became a moderator.

No account is a moderator after this revision: the operator names them again.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "accounts",
        sa.Column("moderator", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("moderator")
