"""The declaration of Rush Hour: title, the default board and the hardest-start search."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import BoardError
from ..core.game import Game
from ..core.text import N_
from .board import CELLS, EMPTY_CHARS, WALL
from .domain import RushHour


class RushHourGame(Game):
    name = "rushhour"
    title = N_("Rush Hour")
    order = 5
    summary = N_("Slide the cars and trucks out of the way until the red car drives out.")
    how_to_play = N_(
        "Drag a vehicle along its line, or click it and use the arrow keys. "
        "Bring the red car to the exit on the right."
    )
    #: 51 moves, the hardest start without walls in Fogleman's database
    default_board = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
    domain = RushHour
    original_searches = ("seed-bfs",)

    @classmethod
    def check_size(cls, board: str) -> None:
        if len(board) > CELLS:
            raise BoardError(
                N_("board is %(length)s characters long; the limit is %(most)s"),
                length=len(board),
                most=CELLS,
            )

    @classmethod
    def size_label(cls, board: str, options: Mapping[str, Any]) -> str:
        vehicles = len(set(board) - EMPTY_CHARS - {WALL})
        return f"{vehicles} vehicles"

    @classmethod
    def hardest(cls, board, options, placements, report=None) -> dict:
        from .hardest import hardest_report  # only the hardest command searches clusters

        return hardest_report(board, placements, report)
