"""Ladder abandons counted: ``ladder_games.abandoned``, when a player dropped a puzzle for
the next, so ``ABANDONS_PER_HOUR`` is one indexed count (:mod:`webapp.players.ladder`).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ladder_games") as batch:
        batch.add_column(sa.Column("abandoned", sa.DateTime))
    op.create_index("ix_ladder_games_abandoned", "ladder_games", ["player_id", "abandoned"])


def downgrade() -> None:
    op.drop_index("ix_ladder_games_abandoned", "ladder_games")
    with op.batch_alter_table("ladder_games") as batch:
        batch.drop_column("abandoned")
