"""What the app asks of a job runner, whichever runs the searches.

Two runners keep the same rules (one job per client, the newest request wins,
a bounded queue answering "server busy"): :class:`~webapp.jobs.local.JobRunner` over
this process's worker pools, and :class:`~webapp.jobs.cluster.ClusterRunner` over
RQ workers on Redis. Event handlers, health checks and shutdown depend on this
protocol only, so they never need to know which one the app was given.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..live.validation import JobRequest
from .tasks import TaskRequest

#: the two kinds of job: a hint and distance (table lookups, kept fast), a full solve
ANALYSE = "analyse"
SOLVE = "solve"
#: the pool of searches HTTP pages need (generated levels, the editor's check)
PAGE = "page"

BUSY_MESSAGE = "server busy, try again"
CLOSING_MESSAGE = "server is shutting down, try again soon"


class Runner(Protocol):
    """Runs clients' analyse/solve jobs and emits their answers to them."""

    #: True once :meth:`shutdown` began: new jobs are refused, ``/readyz`` says 503
    closing: bool

    def submit(
        self, sid: str, kind: str, request: JobRequest, log_id: str = "", group: str | None = None
    ) -> None:
        """Queue ``request`` (``kind`` :data:`ANALYSE` or :data:`SOLVE`) for client ``sid``,
        cancelling whatever it had before; ``group`` (the client's address) is whose
        fair share of the long searches it uses."""

    def run_task(self, kind: str, request: TaskRequest, seconds: float) -> dict:
        """Run a page's search (:mod:`webapp.jobs.tasks`) off the web process and wait for its
        result; BoardError for a bad request, TaskRefused when busy or too slow."""

    def cancel(self, sid: str, job_id: Any = None) -> bool:
        """Cancel the client's job (only the one with ``job_id`` when given)."""

    def drop(self, sid: str) -> None:
        """The client left: cancel its job and forget it."""

    def start(self) -> None:
        """Start the workers now, if this runner has any of its own."""

    def shutdown(self, timeout: float = 5.0) -> int:
        """Refuse new jobs and tell clients with a job that it stopped; returns how many."""

    def health(self) -> dict:
        """Figures for ``/readyz`` (clients, queues, workers)."""
