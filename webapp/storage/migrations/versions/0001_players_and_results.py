"""Players and their verified results.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(20)),
        sa.Column("code_hash", sa.String(64), unique=True),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("puzzle", sa.String(64), nullable=False),
        sa.Column("board", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("day", sa.Date),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("shortest", sa.Integer),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("line_hash", sa.String(64), nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.UniqueConstraint("player_id", "puzzle", "line_hash", name="uq_results_line"),
    )
    op.create_index("ix_results_board", "results", ["puzzle", "ranked"])
    op.create_index("ix_results_daily", "results", ["game", "day", "ranked"])


def downgrade() -> None:
    op.drop_table("results")
    op.drop_table("players")
