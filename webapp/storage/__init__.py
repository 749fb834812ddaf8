"""Storage of players and their results: SQLAlchemy 2 models, the engine, Alembic migrations.

One :class:`~webapp.storage.database.Database` per app, from ``DATABASE_URL``
(``ARCADE_DATABASE_URL``): by default a SQLite file in the app's data directory,
so a fresh machine needs nothing set up; ``postgresql+psycopg://...`` when
several web processes share the players. The schema lives in Alembic
migrations shipped in the package and applied at start-up.
"""

from .database import Database, default_url

__all__ = ["Database", "default_url"]
