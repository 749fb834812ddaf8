"""Klotski: slide the pieces until the big one reaches the exit."""
from .domain import Klotski, KlotskiMove, KlotskiState, warm_table

__all__ = ["Klotski", "KlotskiMove", "KlotskiState", "warm_table"]
