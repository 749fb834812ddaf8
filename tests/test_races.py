"""Live races on one server: three socket clients in one private race.

Distances and solutions come from the reference rules (:mod:`helpers.npuzzle`: a
plain breadth-first search of the 8-puzzle; the other games' reference rules for the
race that brings every game), never from the server's judgement.
"""

from __future__ import annotations

import json

import pytest
from helpers import jugs, klotski, rushhour, watersort
from helpers.apps import make_app
from helpers.npuzzle import goal, line_home, neighbour, reference_distances, slides, tiles_of
from helpers.search import bfs_path
from helpers.sockets import Inbox

from solver import catalogue
from webapp.players.challenges import Challenge
from webapp.races.draw import race_games
from webapp.races.model import Race

#: long enough for a loaded machine to judge the test's moves before the race ends
RACE_SECONDS = 6.0


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


def guest(app):
    """A browser that opened the race page: a guest player in its cookie."""
    http = app.test_client()
    assert http.get("/race").status_code == 200 and http.get_cookie("arcade_player")
    return http


def test_three_racers_race_one_private_race(app):
    player = app.test_client()  # the third racer is a named player
    assert player.post("/api/player", json={"name": "Cyrus"}).status_code == 200
    (owner,) = clients(app, 1, guest(app))
    (second,) = clients(app, 1, guest(app))
    (third,) = clients(app, 1, player)
    owner.client.emit("race_join", {"race": "new", "name": "Ann"})
    race = state(owner, "waiting")["race"]
    for inbox, name in ((second, "Bo"), (third, "Cy")):
        inbox.client.emit("race_join", {"race": race, "name": name})
    seen = state(owner, "waiting", 5)
    while len(seen["players"]) < 3:
        seen = state(owner, "waiting", 5)
    # a guest's name is registered as their player's; a named player races under their
    # own, whatever their payload says
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
    racers[0].client.emit("race_join", {"name": "Zed"})  # no cookie: a guest, no name
    first = state(racers[0], "waiting")
    assert first["public"] is True and first["owner"] is False
    assert first["you"] == "Guest 1"
    racers[0].client.emit("race_start", {})  # a public race has no owner
    assert racers[0].wait("error")[1]["event"] == "race_start"
    racers[1].client.emit("race_join", {})
    assert state(racers[1], "waiting")["race"] == first["race"]
    racers[2].client.emit("race_join", {})
    for inbox in racers:
        counting = state(inbox, "countdown")
        assert counting["race"] == first["race"] and len(counting["players"]) == 3


def test_a_racer_shows_a_name_nobody_else_holds(app):
    """A name in ``race_join`` is registered by the players' rules (issue 46: a
    cookie-less racer took Alice6370's name and the real Alice showed as "Alice6370 2")."""
    alice = app.test_client()
    assert alice.post("/api/player", json={"name": "Alice6370"}).status_code == 200
    (impostor,) = clients(app, 1)  # no cookie
    impostor.client.emit("race_join", {"race": "new", "name": "Alice6370"})
    race = state(impostor, "waiting")
    assert race["you"] == "Guest 1"
    (lookalike,) = clients(app, 1, guest(app))  # a guest asking for a look-alike
    lookalike.client.emit("race_join", {"race": race["race"], "name": "AIice6370"})
    refused = lookalike.wait("error")[1]
    assert refused["event"] == "race_join" and "taken" in refused["message"]
    lookalike.client.emit("race_join", {"race": race["race"], "name": "x" * 500})
    assert "1 to 20" in lookalike.wait("error")[1]["message"]
    (real,) = clients(app, 1, alice)
    real.client.emit("race_join", {"race": race["race"], "name": "Bob"})
    seen = state(real, "waiting")
    assert seen["you"] == "Alice6370"
    assert sorted(p["name"] for p in seen["players"]) == ["Alice6370", "Guest 1"]


def test_a_racer_who_reloads_the_lobby_keeps_racing_with_their_score(app):
    """A reload (a new socket, the same cookie, asking for the lobby again) resumes the
    race the racer's seat names, score and all (issue 46: it joined a new race at 0)."""
    browser = guest(app)
    (me,) = clients(app, 1, browser)
    others = clients(app, 2)
    me.client.emit("race_join", {})
    for other in others:
        other.client.emit("race_join", {})
    racing = state(me, "racing", 10)
    race, board = racing["race"], at(racing)
    me.client.emit("race_move", {"board": neighbour(board, -1)})
    me.wait("race_state", where=lambda s: any(p["score"] == 1 for p in s["players"]))
    me.client.disconnect()
    (again,) = clients(app, 1, browser)  # the reload: the page asks for the lobby
    again.client.emit("race_join", {})
    resumed = state(again, "racing")
    assert resumed["race"] == race and at(resumed) == neighbour(board, -1)
    mine = next(p for p in resumed["players"] if p["name"] == resumed["you"])
    assert mine["score"] == 1
    (tab,) = clients(app, 1, browser)  # a second tab: the same racer, moving on
    tab.client.emit("race_join", {"race": race})
    assert state(tab, "racing")["you"] == resumed["you"]


