"""Names unique by look, sessions per browser, and the hour's new players per address.

``players.name_key`` (unique) holds each name with case and look-alikes folded
away. Existing names are filled in order of the players' ids: the first player
keeps a name (written as today's API writes it: NFC, single spaces), a later
look-alike of it loses its name (a leaderboard then shows "Player N" until that
player picks another), and so does a name today's rules refuse (an invisible or
blank-looking one).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

from webapp.storage.names import NameRefused, check_name, name_key

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _fill_name_keys() -> None:
    bind = op.get_bind()
    players = sa.table(
        "players", sa.column("id", sa.Integer), sa.column("name"), sa.column("name_key")
    )
    rows = bind.execute(
        sa.select(players.c.id, players.c.name)
        .where(players.c.name.is_not(None))
        .order_by(players.c.id)
    ).all()
    taken: set[str] = set()
    for player_id, name in rows:
        try:
            kept = check_name(name)  # as today's API stores it: NFC, single spaces
        except NameRefused:
            kept = None
        key = name_key(kept) if kept is not None else None
        if key is None or key in taken:
            values: dict = {"name": None, "name_key": None}
        else:
            taken.add(key)
            values = {"name": kept, "name_key": key}
        bind.execute(players.update().where(players.c.id == player_id).values(**values))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.String(255)))
    _fill_name_keys()
    # a unique index, not a constraint: on SQLite a new constraint means batch mode's
    # copy-and-drop of the players table, and dropping it cascades to every result
    op.create_index("uq_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "player_sessions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created", sa.DateTime, nullable=False),
        sa.Column("seen", sa.Date, nullable=False),
        sa.Column("agent", sa.String(20), nullable=False),
    )
    op.create_table(
        "new_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("address_key", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime, nullable=False),
    )
    op.create_index("ix_new_players_address", "new_players", ["address_key", "created"])


def downgrade() -> None:
    op.drop_table("new_players")
    op.drop_table("player_sessions")
    op.drop_index("uq_players_name_key", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_key")
