"""Small JSON endpoints for the board editor: validate a position, check it is solvable.

``POST /api/validate`` {game, board, options} -> {ok, error, canonical}: the
solver's own parser judges the board, so the editor shows exactly the CLI's
one-line messages ("piece B is not a rectangle", "colour R has 5 units, tubes
hold 4"). ``POST /api/check`` adds {solvable, distance, optimal, message} from
a short, budgeted analysis in a worker process (503 when they are all busy).
Bad requests get 400 with {ok: false, error}.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from solver import catalogue
from solver.core.errors import BoardError
from solver.engine import parse_board

from ..jobs.model import CHECK, TaskRequest
from .body import BadJson, loads
from .links import play_url

api = Blueprint("api", __name__, url_prefix="/api")


class BodyTooLarge(BoardError):
    """The body is over ``MAX_CONTENT_LENGTH``: answered 413, not 400."""


def _json_body():
    """The request's JSON body; raises BoardError when it cannot be read or parsed.

    Read here rather than by ``request.get_json`` so a broken chunked body, a body
    over the size limit, JSON nested deeper than the parser's recursion limit and
    numbers no endpoint takes (:mod:`webapp.http.body`) are each a clear 4xx, never a 500.
    """
    try:
        data = request.get_data(cache=True)
    except HTTPException as err:
        if err.code == 413:
            limit = current_app.config.get("MAX_CONTENT_LENGTH")
            raise BodyTooLarge(f"the request body is over the {limit}-byte limit") from None
        raise BoardError("could not read the request body") from None
    except Exception:  # noqa: BLE001 - a garbled (chunked) body
        raise BoardError("could not read the request body") from None
    try:
        return loads(data)
    except BadJson as err:
        raise BoardError(str(err)) from None


def _read_request():
    """(game, board, options) from the JSON body; raises BoardError on a bad shape."""
    body = _json_body()
    if not isinstance(body, dict):
        raise BoardError("send a JSON object like {game, board, options}")
    game, board = body.get("game"), body.get("board")
    options = body.get("options") or {}
    known = catalogue.games()
    if not isinstance(game, str) or game not in known:
        raise BoardError(f"unknown game {str(game)[:40]!r}; choose one of {', '.join(known)}")
    if not isinstance(options, dict):
        raise BoardError("options must be an object")
    options = {k: v for k, v in options.items() if v not in (None, "")}
    return game, board, options


def _validated():
    """(reply dict, game, board, options); reply has ok/error/canonical/link."""
    game, board, options = _read_request()
    try:
        domain, state = parse_board(game, board, **options)
    except BoardError as err:
        return {"ok": False, "error": str(err), "canonical": None}, game, board, options
    canonical = domain.format(state)
    return (
        {
            "ok": True,
            "error": None,
            "canonical": canonical,
            "solved": domain.is_goal(state),
            "link": play_url(game, canonical, **options),
        },
        game,
        canonical,
        options,
    )


def _refused(err: BoardError):
    return jsonify(ok=False, error=str(err)), 413 if isinstance(err, BodyTooLarge) else 400


@api.post("/validate")
def validate():
    try:
        reply, *_ = _validated()
    except BoardError as err:
        return _refused(err)
    return jsonify(reply)


@api.post("/check")
def check():
    try:
        reply, game, board, options = _validated()
    except BoardError as err:
        return _refused(err)
    if reply["ok"]:
        seconds = current_app.config["CHECK_SECONDS"]
        task = TaskRequest(game, {"board": board, "options": options})
        try:
            reply.update(current_app.extensions["jobs"].page_task(CHECK, task, seconds))
        except BoardError as err:
            return _refused(err)
    return jsonify(reply)
