"""Players' tests' shared pieces: a movable clock, an app on a given database, today's
daily with its shortest line (as a page would send it), a ladder puzzle's line, and a
stored result row."""

import datetime as dt
import hashlib
import json

from sqlalchemy import func, select

from helpers.apps import make_app
from solver import catalogue
from solver.core.seeds import daily_seed
from solver.engine import solve_board
from webapp.storage.checks import solver_daily

NOW = dt.datetime(2026, 3, 1, 12, 0)


class Clock:
    def __init__(self):
        self.now = NOW

    def __call__(self):
        return self.now

    def next_day(self, days=1):
        self.now += dt.timedelta(days=days)

    def wait(self, seconds):
        self.now += dt.timedelta(seconds=seconds)


def make_daily(game, day):
    return catalogue.get(game).generate({}, daily_seed(game, day), True)


def build_app(url, clock, folder, processes=1, **config):
    """The players' app on ``url``; with one process on the database, a submission does
    not wait for other processes' help records (HelpLedger.spread)."""
    app = make_app(DATABASE_URL=url, DATA_DIR=str(folder), CLOCK=clock, **config)
    app.extensions["players"].daily = make_daily
    if processes == 1:
        app.extensions["players"].helps.spread = 0.0
    return app


def daily_line(client, game="jugs"):
    """Today's daily and its shortest line, as the page would send them."""
    daily = client.get(f"/api/daily/{game}").get_json()
    options = {k: v for k, v in daily["options"].items() if v is not None}
    states = solve_board(game, daily["board"], **options)["states"]
    return daily, {
        "game": game,
        "board": daily["board"],
        "options": daily["options"],
        "states": states,
        "seconds": 30,
        "assisted": False,
    }


def count(app, model):
    with app.extensions["players"].db.session() as session:
        return session.scalar(select(func.count()).select_from(model))


def daily_result(player_id: int, day: dt.date | None = None, **changes) -> dict:
    """A result row as the API stores it: the jugs daily of ``day`` (default NOW's),
    solved shortest."""
    day = day or NOW.date()
    game = catalogue.get("jugs")
    made = solver_daily("jugs", day)
    options = {**{o.name: o.default for o in game.options}, **made.get("options", {})}
    domain = game.make_domain(**game.check_options(options))
    board = domain.format(domain.parse(made["board"]))
    given = {k: v for k, v in options.items() if v is not None}
    states = [domain.format(domain.parse(s)) for s in solve_board("jugs", board, **given)["states"]]
    line = "\n".join(states)
    options_json = json.dumps(options, sort_keys=True, separators=(",", ":"))
    row = {
        "player_id": player_id,
        "game": "jugs",
        "puzzle": hashlib.sha256(f"jugs|{options_json}|{board}".encode()).hexdigest(),
        "board": board,
        "options": options_json,
        "day": day,
        "length": len(states) - 1,
        "shortest": made["min_moves"],
        "seconds": 12.5,
        "assisted": False,
        "ranked": True,
        "line_hash": hashlib.sha256(line.encode()).hexdigest(),
        "line": line,
        "created": NOW,
    }
    return {**row, **changes}


def ladder_line(puzzle: dict, over: int = 0) -> dict:
    """A result for a served ladder ``puzzle``: the solver's shortest line, ``over`` moves
    longer by stepping back and forth at the start."""
    options = {k: v for k, v in puzzle["options"].items() if v is not None}
    states = solve_board(puzzle["game"], puzzle["board"], **options)["states"]
    assert len(states) - 1 == puzzle["shortest"]
    detour = [states[0], states[1]] * (over // 2)
    return {
        "game": puzzle["game"],
        "board": puzzle["board"],
        "options": puzzle["options"],
        "states": detour + states,
        "seconds": 20,
        "assisted": False,
    }
