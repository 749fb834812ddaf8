"""Several algorithms searching one board side by side: the solver lab's comparison.

Each algorithm runs :func:`~solver.engine.solve_board` with ``algorithm=`` in a
thread of its own, so they advance together (sharing one core)
and each result counts its positions exactly as the CLI's ``--algorithm`` does.
Progress comes from the searches' own monitor, already batched (a clock check
every few hundred positions, a report about four times a second), and every
callback runs under one lock, so a caller may write to a pipe from them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from solver.core.text import N_

from .core.errors import BoardError
from .core.results import Budget, Cancel, Progress
from .engine import ALGORITHM_NAMES, make_domain, solve_board, unfit
from .payloads import SolveReport

#: how many algorithms one comparison holds
MIN_ALGORITHMS, MAX_ALGORITHMS = 2, 4


def check_algorithms(puzzle: str, names: object, **options: Any) -> list[str]:
    """``names`` as a list of 2-4 distinct algorithms that can all search ``puzzle``;
    :class:`BoardError` naming the first problem otherwise (cheap: no board is read)."""
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise BoardError(
            N_("algorithms must be a list of names from %(names)s"),
            names=", ".join(ALGORITHM_NAMES),
        )
    if not MIN_ALGORITHMS <= len(names) <= MAX_ALGORITHMS:
        raise BoardError(
            N_("choose %(low)s to %(high)s algorithms, not %(count)s"),
            low=MIN_ALGORITHMS,
            high=MAX_ALGORITHMS,
            count=len(names),
        )
    unknown = [name for name in names if name not in ALGORITHM_NAMES]
    if unknown:
        raise BoardError(
            f"unknown algorithm {unknown[0][:40]!r}; choose from {', '.join(ALGORITHM_NAMES)}"
        )
    if len(set(names)) != len(names):
        raise BoardError("each algorithm may run once")
    for name in names:
        problem = unfit(puzzle, name, **options)
        if problem:
            raise BoardError(problem)
    return list(names)


def compare(
    puzzle: str,
    board: str,
    algorithms: Sequence[str],
    *,
    progress: Callable[[str, Progress], None],
    finished: Callable[[str, SolveReport], None],
    budget: Budget | None = None,
    cancel: Cancel | None = None,
    **options: Any,
) -> None:
    """Run every algorithm on ``board`` at once; ``progress(name, report)`` as each
    searches, ``finished(name, report)`` when each ends (the :func:`solve_board`
    report). A bad board raises :class:`BoardError` before any search starts."""
    algorithms = check_algorithms(puzzle, list(algorithms), **options)
    make_domain(puzzle, **options).parse(board)  # a bad board: one error, not one per algorithm
    lock = threading.Lock()
    failures: list[BaseException] = []

    def run(name: str) -> None:
        def report(found: Progress) -> None:
            with lock:
                progress(name, found)

        try:
            result = solve_board(
                puzzle,
                board,
                budget=budget,
                cancel=cancel,
                progress=report,
                algorithm=name,
                **options,
            )
        except BaseException as err:  # noqa: BLE001 - raised again in the caller's thread
            failures.append(err)
            return
        with lock:
            finished(name, result)

    threads = [
        threading.Thread(target=run, args=(name,), name=f"compare-{name}", daemon=True)
        for name in algorithms
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
