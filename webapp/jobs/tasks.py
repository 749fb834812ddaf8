"""Work that HTTP requests need: a generated level, the editor's check, a state space's
graph and a search's visiting order over it, a line's replay, a judged move.

They used to run in the request thread, where a few of them at once stalled
every socket of the web process. Now a page asks the job core
(:meth:`~webapp.jobs.core.JobCore.page_task`) and waits, within a time budget,
for a solver process of the page lane to answer. :func:`page_search` is what
that process runs; it knows nothing of HTTP.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable
from typing import Any

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.judge import NotProven, judge_move
from solver.core.replay import ReplayTooSlow, replay_line
from solver.core.results import Budget
from solver.core.space import SpaceTooLarge, state_space
from solver.engine import analyse_board
from solver.visits import search_visits

from ..protocol import message_fields
from .model import (
    CHECK,
    GENERATE,
    GRAPH,
    JUDGE,
    REPLAY,
    TASK_SLOW_MESSAGE,
    VISITS,
    Payload,
    TaskRefused,
    TaskRequest,
)

CHECK_NODES = 400_000


def task_result(answer: tuple[str, Payload] | None) -> dict[str, Any]:
    """The result of a task's answer; BoardError when the request was bad, TaskRefused
    when the worker failed or never answered."""
    if answer is None:
        raise TaskRefused(TASK_SLOW_MESSAGE)
    event, payload = answer
    if event == "done":
        return dict(payload)
    # a solver's error keeps its template and values across the process boundary
    said = (payload.get("template") or payload["message"], payload.get("params") or {})
    if event == "refused":
        raise BoardError(said[0], **said[1])
    if event == "too large":
        raise SpaceTooLarge(said[0], **said[1])
    raise TaskRefused(payload.get("message") or TASK_SLOW_MESSAGE)


def page_search(
    kind: str, request: TaskRequest, seconds: float, cancel: Callable[[], bool] | None = None
) -> tuple[str, dict]:
    """``("done", result)``, ``("refused", {message})`` for a bad request, ``("too
    large", {message})`` for a state space over its limit, or ``("error", {message})``
    for a replay or a judged move over its budget."""
    game = catalogue.get(request.game)
    args = request.args
    try:
        if kind == REPLAY:
            domain = game.make_domain(**game.check_options(args["options"]))
            replay = replay_line(
                domain, args["board"], args["states"], args["shortest"], seconds, cancel
            )
            return "done", {"states": list(replay.states), "length": replay.length}
        if kind == JUDGE:
            domain = game.make_domain(**game.check_options(args["options"]))
            budget = Budget(None, seconds)
            return "done", judge_move(domain, args["before"], args["after"], budget, cancel)
        if kind == GENERATE:
            return "done", game.generate(args["params"], args["seed"], args["daily"])
        if kind == CHECK:
            analysis = analyse_board(
                request.game,
                args["board"],
                budget=Budget(CHECK_NODES, seconds),
                rate=False,
                **args["options"],
            )
            return "done", {
                key: analysis[key] for key in ("solvable", "distance", "optimal", "message")
            }
        if kind == GRAPH:
            domain = game.make_domain(**args["options"])
            space = state_space(domain, domain.parse(args["board"]), cancel=cancel)
            # serialised and compressed here: the web process only passes the bytes on
            body = json.dumps(space.payload(), separators=(",", ":")).encode()
            return "done", {"gzip": gzip.compress(body, 6), "positions": len(space.boards)}
        if kind == VISITS:
            # the graph again (its indices), then the search watched over it, both
            # within the task's seconds
            started = time.monotonic()
            domain = game.make_domain(**args["options"])
            space = state_space(domain, domain.parse(args["board"]), cancel=cancel)
            left = seconds * 0.9 - (time.monotonic() - started)
            visits = search_visits(
                request.game,
                space,
                args["algorithm"],
                budget=Budget(None, max(left, 0.1)),
                cancel=cancel,
                **args["options"],
            )
            body = json.dumps(visits, separators=(",", ":")).encode()
            return "done", {"gzip": gzip.compress(body, 6), "positions": len(space.boards)}
    except SpaceTooLarge as err:
        return "too large", {"message": str(err), **message_fields(err)}
    except BoardError as err:
        return "refused", {"message": str(err), **message_fields(err)}
    except (ReplayTooSlow, NotProven) as err:
        return "error", {"message": str(err)}
    raise ValueError(f"unknown page task {kind!r}")
