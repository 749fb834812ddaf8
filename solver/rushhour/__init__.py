"""Rush Hour: slide the vehicles until the red car reaches the exit."""

from .domain import RushHour, RushMove, RushState
from .game import RushHourGame as GAME

__all__ = ["GAME", "RushHour", "RushMove", "RushState"]
