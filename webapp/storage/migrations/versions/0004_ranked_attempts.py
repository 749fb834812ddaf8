"""Ranked attempts: when the server handed a ranked puzzle to a player, and whether help was asked.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("puzzle", sa.String(64), nullable=False),
        sa.Column("family", sa.String(64), nullable=False),
        sa.Column("opened", sa.DateTime, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("finished", sa.DateTime),
        sa.UniqueConstraint("player_id", "puzzle", name="uq_attempts_puzzle"),
    )
    op.create_index("ix_attempts_family", "attempts", ["player_id", "family"])


def downgrade() -> None:
    op.drop_table("attempts")
