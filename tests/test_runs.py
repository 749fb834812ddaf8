"""Streak and storm through the HTTP API: every move judged by the server, the run kept
in the database, bests per player and game.

The tests take nothing from the server's judgement: distances and slides are the
reference rules' (:mod:`helpers.npuzzle`: a plain breadth-first search of the 8-puzzle,
no solver code), so a "mistake" is a slide proven one farther, a good move one proven
closer, and a better move shown is checked to be one slide proven one closer.
"""

from __future__ import annotations

import pytest
from helpers.npuzzle import neighbour, reference_distances, slides, tiles_of
from helpers.players import build_app, count
from helpers.sockets import Inbox

from webapp.players.runs import IDLE_SECONDS
from webapp.storage.models import Player, Run


def distance(board: str) -> int:
    return reference_distances()[tiles_of(board)]


def neighbours(board: str) -> list[str]:
    return [" ".join(map(str, b)) for b in slides(tiles_of(board))]


def closer(board: str) -> str:
    return neighbour(board, -1)


def farther(board: str) -> str:
    return neighbour(board, +1)


def start(client, mode: str) -> dict:
    got = client.post("/api/runs", json={"mode": mode, "game": "npuzzle"})
    assert got.status_code == 201, got.get_json()
    return got.get_json()


def move(client, run: dict, board: str, moves: int | None = None):
    body = {"moves": run["moves"] if moves is None else moves, "board": board}
    return client.post(f"/api/runs/{run['run']}/moves", json=body)


def test_a_streak_climbs_and_ends_at_the_first_move_proven_longer(players_app):
    client = players_app.test_client()
    run = start(client, "streak")
    assert run["seconds_left"] is None and run["solved"] == 0 and not run["over"]
    assert distance(run["start"]) == run["shortest"] == 1  # the easiest first
    got = move(client, run, closer(run["board"]))
    assert got.status_code == 200, got.get_json()
    run = got.get_json()
    assert run["last"]["solved"] and run["solved"] == 1 and not run["over"]
    assert distance(run["board"]) == run["shortest"] == 2  # then a little harder

    before = run["board"]
    wrong = farther(before)
    run = move(client, run, wrong).get_json()
    assert run["over"] and run["last"]["closer"] is False and run["solved"] == 1
    shown = run["mistake"]
    assert (shown["board"], shown["reached"]) == (before, wrong)
    assert (shown["distance"], shown["distance_after"]) == (2, 3)
    assert shown["better"] in neighbours(before) and distance(shown["better"]) == 1
    assert shown["better_move"] and shown["move"] and shown["better_move"] != shown["move"]

    again = move(client, run, closer(run["board"]))  # the run is over: nothing moves
    assert again.status_code == 409
    assert client.get("/api/runs/streak/npuzzle").get_json()["moves"] == run["moves"]
    me = client.get("/api/player").get_json()
    assert me["streak"] == {"npuzzle": 1} and me["storm"] == {}


def test_a_storm_costs_ten_seconds_a_longer_move_and_ends_on_the_server_clock(players_app, clock):
    client = players_app.test_client()
    run = start(client, "storm")
    assert run["seconds_left"] == 180
    clock.wait(5)
    run = move(client, run, farther(run["board"])).get_json()
    assert not run["over"] and run["penalties"] == 1
    assert run["seconds_left"] == 180 - 5 - 10
    while not run["solved"]:
        run = move(client, run, closer(run["board"])).get_json()
    assert run["solved"] == 1 and run["penalties"] == 1 and run["last"]["solved"]
    assert distance(run["board"]) == run["shortest"]

    clock.wait(170)  # 165 s were left
    late = move(client, run, closer(run["board"]))
    assert late.status_code == 409
    run = client.get("/api/runs/storm/npuzzle").get_json()
    assert run["over"] and run["seconds_left"] == 0 and run["solved"] == 1
    assert client.get("/api/player").get_json()["storm"] == {"npuzzle": {"today": 1, "best": 1}}
    clock.next_day()
    assert client.get("/api/player").get_json()["storm"] == {"npuzzle": {"today": 0, "best": 1}}


