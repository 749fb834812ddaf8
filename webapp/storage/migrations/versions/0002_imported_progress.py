"""The progress a browser kept before players existed, imported once per player.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("imported", sa.DateTime))
    op.create_table(
        "imported_progress",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("moves", sa.Integer, nullable=False),
        sa.Column("extra", sa.Integer, nullable=False),
        sa.Column("min", sa.Integer),
        sa.Column("at", sa.String(10)),
    )


def downgrade() -> None:
    op.drop_table("imported_progress")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("imported")
