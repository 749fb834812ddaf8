"""A ``lab_run`` inside a solver process: its algorithms compared side by side, every figure sent.

:func:`solver.comparison.compare` runs the algorithms side by side; this shapes what they
report into the lab's events (:class:`~webapp.protocol.LabProgressEvent`, one
:class:`~webapp.protocol.LabResultEvent` per algorithm). Progress is the searches'
own, already batched, so streaming costs the search almost nothing. A cancelled
run says nothing more.
"""

from __future__ import annotations

from collections.abc import Callable

from solver.comparison import compare
from solver.core.errors import BoardError
from solver.core.results import Budget, CancelEvent, Progress
from solver.payloads import SolveReport

from ..protocol import ERROR, LAB_PROGRESS, LAB_RESULT, LabProgressEvent, LabResultEvent
from .model import LAB, JobRequest, Limits, Payload
from .replies import job_error


def run_lab(
    request: JobRequest,
    cancel: CancelEvent,
    limits: Limits,
    send: Callable[[str, Payload], None],
) -> None:
    """Race ``request.algorithms`` on its board, each under ``limits``; ``error`` for a
    board the solver refuses."""

    def progress(algorithm: str, found: Progress) -> None:
        if cancel.is_set():
            return
        payload: LabProgressEvent = {
            "id": request.id,
            "game": request.game,
            "algorithm": algorithm,
            "nodes": found.nodes,
            "frontier": found.frontier,
            "depth": found.depth,
            "elapsed": round(found.elapsed, 3),
        }
        if found.stored is not None and found.memory is not None:
            payload["stored"], payload["memory"] = found.stored, found.memory
        send(LAB_PROGRESS, payload)

    def finished(algorithm: str, report: SolveReport) -> None:
        if cancel.is_set():
            return
        payload: LabResultEvent = {
            "id": request.id,
            "game": request.game,
            "algorithm": algorithm,
            "status": str(report["status"]),
            "length": report["length"],
            "optimal": report["optimal"],
            "nodes": report["stats"]["nodes"],
            "seconds": report["stats"]["seconds"],
            "states": report["states"],
            "message": report["message"],
        }
        stats = report["stats"]
        if "stored" in stats and "memory" in stats:
            payload["stored"], payload["memory"] = stats["stored"], stats["memory"]
        send(LAB_RESULT, payload)

    try:
        compare(
            request.game,
            request.board,
            request.algorithms,
            progress=progress,
            finished=finished,
            budget=Budget(max_nodes=limits.max_nodes, max_seconds=limits.seconds),
            cancel=cancel,
            **request.options,
        )
    except BoardError as err:
        send(ERROR, job_error(str(err), LAB, request))
