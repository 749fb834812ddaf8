"""Water sort: pour coloured layers between tubes until each tube holds one colour."""
from .domain import MAX_CAPACITY, MAX_TUBES, Pour, WaterSort, lower_bound, random_deal

__all__ = ["MAX_CAPACITY", "MAX_TUBES", "Pour", "WaterSort", "lower_bound", "random_deal"]
