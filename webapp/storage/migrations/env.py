"""Alembic's environment: run on the connection :mod:`webapp.storage.database` passes in.

There is no ``alembic.ini``: the app builds the configuration in code
(:func:`webapp.storage.database.alembic_config`), so the migrations travel in the
wheel and run wherever the app starts.
"""

from alembic import context

from webapp.storage.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying tables
)
with context.begin_transaction():
    context.run_migrations()
