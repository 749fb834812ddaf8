"""The ladder: puzzles with their ratings, players' ratings per game, the puzzles served.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _rating() -> list[sa.Column]:
    return [
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "ladder_puzzles",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("board", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("shortest", sa.Integer, nullable=False),
        sa.Column("level", sa.String(80)),
        *_rating(),
    )
    op.create_index("ix_ladder_puzzles_rating", "ladder_puzzles", ["game", "rating"])
    op.create_table(
        "player_ratings",
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(20), primary_key=True),
        *_rating(),
    )
    op.create_table(
        "ladder_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("puzzle", sa.String(64), nullable=False),
        sa.Column("opened", sa.DateTime, nullable=False),
        sa.Column("score", sa.Float),
        sa.Column("rating_before", sa.Float),
        sa.Column("rating_after", sa.Float),
        sa.UniqueConstraint("player_id", "puzzle", name="uq_ladder_games_puzzle"),
    )
    op.create_index("ix_ladder_games_open", "ladder_games", ["player_id", "game", "score"])


def downgrade() -> None:
    for name in ("ladder_games", "player_ratings", "ladder_puzzles"):
        op.drop_table(name)
