"""Why a result is not ranked: ``results.unranked``, a short code the reply's ``why``
words come from (:data:`webapp.players.attempts.WHY`). Rows stored before keep None.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("unranked", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("unranked")