def test_an_illegal_forged_or_replayed_move_changes_nothing(players_app, clock):
    client, other = players_app.test_client(), players_app.test_client()
    run = start(client, "streak")
    board = run["board"]
    two_away = next(b for n in neighbours(board) for b in neighbours(n) if b != board)
    assert move(client, run, two_away).status_code == 400
    for forged in ("1 2 3", "", None, "9 9 9 9 9 9 9 9 9"):
        assert move(client, run, forged).status_code == 400
    assert move(client, run, closer(board), moves="0").status_code == 400
    assert move(other, run, closer(board)).status_code == 404  # not their run
    unchanged = client.get("/api/runs/streak/npuzzle").get_json()
    assert (unchanged["moves"], unchanged["board"]) == (0, board)

    assert move(client, run, closer(board)).status_code == 200
    replayed = move(client, run, closer(board))  # the same move sent again
    assert replayed.status_code == 409
    after = client.get("/api/runs/streak/npuzzle").get_json()
    assert after["moves"] == 1 and after["solved"] == 1
    clock.wait(IDLE_SECONDS)  # a streak left alone this long is over
    assert move(client, after, closer(after["board"])).status_code == 409
    assert client.get("/api/runs/streak/npuzzle").get_json()["over"]

    assert client.post("/api/runs", json={"mode": "blitz", "game": "npuzzle"}).status_code == 400
    assert client.post("/api/runs", json={"mode": "storm", "game": "klotski"}).status_code == 404
    assert other.get("/api/runs/storm/npuzzle").get_json() == {"run": None, "best": 0}


def ask_the_solver(app, client, board: str) -> None:
    """The player's socket asks ``analyse`` about ``board`` (the runs' game and rules)."""
    socket = app.extensions["socketio"].test_client(app, flask_test_client=client)
    inbox = Inbox(socket)
    socket.emit("analyse", {"game": "npuzzle", "board": board})
    inbox.wait("analysis", timeout=30)
    socket.disconnect()


def solve_one(client, run: dict) -> dict:
    solved = run["solved"]
    while run["solved"] == solved:
        run = move(client, run, closer(run["board"])).get_json()
    return run


@pytest.fixture
def sqlite_app(tmp_path, clock):
    """The players' app on SQLite alone: the record of help is no storage question."""
    app = build_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", clock, tmp_path)
    yield app
    app.extensions["players"].db.close()


def test_asking_the_solver_while_a_run_runs_keeps_it_from_the_bests(sqlite_app, clock):
    """Ranked play's record of help: the player's socket asked ``analyse`` about the
    game of a storm still running, so that storm is assisted and no best; asked once
    the storm's time is up, it changes nothing."""
    client = sqlite_app.test_client()
    first = solve_one(client, start(client, "storm"))
    clock.wait(181)
    ask_the_solver(sqlite_app, client, first["board"])
    assert client.get("/api/runs/storm/npuzzle").get_json()["assisted"] is False

    second = start(client, "storm")
    ask_the_solver(sqlite_app, client, second["board"])
    second = solve_one(client, solve_one(client, second))
    assert second["assisted"] and second["solved"] == 2 and second["best"] == 1
    assert client.get("/api/player").get_json()["storm"] == {"npuzzle": {"today": 1, "best": 1}}


def test_a_run_whose_puzzle_cannot_be_made_now_is_refused_with_a_time_to_try_again(
    sqlite_app, monkeypatch
):
    """The pool holds nothing near and the generator finds nothing in its budget: a 503
    that says when to try again, and nothing is stored: no run, and no player made for
    it (one would use up the address's share of new players for nothing)."""
    from webapp.players import runs

    monkeypatch.setattr(runs, "_near", lambda *args: [])
    monkeypatch.setattr(runs, "generate_into_pool", lambda *args: None)
    client = sqlite_app.test_client()
    got = client.post("/api/runs", json={"mode": "streak", "game": "npuzzle"})
    assert got.status_code == 503 and int(got.headers["Retry-After"]) > 0
    assert "could be made now" in got.get_json()["error"]
    assert count(sqlite_app, Player) == 0 and count(sqlite_app, Run) == 0
    assert client.get("/api/runs/streak/npuzzle").get_json() == {"run": None, "best": 0}
