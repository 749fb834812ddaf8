"""Streak and storm: each run a player plays, its current puzzle and position, its score.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("family", sa.String(64), nullable=False),
        sa.Column("started", sa.DateTime, nullable=False),
        sa.Column("expires", sa.DateTime, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("puzzle", sa.String(64), nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("board", sa.Text, nullable=False),
        sa.Column("shortest", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("penalties", sa.Integer, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("ended", sa.DateTime),
        sa.Column("mistake", sa.Text),
    )
    op.create_index("ix_runs_player", "runs", ["player_id", "mode", "game", "id"])
    op.create_index("ix_runs_best", "runs", ["player_id", "mode", "game", "day", "solved"])


def downgrade() -> None:
    op.drop_table("runs")
