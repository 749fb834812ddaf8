"""Rated races: players' race ratings, the public races being rated, their racers.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _player(primary_key: bool = False) -> sa.Column:
    return sa.Column(
        "player_id",
        sa.Integer,
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "race_ratings",
        _player(primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("races", sa.Integer, nullable=False),
    )
    op.create_table(
        "rated_races",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("race", sa.String(32), nullable=False, unique=True),
        sa.Column("started", sa.DateTime, nullable=False),
        sa.Column("families", sa.Text, nullable=False),
        sa.Column("rated", sa.DateTime),
    )
    op.create_table(
        "race_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "rated_race",
            sa.Integer,
            sa.ForeignKey("rated_races.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _player(),
        sa.Column("ends", sa.DateTime, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer),
        sa.Column("rating_before", sa.Float),
        sa.Column("rating_after", sa.Float),
        sa.UniqueConstraint("rated_race", "player_id", name="uq_race_entries_racer"),
    )
    op.create_index("ix_race_entries_open", "race_entries", ["player_id", "ends"])


def downgrade() -> None:
    for name in ("race_entries", "rated_races", "race_ratings"):
        op.drop_table(name)
