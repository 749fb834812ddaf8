"""Searches that HTTP pages need: a generated level, the editor's solvability check.

They used to run in the request thread, where a few of them at once stalled
every socket of the web process. Now a page asks its runner
(:meth:`~webapp.jobs.local.JobRunner.run_task`) and waits, within a time budget, for
a worker process to answer: the pool's own small page pool, or an RQ worker in
a cluster. :func:`run_task` is what that worker runs; it knows nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver import catalogue
from solver.core.errors import BoardError
from solver.core.results import Budget
from solver.engine import analyse_board

#: the two kinds of page task
GENERATE = "generate"
CHECK = "check"

CHECK_NODES = 400_000
TASK_BUSY_MESSAGE = "the server is busy generating and checking puzzles; try again soon"
TASK_SLOW_MESSAGE = "this took longer than the server allows; try a smaller puzzle or again later"


class TaskRefused(Exception):
    """The task could not be run now (queue full, over its time budget): a 503."""


@dataclass(frozen=True)
class TaskRequest:
    """One page task: ``generate`` {params, seed, daily} or ``check`` {board, options}."""

    game: str
    args: dict = field(default_factory=dict)
    id: Any | None = None  # pools echo a job's id in errors; tasks have none


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


def run_task(kind: str, request: TaskRequest, seconds: float) -> tuple[str, dict]:
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
