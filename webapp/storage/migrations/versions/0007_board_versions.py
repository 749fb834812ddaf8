"""Board versions: a number moved with every change of a board's bests.

A web process keeps each board's scores; it reads them again only when the
board's version moved (no backfill: a board without a row is version 0).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "board_versions",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("version", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("board_versions")
