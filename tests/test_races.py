"""Live races on one server: three socket clients in one private race.

Distances and solutions come from the reference rules (:mod:`helpers.npuzzle`: a
plain breadth-first search of the 8-puzzle; the other games' reference rules for the
race that brings every game), never from the server's judgement.
"""

from __future__ import annotations

import pytest
from helpers import jugs, klotski, rushhour, watersort
from helpers.apps import make_app
from helpers.npuzzle import goal, neighbour, reference_distances, slides, tiles_of
from helpers.search import bfs_path
from helpers.sockets import Inbox

from solver import catalogue
from webapp.races.draw import race_games
from webapp.races.model import MAX_NAME

RACE_SECONDS = 3.0


pytestmark = pytest.mark.app(
    RATE_LIMIT=0, RACE_COUNTDOWN_SECONDS=1.0, RACE_SECONDS=RACE_SECONDS, RACE_PUZZLES=2
)


def clients(app, n, http=None):
    """``n`` sockets; with ``http`` (a Flask test client), its player cookie's."""
    socketio = app.extensions["socketio"]
    return [Inbox(socketio.test_client(app, flask_test_client=http)) for _ in range(n)]


def state(inbox, status, timeout=10.0):
    return inbox.wait("race_state", timeout, lambda s: s["status"] == status)[1]


def at(payload) -> str | None:
    """The racer's position in a ``race_state`` (None before the race)."""
    return payload.get("puzzle", {}).get("board")


def distance(board: str) -> int:
    return reference_distances()[tiles_of(board)]


def test_three_racers_race_one_private_race(app):
    player = app.test_client()  # the third racer is a player: their cookie identifies them
    assert player.post("/api/player", json={"name": "Cyrus"}).status_code == 200
    owner, second = clients(app, 2)
    (third,) = clients(app, 1, player)
    owner.client.emit("race_join", {"race": "new", "name": "Ann"})
    race = state(owner, "waiting")["race"]
    for inbox, name in ((second, "Bo"), (third, "Cy")):
        inbox.client.emit("race_join", {"race": race, "name": name})
    seen = state(owner, "waiting", 5)
    while len(seen["players"]) < 3:
        seen = state(owner, "waiting", 5)
    # a named player races under their own name, whatever their payload says
    assert sorted(p["name"] for p in seen["players"]) == ["Ann", "Bo", "Cyrus"]
    assert seen["owner"] is True and "puzzle" not in seen

    second.client.emit("race_start", {})  # not the owner: refused
    assert second.wait("error")[1]["event"] == "race_start"
    owner.client.emit("race_start", {})
    for inbox in (owner, second, third):
        assert state(inbox, "countdown")["starts_in"] > 0
    racing = [state(inbox, "racing") for inbox in (owner, second, third)]
    puzzles = [s["puzzle"] for s in racing]
    assert puzzles[0] == puzzles[1] == puzzles[2] and puzzles[0]["game"] == "npuzzle"
    board = puzzles[0]["board"]

    # an illegal move is an error and scores nothing
    owner.client.emit("race_move", {"board": "1 2 3 4 5 6 7 8 0 9"})
    assert owner.wait("error")[1]["event"] == "race_move"
    # a closer move scores 1, a farther one nothing; the others see it
    near = neighbour(board, -1)
    owner.client.emit("race_move", {"board": near})
    mine = owner.wait("race_state", where=lambda s: at(s) not in (None, board))[1]
    scores = {p["name"]: p["score"] for p in mine["players"]}
    assert scores == {"Ann": 1, "Bo": 0, "Cyrus": 0} and distance(near) == distance(board) - 1
    theirs = second.wait("race_state", where=lambda s: s["players"][0]["score"] == 1)[1]
    assert at(theirs) == board  # still their own position
    away = next(
        b for b in slides(tiles_of(board)) if distance(" ".join(map(str, b))) > distance(board)
    )
    second.client.emit("race_move", {"board": " ".join(map(str, away))})
    moved = second.wait("race_state", where=lambda s: at(s) not in (None, board))[1]
    assert {p["name"]: p["score"] for p in moved["players"]}["Bo"] == 0

    done = state(third, "finished", RACE_SECONDS + 5)
    assert [p["name"] for p in done["players"]][0] == "Ann"
    assert done["puzzles"][0]["board"] == board and done["puzzles"][0]["shortest"] == distance(
        board
    )
    third.client.emit("race_move", {"board": board})
    assert third.wait("error")[1]["event"] == "race_move"


