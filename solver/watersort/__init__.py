"""Water sort: pour coloured layers between tubes until each tube holds one colour."""

from .deals import random_deal
from .domain import WaterSort
from .game import WaterSortGame as GAME
from .rules import MAX_CAPACITY, MAX_TUBES, Pour, lower_bound

__all__ = ["GAME", "MAX_CAPACITY", "MAX_TUBES", "Pour", "WaterSort", "lower_bound", "random_deal"]
