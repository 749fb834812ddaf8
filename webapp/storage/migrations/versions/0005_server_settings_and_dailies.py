"""What every web process must agree on, kept in the database: the cookie-signing
secret (``server_settings``) and each day's daily once made (``dailies``).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_settings",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "dailies",
        sa.Column("game", sa.String(20), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("made", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dailies")
    op.drop_table("server_settings")
