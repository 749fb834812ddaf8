"""The database's bad moments, as a player sees them: a 503 with ``Retry-After``.

A database refusing connections, restarting or frozen raises SQLAlchemy's
``OperationalError`` (or ``InterfaceError``, a pool ``TimeoutError``, or
:class:`~webapp.storage.database.DatabaseTimeout` when a query overran
:data:`~webapp.storage.database.QUERY_SECONDS`). Unhandled, each was a generic
500 with a logged traceback (244 of them in 14 s of a refused PostgreSQL).
:func:`install` answers them 503 ``{"error"}`` with ``Retry-After`` and logs one
line per request, no traceback; the page keeps the result and sends it again.
Other database errors (an integrity error is a bug) stay 500s.
"""

from __future__ import annotations

import logging

from flask import Flask, request
from sqlalchemy import exc

from .database import DatabaseTimeout

log = logging.getLogger(__name__)

MESSAGE = "the database is unavailable for a moment; try again"
RETRY_AFTER = 5
UNAVAILABLE = (exc.OperationalError, exc.InterfaceError, exc.TimeoutError, DatabaseTimeout)


def install(app: Flask) -> None:
    """Answer every request the database failed with 503 and ``Retry-After``."""

    def unavailable(err: Exception):
        from ..edge import error_page  # the app's own error page (JSON for the API)

        first = str(err).strip().splitlines()[0][:200] if str(err).strip() else ""
        log.warning(
            "database unavailable: %s %s: %s %s",
            request.method,
            request.path,
            type(err).__name__,
            first,
        )
        return error_page(503, MESSAGE, {"Retry-After": str(RETRY_AFTER)})

    for kind in UNAVAILABLE:
        app.register_error_handler(kind, unavailable)
