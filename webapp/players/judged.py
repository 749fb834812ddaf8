"""A judged move for a run's route: :func:`webapp.jobs.judging.judge` with the request's
app, budget and client, its refusals as the web tier's (400, 503)."""

from __future__ import annotations

from flask import current_app

from ..jobs.contract import Judged
from ..jobs.judging import judge as judge_move
from ..jobs.outcomes import REFUSALS, refusal

__all__ = ["Judged", "judge"]


def judge(
    game: str, options: dict, before: str, after: object, address: str = "", player: str = ""
) -> Judged:
    """Judge the move from ``before`` to ``after`` (as sent); a RequestRefused (400 for
    a bad position or move, 503 when the solver processes are busy) when it cannot."""
    try:
        return judge_move(
            current_app.extensions["jobs"],
            game,
            options,
            before,
            after,
            float(current_app.config["REPLAY_SECONDS"]),
            address,
            player,
        )
    except REFUSALS as err:
        raise refusal(err) from None
