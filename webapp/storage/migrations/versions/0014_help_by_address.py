"""Help follows the board: where each holding was handed out.

``attempts.address_key``, ``runs.address_key`` and ``race_entries.address_key`` (the
keyed hash of the address, as ``new_players`` keeps one, never the address) and
``attempts.kind`` ("daily", "level", "ladder"), so every web process's record of help
(:mod:`webapp.players.helps`) knows whose questions count. Rows from before have none:
their holders' cookies still count.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attempts") as batch:
        batch.add_column(sa.Column("address_key", sa.String(64)))
        batch.add_column(sa.Column("kind", sa.String(8)))
    for table in ("runs", "race_entries"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("address_key", sa.String(64)))


def downgrade() -> None:
    for table in ("race_entries", "runs"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("address_key")
    with op.batch_alter_table("attempts") as batch:
        batch.drop_column("kind")
        batch.drop_column("address_key")
