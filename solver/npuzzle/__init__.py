"""The N-puzzle (8-, 15-, 24-puzzle...): slide tiles into order around one gap."""

from .domain import NPuzzle
from .game import NPuzzleGame as GAME
from .rules import MAX_SIDE, Slide, goal_state, manhattan_conflicts, replay_cells, solvable

__all__ = [
    "GAME",
    "MAX_SIDE",
    "NPuzzle",
    "Slide",
    "goal_state",
    "manhattan_conflicts",
    "replay_cells",
    "solvable",
]
