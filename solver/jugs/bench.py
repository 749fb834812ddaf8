"""Water jugs' rows of ``python -m solver bench``: every level solved, then rated by the coach."""

from __future__ import annotations

import time

from ..bench import coach_row, isolated, print_coach
from .domain import Jugs
from .game import JugsGame


def rows(args) -> None:
    """Every level solved with the game's own search, pours checked against the pack;
    then each level's moves rated by the coach."""
    levels = JugsGame.levels()
    started = time.perf_counter()
    nodes = wrong = 0
    for level in levels:
        goal = level["options"]["goal"]
        domain = Jugs(goal=goal)
        result = domain.solve(domain.parse(level["board"]))
        nodes += result.nodes
        wrong += result.length != level["moves"][goal]
    print(
        f"jugs: {len(levels)} levels solved in "
        f"{time.perf_counter() - started:.3f} s, {nodes:,} positions, "
        f"{wrong} not at the pack's pour count"
    )
    boards = [(level["board"], level["options"]) for level in levels]
    print_coach("jugs (every level's start)", isolated(coach_row, "jugs", boards, {}))
