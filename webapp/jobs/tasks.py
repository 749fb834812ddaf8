"""Searches that HTTP pages need: a generated level, the editor's solvability check.

They used to run in the request thread, where a few of them at once stalled
every socket of the web process. Now a page asks the job core
(:meth:`~webapp.jobs.core.JobCore.page_task`) and waits, within a time budget,
for a solver process of the page lane to answer. :func:`page_search` is what
that process runs; it knows nothing of HTTP.
"""

from __future__ import annotations

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.results import Budget
from solver.engine import analyse_board

from .model import CHECK, GENERATE, TASK_SLOW_MESSAGE, TaskRefused, TaskRequest

CHECK_NODES = 400_000


def task_result(answer: tuple[str, dict] | None) -> dict:
    """The result of a task's answer; BoardError when the request was bad, TaskRefused
    when the worker failed or never answered."""
    if answer is None:
        raise TaskRefused(TASK_SLOW_MESSAGE)
    event, payload = answer
    if event == "done":
        return payload
    if event == "refused":
        raise BoardError(payload["message"])
    raise TaskRefused(payload.get("message") or TASK_SLOW_MESSAGE)


def page_search(kind: str, request: TaskRequest, seconds: float) -> tuple[str, dict]:
    """``("done", result)``, or ``("refused", {message})`` for a bad request."""
    game = catalogue.get(request.game)
    args = request.args
    try:
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
    except BoardError as err:
        return "refused", {"message": str(err)}
    raise ValueError(f"unknown page task {kind!r}")
