"""The declaration of Klotski: title, options, level packs, the daily pick, warm tables and
race puzzles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import BoardError
from ..core.game import Game, Option
from ..core.results import StopSearch
from ..core.text import N_
from .board import MAX_PIECES, MAX_SIDE
from .domain import Klotski, warm_table
from .generate import klotski_puzzle
from .levels import klotski_levels
from .moves import METRICS


class KlotskiGame(Game):
    name = "klotski"
    title = N_("Klotski")
    order = 1
    summary = N_("Slide the blocks to get the big red one out through the exit at the bottom.")
    how_to_play = N_(
        "Click a block (or press its letter, or Tab) and use the arrow keys, "
        "or drag it. Bring the big red block to the exit."
    )
    default_board = "BAAC/BAAC/DEEF/DGHF/I..J"
    domain = Klotski
    options = (
        Option("metric", str, "piece", "klotski move metric", choices=METRICS, label=N_("Metric")),
        Option(
            "goal",
            str,
            None,
            "klotski goal, e.g. A@3,1 (piece A's top-left at row 3, col 1)",
            label=N_("Goal"),
        ),
    )
    progress_option = "metric"
    original_searches = ("seed-bfs",)
    level_languages = {"klotski-classic": "zh"}

    @classmethod
    def check_size(cls, board: str) -> None:
        rows = board.split("/")
        if len(rows) > MAX_SIDE or max(len(row) for row in rows) > MAX_SIDE:
            raise BoardError(N_("board is larger than %(side)sx%(side)s cells"), side=MAX_SIDE)
        pieces = len(set(board) - {"/", "."})
        if pieces > MAX_PIECES:
            raise BoardError(
                N_("board has %(pieces)s pieces; at most %(most)s are allowed"),
                pieces=pieces,
                most=MAX_PIECES,
            )

    @classmethod
    def size_label(cls, board: str, options: Mapping[str, Any]) -> str:
        rows = board.split("/")
        metric = options.get("metric") or "piece"
        return f"{max(map(len, rows))}x{len(rows)}, {metric} moves"

    #: races' small boards (3x4, 4x3, 4x4), 3 to 16 moves, each group searched whole; in
    #: one-cell steps, so that every arrow key or drag step is a move the server judges
    race_lengths = (3, 16)

    @classmethod
    def race_params(cls, length: int) -> dict[str, Any]:
        return {"moves": length, "metric": "step"}

    @classmethod
    def generate(cls, params: dict[str, Any], seed: int, daily: bool) -> dict:
        """A race's small board ``moves`` long (:mod:`solver.klotski.generate`); without
        ``moves`` (the New game button, the daily), the level the seed picks."""
        if "moves" not in params:
            return super().generate(params, seed, daily)
        made = klotski_puzzle(params["moves"], seed, params.get("metric", "piece"))
        return {
            "board": made["board"],
            "options": {"metric": made["metric"]},
            "min_moves": made["moves"],
            "optimal": True,
            "params": {"moves": made["moves"], "metric": made["metric"]},
        }

    @classmethod
    def levels(cls) -> list[dict]:
        return [dict(level, options={}) for level in klotski_levels()]

    @classmethod
    def warm(cls, stop=None) -> int:
        """Every level's distance table; a level that fails is logged and skipped."""
        done = 0
        for level in cls.distinct_levels():
            if stop is not None and stop.is_set():
                break
            try:
                warm_table(level["board"], cancel=stop)
                done += 1
            except StopSearch:
                break
            except Exception:  # one bad table must not stop the rest
                import logging  # a server's concern: a one-shot CLI call never imports it

                logging.getLogger(__name__).exception(
                    "could not prebuild the table of %s", level["board"]
                )
        return done

    @classmethod
    def warm_first(cls, stop=None) -> int:
        """The classic level's distance table (a few seconds): the default board's."""
        try:
            warm_table(cls.default_board, cancel=stop)
        except StopSearch:
            return 0
        return 1

    @classmethod
    def hardest(cls, board, options, placements, report=None) -> dict:
        from .hardest import hardest_report  # only the hardest command searches groups

        return hardest_report(
            board, options.get("metric", "piece"), options.get("goal"), placements, report
        )
