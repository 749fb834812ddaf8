"""Klotski: slide the pieces until the big one reaches the exit."""

from .domain import Klotski, KlotskiMove, KlotskiState, warm_table
from .game import KlotskiGame as GAME

__all__ = ["GAME", "Klotski", "KlotskiMove", "KlotskiState", "warm_table"]
