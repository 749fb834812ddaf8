"""Health and request ids: ``/healthz``, ``/readyz`` and the ``X-Request-Id`` header.

``/healthz`` says the process answers. ``/readyz`` says whether it can take
jobs: 200 with the job core's figures and the players held against the
limit (:mod:`webapp.live.admission`), 503 while shutting down. Every HTTP
response echoes the request's id (the client's ``X-Request-Id`` when it is up to
64 plain characters, else a new one),
so a log line can be matched to the request that caused it.
"""

from __future__ import annotations

import itertools
import re

from flask import Blueprint, current_app, g, jsonify, request

health = Blueprint("health", __name__)

_request_ids = itertools.count(1)
#: a client's id is echoed into headers and logs: plain printable characters only
REQUEST_ID = re.compile(r"[A-Za-z0-9._:/+=@-]{1,64}")


def client_request_id(header: str) -> str:
    """The client's ``X-Request-Id`` when it is short and plain, else ``""``."""
    return header if REQUEST_ID.fullmatch(header or "") else ""


@health.before_app_request
def tag_request():
    given = client_request_id(request.headers.get("X-Request-Id", ""))
    g.request_id = given or f"h{next(_request_ids)}"


@health.after_app_request
def echo_request_id(response):
    response.headers["X-Request-Id"] = getattr(g, "request_id", "")
    return response


@health.get("/healthz")
def healthz():
    return jsonify(status="ok")


@health.get("/readyz")
def readyz():
    jobs = current_app.extensions["jobs"]
    ready = not jobs.closing
    players = current_app.extensions["admission"].health()
    return (
        jsonify(status="ok" if ready else "shutting down", **jobs.health(), **players),
        200 if ready else 503,
    )
