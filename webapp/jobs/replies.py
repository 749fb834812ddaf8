"""Running one checked request through the solver and shaping the reply events.

Each function returns ``(event, payload)`` ready to emit, or ``None`` when the
search was cancelled (a cancelled job never answers). They know nothing about
sockets or threads, so they are easy to test and to reuse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from solver.core.errors import BoardError
from solver.core.results import (
    BUDGET,
    CANCELLED,
    SOLVED,
    UNSOLVABLE,
    Budget,
    CancelEvent,
    Progress,
)
from solver.core.text import N_
from solver.engine import analyse_stages, solve_board
from solver.payloads import MoveInfo

from ..protocol import (
    ANALYSIS,
    ERROR,
    SOLUTION,
    ErrorEvent,
    RequestId,
    SolutionEvent,
    UnsolvableEvent,
    message_fields,
)
from ..protocol import UNSOLVABLE as UNSOLVABLE_EVENT  # beside the solver's status
from ..puzzle_request import RequestRefused
from .model import ANALYSE, GAVE_UP, SOLVE, JobRequest, Limits, Request

#: (event, payload); ``gave_up`` carries the error to show if the search is not escalated
Reply: TypeAlias = tuple[str, SolutionEvent | UnsolvableEvent | ErrorEvent] | None


def error_payload(
    message: str | BoardError | RequestRefused,
    event: str,
    job_id: RequestId = None,
    game: str | None = None,
) -> ErrorEvent:
    """The ``error`` event's payload: the message (a solver's error also as its template
    and values, for the page to translate), the event it answers, and its id."""
    payload: ErrorEvent = {"message": str(message), "event": event}
    if isinstance(message, BoardError | RequestRefused):
        payload.update(message_fields(message))  # type: ignore[typeddict-item]
    if job_id is not None:
        payload["id"] = job_id
    if game is not None:
        payload["game"] = game
    return payload


def about(count: int) -> str:
    """A count as a person reads it after "about": exact below a thousand, else two
    significant digits ("200,000"), since the last digits of a search's count mean nothing."""
    if count < 1000:
        return f"{count:,}"
    digits = len(str(count)) - 2
    return f"{round(count, -digits):,}"


#: what a search out of budget says, whole sentences (each one translated): (the budget's
#: seconds known, a lower bound proven) -> the template
TOO_BIG = {
    (True, False): N_(
        "Too big to solve within the %(seconds)s s budget: no solution among about "
        "%(positions)s positions searched."
    ),
    (True, True): N_(
        "Too big to solve within the %(seconds)s s budget: no solution among about "
        "%(positions)s positions searched; it takes %(moves)s or more moves."
    ),
    (False, False): N_(
        "Too big to solve within the budget: no solution among about %(positions)s "
        "positions searched."
    ),
    (False, True): N_(
        "Too big to solve within the budget: no solution among about %(positions)s "
        "positions searched; it takes %(moves)s or more moves."
    ),
}


def gave_up_error(
    kind: str,
    job_id: RequestId,
    game: str,
    seconds: float | None,
    nodes: int | None,
    lower_bound: int | None,
) -> ErrorEvent:
    """The ``error`` answering a search that ran out of its budget, in words (and as a
    template with its values, for the page to translate): the board is too big to solve
    within ``seconds``, how much was searched, and what is known (a proven
    ``lower_bound``); the figures ride along for the page."""
    # whole seconds (a sub-second budget, as tests give, to a tenth)
    shown = (round(seconds) if seconds >= 1 else round(seconds, 1)) if seconds else None
    params: dict[str, str | int] = {"positions": about(nodes or 0)}
    if shown:
        params["seconds"] = f"{shown:g}"
    if lower_bound:
        params["moves"] = lower_bound
    template = TOO_BIG[(bool(shown), bool(lower_bound))]
    payload = error_payload(template % params, kind, job_id, game)
    payload["template"], payload["params"] = template, params
    payload["gave_up"] = True
    if shown:
        payload["budget_seconds"] = shown
    if nodes is not None:
        payload["nodes"] = nodes
    if lower_bound is not None:
        payload["lower_bound"] = lower_bound
    return payload


def job_error(message: str | BoardError, kind: str, request: Request) -> ErrorEvent:
    """The ``error`` payload answering a job: its kind, id and game echoed."""
    return error_payload(message, kind, request.id, request.game)


def analysis_events(request: JobRequest, cancel: Callable[[], bool], limits: Limits):
    """Every ``analysis`` payload of :func:`solver.engine.analyse_stages` as it comes
    (the core decides what each means), or one ``error`` for a bad board; nothing
    once the job is cancelled."""
    budget = Budget(max_nodes=limits.max_nodes, max_seconds=limits.seconds)
    try:
        for payload in analyse_stages(
            request.game, request.board, budget=budget, cancel=cancel, **request.options
        ):
            if cancel():
                return
            yield ANALYSIS, {"id": request.id, "game": request.game, **payload}
    except BoardError as err:
        yield ERROR, job_error(err, ANALYSE, request)


def solve_reply(
    request: JobRequest,
    cancel: CancelEvent,
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
        return ERROR, job_error(err, SOLVE, request)
    status = report["status"]
    if cancel.is_set() or status == CANCELLED:
        return None
    if status == SOLVED:
        moves: list[MoveInfo] = []
        for detail, text in zip(report["move_details"], report["moves"], strict=True):
            moves.append({**detail, "text": detail.get("text") or text})
        solution: SolutionEvent = {
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
        return SOLUTION, solution
    if status == UNSOLVABLE:
        unsolvable: UnsolvableEvent = {
            "id": request.id,
            "game": request.game,
            "board": report["board"],
            "message": report["message"] or "no solution exists",
        }
        return UNSOLVABLE_EVENT, unsolvable
    if status == BUDGET:
        nodes, bound = report["stats"]["nodes"], report["lower_bound"]
        return GAVE_UP, gave_up_error(SOLVE, request.id, request.game, seconds, nodes, bound)
    return ERROR, job_error(f"search stopped: {status}", SOLVE, request)