def test_a_racer_in_two_tabs_races_in_both(app):
    """A second tab is the same racer, and the first races on: both see every state, a
    move from either counts once (before, the first tab was left with no state)."""
    player = app.test_client()
    assert player.post("/api/player", json={"name": "Tabby"}).status_code == 200
    first, second = clients(app, 2, player)
    first.client.emit("race_join", {"race": "new"})
    race = state(first, "waiting")["race"]
    second.client.emit("race_join", {"race": race})
    assert state(second, "waiting")["you"] == "Tabby"
    first.client.emit("race_start", {})
    board = at(state(first, "racing"))
    assert at(state(second, "racing")) == board
    away = neighbour(board, +1)
    second.client.emit("race_move", {"board": away})  # from the second tab, seen in the first
    for tab in (first, second):
        assert tab.wait("race_state", where=lambda s: at(s) == away)[1]["players"][0]["score"] == 0
    first.client.emit("race_move", {"board": board})  # and back, from the first
    for tab in (first, second):
        assert tab.wait("race_state", where=lambda s: at(s) == board)[1]["players"][0]["score"] == 0
    first.client.disconnect()  # one tab closed: the racer races on in the other
    near = neighbour(board, -1)
    second.client.emit("race_move", {"board": near})
    seen = second.wait("race_state", where=lambda s: s["players"][0]["score"] == 1)[1]
    assert seen["you"] == "Tabby" and seen["players"][0]["name"] == "Tabby"
    second.client.disconnect()


def test_guests_are_told_apart_by_number_only(app):
    """A guest takes the lowest free "Guest N": one who left the lobby frees theirs
    (before, the next was "Guest 2 2")."""
    a, b, c = clients(app, 3)
    a.client.emit("race_join", {})
    assert state(a, "waiting")["you"] == "Guest 1"
    b.client.emit("race_join", {})
    assert state(b, "waiting")["you"] == "Guest 2"
    a.client.disconnect()
    c.client.emit("race_join", {})
    seen = state(c, "waiting")
    assert seen["you"] == "Guest 1"
    assert sorted(p["name"] for p in seen["players"]) == ["Guest 1", "Guest 2"]
    for inbox in (b, c):  # the lobby is left empty for the next test
        inbox.client.disconnect()


def test_a_racer_moving_back_and_forth_scores_once_per_distance(app):
    """A point only for a distance lower than any the puzzle reached (issue 46: an
    oscillating racer scored 1,104 and solved nothing)."""
    player = app.test_client()  # a named player: the same racer on old and new servers
    assert player.post("/api/player", json={"name": "Osc"}).status_code == 200
    (racer,) = clients(app, 1, player)
    racer.client.emit("race_join", {"race": "new"})
    state(racer, "waiting")
    racer.client.emit("race_start", {})
    board = at(state(racer, "racing"))
    near = neighbour(board, -1)
    assert distance(near) == distance(board) - 1
    scores = []
    for step in range(10):  # closer, back, closer, back, ...
        target = near if step % 2 == 0 else board
        racer.client.emit("race_move", {"board": target})
        seen = racer.wait("race_state", where=lambda s, t=target: at(s) == t)[1]
        scores.append(seen["players"][0]["score"])
    assert scores == [1] * 10


def test_a_puzzle_is_worth_its_starting_distance_however_it_is_played():
    """Straight through :meth:`Race.record` with the reference distances: a perfect line
    scores the puzzle's starting distance, a line that wanders away and back scores
    only its new bests, back and forth scores at most 1, and the score survives the
    store's round trip (a reload resumes it)."""
    start = next(" ".join(map(str, t)) for t, d in reference_distances().items() if d == 6)
    line = line_home(start)
    assert len(line) == 7 and distance(line[-1]) == 0

    def race_of():
        puzzles = [Challenge("npuzzle", start, {}, 6, None) for _ in range(2)]
        race = Race("r", False, "p:a", puzzles)
        race.join("p:a", "sid-a", "Ann", 0.0)
        return race, race.racers["p:a"]

    perfect, ann = race_of()
    for board in line[1:]:
        perfect.record(ann, board, distance(board), distance(board) == 0)
    assert (ann.score, ann.solved, ann.puzzle, ann.board) == (6, 1, 1, start)

    oscillating, ann = race_of()
    near = line[1]
    for step in range(1000):
        board = near if step % 2 == 0 else start
        oscillating.record(ann, board, distance(board), False)
    assert ann.score == 1 and ann.solved == 0

    wandering, ann = race_of()
    away = neighbour(start, +1)
    for board in (near, start, away, start, near, line[2]):
        wandering.record(ann, board, distance(board), False)
    assert ann.score == 2  # 6 -> 5, then 4: the way back scored nothing
    again = Race.from_data(json.loads(json.dumps(wandering.to_data())))
    resumed = again.racers["p:a"]
    again.record(resumed, line[1], distance(line[1]), False)  # a step back after a reload
    assert resumed.score == 2
    again.record(resumed, line[2], distance(line[2]), False)
    again.record(resumed, line[3], distance(line[3]), False)
    assert resumed.score == 3


def test_one_address_opens_three_races_while_another_still_races(app):
    """``RACES_PER_ADDRESS`` (3) races waiting or running per address (issue 46: one
    address opened 200 private races in 6.6 s and every other player was refused)."""

    def at_address(address):
        http = app.test_client()
        http.environ_base["REMOTE_ADDR"] = address
        return clients(app, 1, http)[0]

    flooders = [at_address("10.6.0.1") for _ in range(4)]
    for inbox in flooders:
        inbox.client.emit("race_join", {"race": "new"})
    for inbox in flooders[:3]:
        assert state(inbox, "waiting")["owner"] is True
    refused = flooders[3].wait("error")[1]
    assert refused["event"] == "race_join" and "this address has 3 races" in refused["message"]
    honest = at_address("10.6.0.2")
    honest.client.emit("race_join", {"race": "new"})
    assert state(honest, "waiting")["owner"] is True
    lobby = at_address("10.6.0.3")
    lobby.client.emit("race_join", {})
    assert state(lobby, "waiting")["public"] is True
    flooders[0].client.disconnect()  # a waiting race its owner left is dropped: room again
    flooders[3].client.emit("race_join", {"race": "new"})
    assert state(flooders[3], "waiting")["owner"] is True


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
    (racer,) = clients(every_game_app, 1, guest(every_game_app))
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
