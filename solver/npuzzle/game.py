"""The declaration of the N-puzzle: title, the seeded generator and the tables worth warming."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import BoardError
from ..core.game import Game, Option
from ..core.tables import TableSet
from ..core.text import N_
from .domain import NPuzzle, table_sets, warm_eight, warm_tables
from .generate import MAX_WALK, SIZES, npuzzle_at_distance, npuzzle_max_distance
from .rules import MAX_SIDE

DEFAULT_SIZE = 3
DEFAULT_DISTANCE = 20
DAILY_SIZE = 3
EXACT_SIZES = (3,)  # sizes whose generated distance is always proven


class NPuzzleGame(Game):
    name = "npuzzle"
    title = N_("N-puzzle")
    order = 3
    summary = N_(
        "Slide the numbered tiles into order, one square at a time. Bigger grids work too."
    )
    how_to_play = N_(
        "Click a tile next to the gap to slide it, or use the arrow keys "
        "(the tile beside the gap moves in the arrow's direction)."
    )
    default_board = "4 1 2 0 8 7 6 3 5"
    domain = NPuzzle
    generator = (
        Option(
            "size",
            int,
            DEFAULT_SIZE,
            "tiles per side",
            low=SIZES[0],
            high=SIZES[-1],
            label=N_("Size"),
        ),
        Option(
            "distance",
            int,
            DEFAULT_DISTANCE,
            "moves from solved (at most the size's largest offered distance)",
            low=1,
            high=max(MAX_WALK.values()),
            label=N_("Moves from solved"),
        ),
    )
    features = frozenset({"size-picker"})
    #: the ladder's boards: 3x3s, every distance proven (1 to its diameter)
    ladder_lengths = (1, npuzzle_max_distance(EXACT_SIZES[0]))

    @classmethod
    def ladder_params(cls, length: int) -> dict[str, Any]:
        return {"size": EXACT_SIZES[0], "distance": length}

    original_searches = ("seed-bfs", "seed-bidirectional")

    @classmethod
    def size_label(cls, board: str, options: Mapping[str, Any]) -> str:
        side = round(len(board.replace(",", " ").replace("/", " ").split()) ** 0.5)
        return f"{side}x{side}"

    @classmethod
    def check_size(cls, board: str) -> None:
        tiles = len(board.replace(",", " ").replace("/", " ").split())
        if tiles > MAX_SIDE**2:
            raise BoardError(
                N_("board has %(tiles)s tiles; the largest puzzle is %(side)sx%(side)s"),
                tiles=tiles,
                side=MAX_SIDE,
            )

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict:
        """A position ``distance`` moves from solved; the daily one varies its distance."""
        size = params.get("size", DAILY_SIZE if daily else DEFAULT_SIZE)
        default_distance = 20 + seed % 12 if daily else DEFAULT_DISTANCE
        distance = params.get("distance", min(default_distance, npuzzle_max_distance(size)))
        made = npuzzle_at_distance(size, distance, seed)
        return {
            "board": made["board"],
            "options": {},
            "min_moves": made["distance"],
            "optimal": made["optimal"],
            "params": {"size": size, "distance": distance},
        }

    @classmethod
    def choices(cls) -> dict:
        return {
            "sizes": {str(n): npuzzle_max_distance(n) for n in SIZES},
            "exact_sizes": list(EXACT_SIZES),
            "size": DEFAULT_SIZE,
            "distance": DEFAULT_DISTANCE,
        }

    @classmethod
    def tables(cls) -> list[TableSet]:
        """The 8-puzzle's distances, the 15-puzzle's two database sets, the 24-puzzle's."""
        return table_sets()

    @classmethod
    def warm(cls, stop=None) -> int:
        """The 3x3 distance table, the 4x4 and 5x5 pattern databases, the compiled searches."""
        warm_tables()
        return 3

    @classmethod
    def warm_first(cls, stop=None) -> int:
        """The 3x3 distance table (a second): the default board's lookups."""
        warm_eight()
        return 1
