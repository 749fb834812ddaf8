"""Small JSON endpoints for the board editor: validate a position, check it is solvable.

``POST /api/validate`` {game, board, options} -> {ok, error, canonical}: the
solver's own parser judges the board, so the editor shows exactly the CLI's
one-line messages ("piece B is not a rectangle", "colour R has 5 units, tubes
hold 4"). ``POST /api/check`` adds {solvable, distance, optimal, message} from
a short, budgeted analysis in a worker process (503 when they are all busy).
``GET /api/graph/<game>?board=`` is the whole state space reachable from a board
(:mod:`solver.core.space`), made and compressed in a worker process; over its
100,000 positions a 413. ``GET /api/visits/<game>?board=&algorithm=`` is the order
one algorithm expands that space's positions (:mod:`solver.visits`), in the long lane
like any whole search. Bad requests get 400 with {ok: false, error}.
"""

from __future__ import annotations

import gzip

from flask import Blueprint, Response, current_app, jsonify, request

from solver.core.errors import BoardError
from solver.core.space import SpaceTooLarge
from solver.engine import parse_board, unfit

from ..i18n import translated
from ..jobs.model import CHECK, GRAPH, LONG, VISITS, TaskRequest
from ..protocol import message_fields
from ..puzzle_request import PuzzleRequest, RequestRefused, read_json_body
from .links import play_url

api = Blueprint("api", __name__, url_prefix="/api")


@api.errorhandler(RequestRefused)
def _refused(err: RequestRefused):
    """The editor's replies always say ``ok``: a refused request too."""
    return jsonify(ok=False, error=str(err), **message_fields(err)), err.status, err.headers


def _validated() -> tuple[dict, PuzzleRequest]:
    """(reply, request): the reply has ok/error/canonical/link; a board the solver
    refuses is a verdict (ok: false), a malformed request a :class:`RequestRefused`."""
    body = read_json_body()
    asked = PuzzleRequest.parse(body.get("game"), body.get("board"), body.get("options"))
    try:
        domain, state = parse_board(asked.game, asked.board, **asked.options)
    except BoardError as err:
        return {"ok": False, "error": str(err), **message_fields(err), "canonical": None}, asked
    canonical = domain.format(state)
    reply = {
        "ok": True,
        "error": None,
        "canonical": canonical,
        "solved": domain.is_goal(state),
        "link": play_url(asked.game, canonical, **asked.options),
    }
    return reply, PuzzleRequest(asked.game, canonical, asked.options)


@api.post("/validate")
def validate():
    reply, _ = _validated()
    return jsonify(reply)


@api.post("/check")
def check():
    reply, asked = _validated()
    if reply["ok"]:
        seconds = current_app.config["CHECK_SECONDS"]
        task = TaskRequest(asked.game, {"board": asked.board, "options": asked.options})
        try:
            reply.update(current_app.extensions["jobs"].page_task(CHECK, task, seconds))
        except BoardError as err:
            raise RequestRefused(translated(err)) from None
    return jsonify(reply)


@api.get("/graph/<name>")
def graph(name: str):
    """``{"nodes": [{"board", "distance"}], "edges": [[i, j], ...]}`` for ``?board=``
    (the game's options as further parameters)."""
    asked = PuzzleRequest.from_fields({**request.args.to_dict(), "game": name})
    task = TaskRequest(asked.game, {"board": asked.board, "options": asked.options})
    try:
        made = current_app.extensions["jobs"].page_task(
            GRAPH, task, current_app.config["GRAPH_SECONDS"]
        )
    except SpaceTooLarge as err:
        raise RequestRefused(translated(err), 413) from None
    except BoardError as err:
        raise RequestRefused(translated(err)) from None
    return _compressed(made["gzip"])


def _compressed(packed: bytes) -> Response:
    """JSON the worker compressed: passed on as it is, or unpacked for a client
    that does not take gzip."""
    if "gzip" in request.accept_encodings:
        response = Response(packed, mimetype="application/json")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(gzip.decompress(packed), mimetype="application/json")
    response.vary.add("Accept-Encoding")
    return response


@api.get("/visits/<name>")
def visits(name: str):
    """``{"algorithm", "status", "nodes", "length", "optimal", "order", "depth",
    "added", "path", "complete"}`` for ``?board=&algorithm=`` (plus the game's
    options): the order ``algorithm`` expands the positions of ``/api/graph``'s
    answer for the same board, as indices into its ``nodes``."""
    fields = request.args.to_dict()
    algorithm = fields.get("algorithm") or ""
    asked = PuzzleRequest.from_fields({**fields, "game": name}, reserved=("algorithm",))
    problem = unfit(asked.game, algorithm[:40], **asked.options)
    if problem:
        raise RequestRefused(problem)
    task = TaskRequest(
        asked.game, {"board": asked.board, "options": asked.options, "algorithm": algorithm}
    )
    try:
        made = current_app.extensions["jobs"].page_task(
            VISITS,
            task,
            current_app.config["VISITS_SECONDS"],
            address=request.remote_addr or "",
            lane_name=LONG,
        )
    except SpaceTooLarge as err:
        raise RequestRefused(translated(err), 413) from None
    except BoardError as err:
        raise RequestRefused(translated(err)) from None
    return _compressed(made["gzip"])
