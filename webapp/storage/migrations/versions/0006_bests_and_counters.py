"""The read tables: each player's best per board, length counts, players' choices.

Filled from the results already stored (:func:`webapp.storage.derived.rebuild`);
from then on kept on every write.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

from webapp.storage.derived import rebuild

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bests",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("day", sa.Date),
        sa.Column("score", sa.BigInteger, nullable=False),
        sa.Column("length", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("result_id", sa.Integer, nullable=False),
    )
    op.create_index("ix_bests_rank", "bests", ["puzzle", "score", "result_id"])
    op.create_index("ix_bests_streak", "bests", ["player_id", "game", "day"])
    op.create_table(
        "board_lengths",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("length", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )
    op.create_table(
        "choice_players",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, primary_key=True),
        sa.Column("position", sa.BigInteger, primary_key=True),
        sa.Column("next", sa.BigInteger, primary_key=True),
    )
    op.create_table(
        "choice_counts",
        sa.Column("puzzle", sa.String(64), primary_key=True),
        sa.Column("position", sa.BigInteger, primary_key=True),
        sa.Column("next", sa.BigInteger, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )
    rebuild(op.get_bind())


def downgrade() -> None:
    for name in ("choice_counts", "choice_players", "board_lengths", "bests"):
        op.drop_table(name)
