"""The judged-move core on the web side: a position reached, judged in a solver process.

A streak or a storm (and a race) sends the position each move reached; the server
alone says whether it is one legal move from the last and whether it took exactly
one move off the proven distance (:func:`solver.core.judge.judge_move`). The work
runs in the replay lane's solver processes (a player's submission, shared fairly by
address, then player), never on the event loop; the request waits cooperatively.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from solver.core.errors import BoardError
from solver.core.text import N_
from solver.engine import MAX_BOARD_CHARS

from ..jobs.model import JUDGE, REPLAY_LANE, TaskRefused, TaskRequest
from ..puzzle_request import RequestRefused


@dataclass(frozen=True)
class Judged:
    """One legal move rated: the position reached (canonical), the move's words, the
    proven distances before and after (None: unsolvable), whether it came one closer,
    whether it solved the puzzle, and a closer move when it did not."""

    board: str
    move: str
    before: int | None
    after: int | None
    closer: bool
    solved: bool
    better: str | None = None
    better_move: str | None = None


def judge(
    game: str, options: dict, before: str, after: object, address: str = "", player: str = ""
) -> Judged:
    """Judge the move from ``before`` (the server's position) to ``after`` (as sent).
    A 400 :class:`RequestRefused` for text that is no position or no legal move from
    ``before``; a 503 when the solver processes are busy or the distance is not
    proven in time (the move is then not judged, and nothing changes)."""
    if not isinstance(after, str) or not after.strip() or len(after) > MAX_BOARD_CHARS:
        raise RequestRefused(N_("board must be the position the move reached, as text"))
    task = TaskRequest(game, {"options": options, "before": before, "after": after})
    try:
        done = current_app.extensions["jobs"].page_task(
            JUDGE,
            task,
            float(current_app.config["REPLAY_SECONDS"]),
            address=address,
            player=player,
            lane_name=REPLAY_LANE,
        )
    except TaskRefused as err:
        raise RequestRefused(str(err), 503, {"Retry-After": "5"}) from None
    except BoardError as err:
        raise RequestRefused(err) from None
    if not done["legal"]:
        raise RequestRefused(N_("that is not one legal move from %(board)s"), board=repr(before))
    return Judged(**{key: done[key] for key in Judged.__dataclass_fields__})
