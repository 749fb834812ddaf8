"""The declaration of Rush Hour: title, the level packs, the puzzles the ladder, runs and
races are handed, and the hardest-start search."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import BoardError
from ..core.game import Game
from ..core.text import N_
from .board import CELLS, EMPTY_CHARS, WALL
from .domain import RushHour
from .generate import MOVES, rushhour_puzzle
from .levels import rushhour_levels


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
    def levels(cls) -> list[dict]:
        """The packs' levels; with no options, each count is keyed by None (the progress
        option's value, as the other games key theirs by metric or capacity)."""
        return [
            dict(
                level,
                size=cls.size_label(level["board"], {}),
                options={},
                moves={None: level["moves"]},
                traps={None: level["traps"]},
                group={**level["group"], "farthest": {None: level["group"]["farthest"]}},
            )
            for level in rushhour_levels()
        ]

    #: the ladder's, streak's and storm's puzzles (and so the races'): positions of the
    #: levels' clusters, 1 to 51 slides from solved, each length proven
    ladder_lengths = MOVES

    @classmethod
    def ladder_params(cls, length: int) -> dict[str, Any]:
        return {"moves": length}

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict:
        """A puzzle ``moves`` long (:mod:`solver.rushhour.generate`); without ``moves``
        (the New game button, the daily), the level the seed picks."""
        if "moves" not in params:
            return super().generate(params, seed, daily)
        made = rushhour_puzzle(params["moves"], seed)
        return {
            "board": made["board"],
            "options": {},
            "min_moves": made["moves"],
            "optimal": True,
            "params": {"moves": made["moves"]},
        }

    @classmethod
    def hardest(cls, board, options, placements, report=None) -> dict:
        from .hardest import hardest_report  # only the hardest command searches clusters

        return hardest_report(board, placements, report)
