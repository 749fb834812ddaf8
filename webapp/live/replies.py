"""Running one checked request through the solver and shaping the reply event.

Each function returns ``(event, payload)`` ready to emit, or ``None`` when the
search was cancelled (a cancelled job never answers). They know nothing about
sockets or threads, so they are easy to test and to reuse.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.core.errors import BoardError
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Budget, Progress
from solver.engine import solve_board

from ..jobs.model import GAVE_UP, JobRequest

Reply = tuple[str, dict] | None


def error_payload(message: str, event: str, job_id=None, game=None) -> dict:
    """The ``error`` event's payload: the message, the event it answers, and its id."""
    payload = {"message": message, "event": event}
    if job_id is not None:
        payload["id"] = job_id
    if game is not None:
        payload["game"] = game
    return payload


def solve_reply(
    request: JobRequest,
    cancel,
    seconds: float,
    progress: Callable[[Progress], None] | None = None,
    max_nodes: int | None = None,
) -> Reply:
    """``solution``, ``unsolvable``, ``error`` (a bad board), or ``gave_up`` with the
    error to show when the budget ran out (:mod:`webapp.jobs.escalation` decides
    whether the player sees it or the search moves to the long lane)."""
    budget = Budget(max_nodes=max_nodes, max_seconds=seconds)
    try:
        report = solve_board(
            request.game,
            request.board,
            budget=budget,
            cancel=cancel,
            progress=progress,
            **request.options,
        )
    except BoardError as err:
        return "error", error_payload(str(err), "solve", request.id, request.game)
    status = report["status"]
    if cancel.is_set() or status == CANCELLED:
        return None
    if status == SOLVED:
        moves = []
        for detail, text in zip(report["move_details"], report["moves"], strict=True):
            moves.append({**detail, "text": detail.get("text") or text})
        return "solution", {
            "id": request.id,
            "game": request.game,
            "board": report["board"],
            "moves": moves,
            "states": report["states"],
            "length": report["length"],
            "optimal": report["optimal"],
            "lower_bound": report["lower_bound"],
            "stats": report["stats"],
            "message": report["message"],
        }
    if status == UNSOLVABLE:
        return "unsolvable", {
            "id": request.id,
            "game": request.game,
            "board": report["board"],
            "message": report["message"] or "no solution exists",
        }
    if status == BUDGET:
        return GAVE_UP, error_payload(report["message"], "solve", request.id, request.game)
    return "error", error_payload(f"search stopped: {status}", "solve", request.id, request.game)
