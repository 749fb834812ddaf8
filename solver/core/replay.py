"""Replaying a line a player says they played: every step legal, start as given, last solved.

A leaderboard is only as honest as its check. :func:`replay_line` trusts nothing
the line claims: it parses every position with the game's own parser, checks that
each one follows from the one before by a single legal move in the domain's
metric, and counts the moves itself. Any problem is a :class:`BoardError` that
names the position at fault, in the words a player (or a forger) can act on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .domain import Domain
from .errors import BoardError

#: the longest line accepted (positions, start included): far beyond any honest solve
MAX_LINE = 5000


@dataclass(frozen=True)
class Replay:
    """A line that replayed: its positions in canonical notation and its length in moves."""

    states: tuple[str, ...]
    length: int


def replay_line(domain: Domain[Any, Any], board: str, states: Sequence[object]) -> Replay:
    """Replay ``states`` (board texts, start first) on ``domain`` from ``board``.

    ``board`` is the puzzle's start; the line's first position must be the same
    position. Every later position must be reachable from the one before by one
    of ``domain.legal_moves`` (equal by the domain's canonical key, so
    interchangeable pieces may carry either letter), and the last must be solved.
    Raises :class:`BoardError` naming the first problem.
    """
    if not isinstance(states, (list, tuple)) or not states:
        raise BoardError("states must be a list of positions, the start first")
    if len(states) > MAX_LINE:
        raise BoardError(f"the line has {len(states)} positions; the limit is {MAX_LINE}")
    start = domain.parse(board)
    positions = [_parse(domain, text, index) for index, text in enumerate(states)]
    if domain.key(positions[0]) != domain.key(start):
        raise BoardError(
            f"the line starts at {domain.format(positions[0])!r}, not at the puzzle's start "
            f"{domain.format(start)!r}"
        )
    for index in range(1, len(positions)):
        before, after = positions[index - 1], positions[index]
        wanted = domain.key(after)
        if not any(domain.key(nxt) == wanted for _move, nxt in domain.legal_moves(before)):
            raise BoardError(
                f"step {index} is not one legal move: {domain.format(before)!r} "
                f"cannot become {domain.format(after)!r}"
            )
    if not domain.is_goal(positions[-1]):
        raise BoardError(f"the line ends at {domain.format(positions[-1])!r}, which is not solved")
    return Replay(tuple(domain.format(p) for p in positions), len(positions) - 1)


def _parse(domain: Domain[Any, Any], text: object, index: int) -> Any:
    if not isinstance(text, str):
        raise BoardError(f"position {index} must be board text")
    try:
        return domain.parse(text)
    except BoardError as err:
        raise BoardError(f"position {index}: {err}") from None
