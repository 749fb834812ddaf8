"""The N-puzzle (8-, 15-, 24-puzzle...): slide tiles into order around one gap."""
from .domain import (MAX_SIDE, NPuzzle, Slide, goal_state, manhattan_conflicts, replay_cells,
                     solvable)
from .game import NPuzzleGame as GAME

__all__ = ["GAME", "MAX_SIDE", "NPuzzle", "Slide", "goal_state", "manhattan_conflicts",
           "replay_cells", "solvable"]
