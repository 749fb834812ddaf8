"""Health and request ids: ``/healthz``, ``/readyz`` and the ``X-Request-Id`` header.

``/healthz`` says the process answers (HAProxy's check: a web process is taken
out only when it stops answering). ``/readyz`` says whether it can serve
everything: 200 with the job jobs's figures, the players held against the
limit (:mod:`webapp.live.admission`) and ``"checks"`` (``database``, and in a
cluster ``redis``: ``"ok"`` or what is wrong); 503 while shutting down, while a
check fails (its ``status`` naming what is down) and, on a server that prebuilds its
tables, while some lane has not yet had a solver process ready (``"warming"``). Every HTTP
response echoes the request's id (the client's ``X-Request-Id`` when it is up to
64 plain characters, else a new one),
so a log line can be matched to the request that caused it.
"""

from __future__ import annotations

import itertools
import re

from flask import Blueprint, current_app, g, jsonify, request

from ..jobs.model import LONG

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


def dependency_checks() -> dict[str, str]:
    """``"ok"`` or what is wrong, for the database (when opened) and Redis (in a
    cluster: what the long lane's watcher last saw, so the check never waits)."""
    checks = {}
    database = current_app.extensions["players"].opened  # None until first use (tests)
    if database is not None:
        checks["database"] = database.ping() or "ok"
    long_lane = current_app.extensions["jobs"].lanes.get(LONG)
    available = getattr(long_lane, "available", None)  # only the cluster's lane has it
    if available is not None:
        checks["redis"] = "ok" if available else "out of reach"
    return checks


@health.get("/readyz")
def readyz():
    jobs = current_app.extensions["jobs"]
    checks = dependency_checks()
    down = [name for name, state in checks.items() if state != "ok"]
    if jobs.closing:
        status = "shutting down"
    elif down:
        status = " and ".join(down) + " down"
    else:  # a lane with no solver process ready yet cannot answer: not ready either
        status = "warming" if jobs.still_warming() else "ok"
    players = current_app.extensions["admission"].health()
    return (
        jsonify(status=status, checks=checks, **jobs.health(), **players),
        200 if status == "ok" else 503,
    )
