"""The board editor's JSON endpoints: validate a position, check it, its state space.

``POST /api/validate`` {game, board, options} -> {ok, error, canonical}: the
solver's own parser judges the board, so the editor shows exactly the CLI's
one-line messages ("piece B is not a rectangle", "colour R has 5 units, tubes
hold 4"); ``ok`` is that verdict. ``POST /api/check`` adds {solvable, distance,
optimal, message} from a short, budgeted analysis in a worker process.
``GET /api/graph/<game>?board=`` is the whole state space reachable from a board
(:mod:`solver.core.space`), made and compressed in a worker process; over its
100,000 positions a 413. ``GET /api/visits/<game>?board=&algorithm=`` is the order
one algorithm expands that space's positions (:mod:`solver.visits`), in the long lane
like any whole search. Each asks the solver processes through
:func:`webapp.http.page_tasks.ask` (503 when they are all busy). A request refused is
a 4xx ``{"error", "template", "params"}``, as everywhere in the API.
"""

from __future__ import annotations

import gzip
from dataclasses import asdict

from flask import Blueprint, Response, current_app, jsonify, request

from solver.core.errors import BoardError
from solver.engine import parse_board, unfit

from ..jobs.contract import CheckBoard, GraphSpace, VisitOrder
from ..jobs.model import LONG
from ..protocol import message_fields
from ..puzzle_request import PuzzleRequest, RequestRefused
from .bodies import read_json_body
from .links import play_url
from .page_tasks import ask

boards = Blueprint("boards", __name__, url_prefix="/api")


@boards.errorhandler(RequestRefused)
def _refused(err: RequestRefused):
    return jsonify(error=str(err), **message_fields(err)), err.status, err.headers


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


@boards.post("/validate")
def validate():
    reply, _ = _validated()
    return jsonify(reply)


@boards.post("/check")
def check():
    reply, asked = _validated()
    if reply["ok"]:
        task = CheckBoard(asked.game, asked.board, asked.options)
        reply.update(asdict(ask(task, current_app.config["CHECK_SECONDS"])))
    return jsonify(reply)


@boards.get("/graph/<name>")
def graph(name: str):
    """``{"nodes": [{"board", "distance"}], "edges": [[i, j], ...]}`` for ``?board=``
    (the game's options as further parameters)."""
    asked = PuzzleRequest.from_fields({**request.args.to_dict(), "game": name})
    task = GraphSpace(asked.game, asked.board, asked.options)
    return _compressed(ask(task, current_app.config["GRAPH_SECONDS"]).gzip)


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


@boards.get("/visits/<name>")
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
    task = VisitOrder(asked.game, asked.board, asked.options, algorithm)
    seconds = current_app.config["VISITS_SECONDS"]
    made = ask(task, seconds, address=request.remote_addr or "", lane=LONG)
    return _compressed(made.gzip)
