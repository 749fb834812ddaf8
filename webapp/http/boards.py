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
:func:`webapp.http.page_tasks.ask` (503 when they are all busy), its place in the lane
the client address's share. A check, a graph and a visiting order are help: each is
recorded against the ranked attempts it concerns (:mod:`webapp.players.helps`). A
request refused is a 4xx ``{"error", "template", "params"}``, as everywhere in the API.
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
from .players.context import read_cookie, state

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


def _helped(asked: PuzzleRequest) -> tuple[str, str]:
    """Record the question as help (:meth:`~webapp.players.helps.HelpLedger.asked`), and
    say whose share of a lane it takes: (address, player)."""
    signed = read_cookie()
    token = signed.token if signed is not None else None
    address = request.remote_addr or ""
    state().helps.asked(token, address, asked.game, asked.options, asked.board)
    return address, token or ""


@boards.post("/validate")
def validate():
    reply, _ = _validated()
    return jsonify(reply)


@boards.post("/check")
def check():
    reply, asked = _validated()
    if reply["ok"]:
        address, player = _helped(asked)
        task = CheckBoard(asked.game, asked.board, asked.options)
        checked = ask(task, current_app.config["CHECK_SECONDS"], address=address, player=player)
        reply.update(asdict(checked))
    return jsonify(reply)


@boards.get("/graph/<name>")
def graph(name: str):
    """``{"nodes": [{"board", "distance"}], "edges": [[i, j], ...]}`` for ``?board=``
    (the game's options as further parameters)."""
    asked = PuzzleRequest.from_fields({**request.args.to_dict(), "game": name})
    address, player = _helped(asked)
    task = GraphSpace(asked.game, asked.board, asked.options)
    seconds = current_app.config["GRAPH_SECONDS"]
    return _compressed(ask(task, seconds, address=address, player=player).gzip)


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
    address, player = _helped(asked)
    task = VisitOrder(asked.game, asked.board, asked.options, algorithm)
    seconds = current_app.config["VISITS_SECONDS"]
    made = ask(task, seconds, address=address, player=player, lane=LONG)
    return _compressed(made.gzip)
