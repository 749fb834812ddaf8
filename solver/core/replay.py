"""Replaying a line a player says they played: every step legal, start as given, last solved.

A leaderboard is only as honest as its check. :func:`replay_line` trusts nothing
the line claims: it parses every position with the game's own parser, checks that
each one follows from the one before by a single legal move in the domain's
metric, and counts the moves itself. Any problem is a :class:`BoardError` that
names the position at fault, in the words a player (or a forger) can act on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.core.text import N_

from .domain import Domain
from .errors import BoardError

#: the longest line accepted (positions, start included): far beyond any honest solve
MAX_LINE = 5000
#: where the shortest line is known, a line may be at most this many times as long ...
SLACK_FACTOR = 4
#: ... plus this many positions
SLACK_POSITIONS = 100
#: the clock is read every this many positions (a step of the biggest board takes ~20 ms)
CLOCK_EVERY = 8


class ReplayTooSlow(Exception):
    """The replay ran over its time budget (or was cancelled): the line was not judged."""


def line_cap(shortest: int | None) -> int:
    """The most positions a line may have: :data:`MAX_LINE`, and where the puzzle's
    shortest solution is known, ``4 x shortest + 100`` (lines past it are refused
    before anything is parsed)."""
    if shortest is None:
        return MAX_LINE
    return min(MAX_LINE, SLACK_FACTOR * shortest + SLACK_POSITIONS)


def check_count(states: object, shortest: int | None = None) -> None:
    """Refuse a line by its shape and length alone, in constant time: a BoardError
    when ``states`` is not a non-empty list or has more positions than :func:`line_cap`."""
    if not isinstance(states, (list, tuple)) or not states:
        raise BoardError("states must be a list of positions, the start first")
    cap = line_cap(shortest)
    if len(states) > cap:
        if shortest is None:
            raise BoardError(
                N_("the line has %(count)s positions; the limit is %(limit)s"),
                count=len(states),
                limit=cap,
            )
        raise BoardError(
            N_(
                "the line has %(count)s positions; the limit is %(limit)s"
                " for a puzzle solved in %(moves)s moves"
            ),
            count=len(states),
            limit=cap,
            moves=shortest,
        )


@dataclass(frozen=True)
class Replay:
    """A line that replayed: its positions in canonical notation and its length in moves."""

    states: tuple[str, ...]
    length: int


def replay_line(
    domain: Domain[Any, Any],
    board: str,
    states: Sequence[object],
    shortest: int | None = None,
    seconds: float | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Replay:
    """Replay ``states`` (board texts, start first) on ``domain`` from ``board``.

    ``board`` is the puzzle's start; the line's first position must be the same
    position. Every later position must be reachable from the one before by one
    of ``domain.legal_moves`` (equal by the domain's canonical key, so
    interchangeable pieces may carry either letter), and the last must be solved.
    Raises :class:`BoardError` naming the first problem, after :func:`check_count`
    (``shortest``: the puzzle's known fewest moves). With ``seconds`` or ``cancel``,
    raises :class:`ReplayTooSlow` once the budget is spent or ``cancel()`` is true.
    """
    check_count(states, shortest)
    deadline = None if seconds is None else time.monotonic() + seconds

    def on_time(index: int) -> None:
        if index % CLOCK_EVERY:
            return
        if (deadline is not None and time.monotonic() > deadline) or (cancel and cancel()):
            raise ReplayTooSlow(
                f"checking the line took longer than {seconds:g} s; it stopped at position {index}"
                if seconds is not None
                else "the replay was cancelled"
            )

    start = domain.parse(board)
    positions = []
    for index, text in enumerate(states):
        on_time(index)
        positions.append(_parse(domain, text, index))
    if domain.key(positions[0]) != domain.key(start):
        raise BoardError(
            f"the line starts at {domain.format(positions[0])!r}, not at the puzzle's start "
            f"{domain.format(start)!r}"
        )
    for index in range(1, len(positions)):
        on_time(index)
        before, after = positions[index - 1], positions[index]
        wanted = domain.key(after)
        if not any(domain.key(nxt) == wanted for _move, nxt in domain.legal_moves(before)):
            raise BoardError(
                f"step {index} is not one legal move: {domain.format(before)!r} "
                f"cannot become {domain.format(after)!r}"
            )
    if not domain.is_goal(positions[-1]):
        raise BoardError(
            N_("the line ends at %(board)s, which is not solved"),
            board=repr(domain.format(positions[-1])),
        )
    return Replay(tuple(domain.format(p) for p in positions), len(positions) - 1)


def _parse(domain: Domain[Any, Any], text: object, index: int) -> Any:
    if not isinstance(text, str):
        raise BoardError(N_("position %(index)s must be board text"), index=index)
    try:
        return domain.parse(text)
    except BoardError as err:
        raise BoardError(N_("position %(index)s: %(error)s"), index=index, error=str(err)) from None
