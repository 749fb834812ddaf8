"""The water-jugs Domain: the pouring rules of :mod:`solver.jugs.rules` as a search problem.

One domain per board: the jugs' capacities and the goal are fixed by the first
board parsed. Pours cannot always be undone (water is never added or thrown
away), so the coach rates each pour with a search of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.domain import Domain, require
from ..core.errors import BoardError
from .rules import (
    ANY,
    Goal,
    Pour,
    State,
    format_jugs,
    parse_goal,
    parse_jugs,
    pour,
    shared_goal,
)


class Jugs(Domain):
    """The pouring puzzle over jugs fixed by the parsed board (one domain per board)."""

    name = "jugs"
    reversible = False
    quick_test = "the water there is"

    def __init__(self, goal: str | None = None):
        self.goal_text = goal
        self.capacities: tuple[int, ...] = ()
        self.goal: Goal = ()

    # -- notation ---------------------------------------------------------
    def parse(self, text) -> State:
        contents, capacities = parse_jugs(text)
        if self.capacities and capacities != self.capacities:
            raise BoardError(
                "this board's jugs differ from the first board's; use one domain per set of jugs"
            )
        self.capacities = capacities
        self.goal = (
            parse_goal(self.goal_text, len(capacities))
            if self.goal_text
            else shared_goal(contents, capacities)
        )
        for number, (want, capacity) in enumerate(zip(self.goal, capacities, strict=True), 1):
            require(
                want is ANY or want <= capacity,
                f"goal asks jug {number} for {want} litres; it holds {capacity}",
            )
        return contents

    def format(self, state: State) -> str:
        return format_jugs(state, self.capacities)

    # -- rules ------------------------------------------------------------
    def moves(self, state: State) -> Iterator[tuple[Pour, State]]:
        for src in range(len(state)):
            for dst in range(len(state)):
                after = pour(state, self.capacities, src, dst)
                if after is not None:
                    yield Pour(src, dst, state[src] - after[src]), after

    def is_goal(self, state: State) -> bool:
        return all(want is ANY or want == held for want, held in zip(self.goal, state, strict=True))

    def heuristic(self, state: State) -> int:
        """Jugs off target, halved and rounded up: one pour changes at most two jugs."""
        wrong = sum(
            1
            for want, held in zip(self.goal, state, strict=True)
            if want is not ANY and want != held
        )
        return (wrong + 1) // 2

    def quick_solvable(self, state: State) -> bool | None:
        """Water is kept: a goal that needs more than there is can never be met."""
        fixed = sum(want for want in self.goal if want is not ANY)
        if fixed > sum(state) or (ANY not in self.goal and fixed != sum(state)):
            return False
        return None

    # -- presentation -----------------------------------------------------
    def describe(self, move: Pour) -> str:
        return f"jug {move.src + 1} -> {move.dst + 1}"

    def move_info(self, move: Pour) -> dict:
        return {
            "from": move.src,
            "to": move.dst,
            "amount": move.amount,
            "text": self.describe(move),
        }