def test_a_racer_who_comes_back_resumes_and_a_latecomer_watches(app):
    player = app.test_client()
    assert player.post("/api/player", json={"name": "Dee"}).status_code == 200
    (owner,) = clients(app, 1, player)
    owner.client.emit("race_join", {"race": "new", "name": "Dee"})
    race = state(owner, "waiting")["race"]
    owner.client.emit("race_start", {})
    board = at(state(owner, "racing"))
    near = neighbour(board, -1)
    owner.client.emit("race_move", {"board": near})
    owner.wait("race_state", where=lambda s: at(s) not in (None, board))
    owner.client.disconnect()

    (back,) = clients(app, 1, player)  # the same player, a new socket
    back.client.emit("race_join", {"race": race})
    resumed = state(back, "racing")
    assert resumed["you"] == "Dee" and resumed["players"] == [
        {"name": "Dee", "score": 1, "solved": int(distance(board) == 1)}
    ]
    if distance(board) > 1:
        assert at(resumed) == near  # where they left off
    (late,) = clients(app, 1)
    late.client.emit("race_join", {"race": race, "name": "Eve"})
    watching = state(late, "racing")
    assert watching["you"] is None and "puzzle" not in watching and len(watching["players"]) == 1
    late.client.emit("race_move", {"board": near})
    assert late.wait("error")[1]["event"] == "race_move"
    assert state(late, "finished", RACE_SECONDS + 5)["players"][0]["score"] == 1


def test_the_public_race_counts_down_once_three_have_joined(app):
    racers = clients(app, 3)
    racers[0].client.emit("race_join", {"name": "x" * 500 + "\x00"})
    first = state(racers[0], "waiting")
    assert first["public"] is True and first["owner"] is False
    assert first["you"] == "x" * MAX_NAME  # names are capped and printable
    racers[0].client.emit("race_start", {})  # a public race has no owner
    assert racers[0].wait("error")[1]["event"] == "race_start"
    racers[1].client.emit("race_join", {})
    assert state(racers[1], "waiting")["race"] == first["race"]
    racers[2].client.emit("race_join", {})
    for inbox in racers:
        counting = state(inbox, "countdown")
        assert counting["race"] == first["race"] and len(counting["players"]) == 3


# -- every game in turn --------------------------------------------------------------------


@pytest.fixture(scope="module")
def every_game_app():
    games = len(catalogue.games())
    return make_app(RATE_LIMIT=0, RACE_COUNTDOWN_SECONDS=0.5, RACE_SECONDS=60.0, RACE_PUZZLES=games)


def reference_line(puzzle: dict) -> list[str]:
    """A shortest solution of a race puzzle (positions, start first) by the reference
    rules of its game, as board text the server reads."""
    game, board, options = puzzle["game"], puzzle["board"], puzzle["options"]
    if game == "npuzzle":
        path = bfs_path(tiles_of(board), slides, lambda tiles: tiles == goal(3))
        return [" ".join(map(str, tiles)) for tiles in path]
    if game == "jugs":
        capacities = jugs.capacities_of(board)
        path = bfs_path(
            jugs.contents_of(board), jugs.jug_pours(capacities), jugs.goal_met(options["goal"])
        )
        return [",".join(f"{c}/{cap}" for c, cap in zip(s, capacities, strict=True)) for s in path]
    if game == "klotski":
        labels, shape, _ = klotski.shapes_of(board)
        return bfs_path(
            board,
            lambda pos: klotski.moves(pos, labels, options["metric"]),
            lambda pos: klotski.solved(pos, shape),
        )
    if game == "rushhour":
        return rushhour.bfs_line(board)
    assert game == "watersort", game
    capacity = options["capacity"]
    path = bfs_path(
        watersort.tubes_of(board), watersort.pours(capacity), watersort.sorted_out(capacity)
    )
    return [",".join(tubes) for tubes in path]


def test_a_race_brings_a_small_puzzle_of_every_game_in_turn(every_game_app):
    """One racer solves the race's puzzles, one a game, by the reference rules' shortest lines:
    each move scores 1, each solved puzzle brings the next game's, every game once."""
    (racer,) = clients(every_game_app, 1)
    racer.client.emit("race_join", {"race": "new", "name": "Ann"})
    state(racer, "waiting")
    racer.client.emit("race_start", {})
    seen, games, score = state(racer, "racing"), [], 0
    while "puzzle" in seen:
        puzzle = seen["puzzle"]
        games.append(puzzle["game"])
        line = reference_line(puzzle)
        assert 2 <= len(line) <= 20, (puzzle, len(line))  # small, and not yet solved
        for board in line[1:]:
            racer.client.emit("race_move", {"board": board})
            seen = racer.wait(
                "race_state", 30, lambda s, n=score + 1: s["players"][0]["score"] == n
            )[1]
            score += 1
    assert sorted(games) == sorted(catalogue.games())
    assert games == [game.name for game in race_games()]
    assert seen["players"] == [{"name": "Ann", "score": score, "solved": len(games)}]
