"""Names by shape: a second unique key, the skeleton taken before case folding.

``players.shape_key`` (unique, :func:`webapp.storage.names.shape_key`) catches the
look-alikes folding first lost (``AIice`` with a capital i is ``Alice``), and both
keys now start from the name's NFKC form (fullwidth ``Ａｌｉｃｅ``, ``ᴬlice``). The keys
of existing names are filled again in order of the players' ids: the first player
keeps a name; a later look-alike of it by either key loses its name, and so does a
name today's rules refuse (a stand-in such as ``Player 3``). A player who lost a
name shows as "Player N" until they choose another.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

from webapp.storage.names import NameRefused, check_name, name_key, shape_key

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _fill_keys() -> None:
    bind = op.get_bind()
    players = sa.table(
        "players",
        sa.column("id", sa.Integer),
        sa.column("name"),
        sa.column("name_key"),
        sa.column("shape_key"),
    )
    rows = bind.execute(
        sa.select(players.c.id, players.c.name)
        .where(players.c.name.is_not(None))
        .order_by(players.c.id)
    ).all()
    # every key cleared first: a name filled below never meets an old-style key
    bind.execute(players.update().values(name_key=None))
    taken: set[str] = set()
    for player_id, name in rows:
        try:
            kept = check_name(name)
        except NameRefused:
            kept = None
        keys = (name_key(kept), shape_key(kept)) if kept is not None else None
        if keys is None or taken & {f"n:{keys[0]}", f"s:{keys[1]}"}:
            values: dict = {"name": None, "name_key": None, "shape_key": None}
        else:
            taken |= {f"n:{keys[0]}", f"s:{keys[1]}"}
            values = {"name": kept, "name_key": keys[0], "shape_key": keys[1]}
        bind.execute(players.update().where(players.c.id == player_id).values(**values))


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("shape_key", sa.String(255)))
    _fill_keys()
    op.create_index("uq_players_shape_key", "players", ["shape_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_players_shape_key", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("shape_key")
