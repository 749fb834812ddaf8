"""The ladder through the HTTP API: ratings for players and puzzles, the next puzzle.

Every line sent is the solver's shortest (:func:`solver.engine.solve_board`), replayed
by the server; a weaker player's is the same with a detour of three out-and-back
steps at the start, 6 moves over on any board (every board has a neighbour, so
"6 over" is possible even on a 1-move puzzle).
"""

from __future__ import annotations

import json

import pytest
from helpers.players import count
from helpers.players import ladder_line as line
from helpers.sockets import Inbox

from solver import catalogue
from webapp.storage import Database
from webapp.storage.checks import BackupRefused
from webapp.storage.models import LadderGame, LadderPuzzle, Result
from webapp.storage.operations import backup, restore

OVER = 6


def rating(client, game="npuzzle") -> dict:
    return client.get("/api/player").get_json()["ratings"][game]


def test_an_optimal_player_climbs_past_one_six_moves_over(sqlite_app, clock):
    strong, weak = sqlite_app.test_client(), sqlite_app.test_client()
    served: dict[str, list[dict]] = {"strong": [], "weak": []}
    for _round in range(25):
        for name, client, over in (("strong", strong, 0), ("weak", weak, OVER)):
            puzzle = client.post("/api/ladder/npuzzle", json={}).get_json()
            served[name].append(puzzle)
            clock.wait(30)
            got = client.post("/api/results", json=line(puzzle, over))
            assert got.status_code == 201, got.get_json()
            reply = got.get_json()
            assert reply["ranked"] is True and reply["length"] == puzzle["shortest"] + over
            assert reply["rating"]["before"] == round(puzzle["rating"])
    for name in served:  # never the same puzzle twice to one player
        boards = [p["board"] for p in served[name]]
        assert len(set(boards)) == len(boards)
    high, low = rating(strong), rating(weak)
    print({"strong": high, "weak": low})
    assert high["attempts"] == low["attempts"] == 25
    assert high["rating"] - low["rating"] >= 150
    # and the strong one is now served harder puzzles
    nxt = {
        name: c.post("/api/ladder/npuzzle", json={}).get_json()
        for name, c in (("strong", strong), ("weak", weak))
    }
    assert nxt["strong"]["puzzle_rating"] > nxt["weak"]["puzzle_rating"]
    assert nxt["strong"]["shortest"] > nxt["weak"]["shortest"]
    last = {name: sum(p["shortest"] for p in served[name][-5:]) for name in served}
    assert last["strong"] > last["weak"]


def test_easier_and_harder_shift_the_puzzle_served(sqlite_app):
    # two new players (one's second request would abandon the first: a lower rating)
    easier = sqlite_app.test_client().post("/api/ladder/npuzzle?shift=easier", json={}).get_json()
    client = sqlite_app.test_client()
    harder = client.post("/api/ladder/npuzzle?shift=harder", json={}).get_json()
    assert easier["rating"] == harder["rating"] == 1500
    assert easier["puzzle_rating"] < 1300 and harder["puzzle_rating"] > 1700
    assert easier["shortest"] < harder["shortest"]
    refused = client.post("/api/ladder/npuzzle?shift=sideways", json={})
    assert refused.status_code == 400 and "shift" in refused.get_json()["error"]
    # a refused request stores nothing: the puzzle handed out is still open, not abandoned
    assert client.get("/api/player").get_json()["ratings"] == {}
    assert client.post("/api/ladder/chess", json={}).status_code in (400, 404)


def test_one_rating_move_per_puzzle_and_none_for_a_forged_line(players_app, clock):
    """On SQLite and PostgreSQL: a forged line is refused and stores nothing; the first
    result moves the rating; a second moves nothing; a new request abandons the open
    puzzle (0); so does half an hour gone; an assisted solve scores 0 too."""
    client = players_app.test_client()
    puzzle = client.post("/api/ladder/jugs", json={}).get_json()
    assert (puzzle["rating"], puzzle["deviation"]) == (1500, 350)
    body = line(puzzle)
    forged = {**body, "states": [body["states"][0], body["states"][-1]]}
    assert puzzle["shortest"] > 1  # so start-then-solved skips moves
    refused = client.post("/api/results", json=forged)
    assert refused.status_code == 400 and refused.get_json()["error"]
    assert count(players_app, Result) == 0
    assert client.get("/api/player").get_json()["ratings"] == {}

    first = client.post("/api/results", json=body).get_json()
    assert first["ranked"] and first["rating"]["after"] > first["rating"]["before"] == 1500
    after = rating(client, "jugs")
    assert after["attempts"] == 1 and after["rating"] == first["rating"]["after"]
    again = client.post("/api/results", json=line(puzzle, 2))
    assert again.status_code == 201 and again.get_json()["ranked"] is False
    assert again.get_json()["rating"] == first["rating"]  # the one move, not another
    assert rating(client, "jugs") == after

    # abandoned: another request while one is open scores it 0
    client.post("/api/ladder/jugs", json={})
    client.post("/api/ladder/jugs", json={})
    dropped = rating(client, "jugs")
    assert dropped["attempts"] == 2 and dropped["rating"] < after["rating"]
    # abandoned: half an hour gone, then solved: still 0
    late = client.post("/api/ladder/jugs", json={}).get_json()
    clock.wait(31 * 60)
    reply = client.post("/api/results", json=line(late)).get_json()
    assert reply["rating"]["after"] < reply["rating"]["before"]
    # assisted: solved optimally with help, scored 0
    helped = client.post("/api/ladder/jugs", json={}).get_json()
    reply = client.post("/api/results", json={**line(helped), "assisted": True}).get_json()
    assert reply["ranked"] is False and reply["rating"]["after"] < reply["rating"]["before"]
    with players_app.extensions["players"].db.session() as session:
        scores = [g.score for g in session.query(LadderGame).order_by(LadderGame.id)]
    assert scores == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_every_game_has_a_ladder_and_its_puzzles_replay(sqlite_app):
    client = sqlite_app.test_client()
    for game in catalogue.games():
        puzzle = client.post(f"/api/ladder/{game}", json={}).get_json()
        assert puzzle["game"] == game and puzzle["rating"] == 1500, puzzle
        if game == "klotski":  # shipped levels: their lengths are the packs' own
            assert puzzle["level"]
            continue
        reply = client.post("/api/results", json=line(puzzle)).get_json()
        assert reply["optimal"] and reply["rating"]["after"] > 1500, reply
    assert set(client.get("/api/player").get_json()["ratings"]) == set(catalogue.games()) - {
        "klotski"
    }


def test_asking_the_server_about_a_ladder_puzzle_scores_it_zero(sqlite_app):
    """The ranked-play machinery: the player's socket asked ``analyse`` about the open
    ladder puzzle, so its optimal line, sent as unaided, is assisted and scores 0."""
    client = sqlite_app.test_client()
    puzzle = client.post("/api/ladder/npuzzle", json={}).get_json()
    body = line(puzzle)
    socket = sqlite_app.extensions["socketio"].test_client(sqlite_app, flask_test_client=client)
    inbox = Inbox(socket)
    socket.emit("analyse", {"game": "npuzzle", "board": body["states"][1]})
    inbox.wait("analysis", timeout=30)
    socket.disconnect()
    reply = client.post("/api/results", json=body).get_json()
    assert (reply["ranked"], reply["assisted"]) == (False, True)
    assert reply["rating"]["after"] < reply["rating"]["before"] == 1500


def test_a_backup_with_a_ladder_result_restores_and_its_shortest_is_proven(sqlite_app, tmp_path):
    """A generated ladder board is neither a daily nor a level: ``db restore`` proves its
    shortest with the solver, so the ranked result comes back and a forged one does not."""
    client = sqlite_app.test_client()
    puzzle = client.post("/api/ladder/npuzzle", json={}).get_json()
    assert client.post("/api/results", json=line(puzzle)).get_json()["ranked"]
    path = tmp_path / "backup.json"
    backup(sqlite_app.extensions["players"].db, path)
    target = Database(f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    assert restore(target, path)["results"] == 1
    with target.session() as session:
        result = session.query(Result).one()
        assert result.ranked and result.shortest == puzzle["shortest"]
    target.close()
    data = json.loads(path.read_text())
    data["tables"]["results"][0]["shortest"] = puzzle["shortest"] - 1
    path.write_text(json.dumps(data))
    with pytest.raises(BackupRefused, match="shortest"):
        restore(Database(f"sqlite:///{tmp_path / 'forged.sqlite3'}"), path)


def test_a_get_only_reads_and_a_cross_site_post_is_refused(sqlite_app):
    """Opening the next puzzle is a same-site POST; a GET reads the open one and changes
    nothing (issue 46: a cross-site link's GET abandoned a victim's puzzle)."""
    client = sqlite_app.test_client()
    assert client.get("/api/ladder/npuzzle").status_code == 404  # nothing open yet
    served = client.post("/api/ladder/npuzzle", json={}).get_json()
    for _ in range(3):
        assert client.get("/api/ladder/npuzzle").get_json() == served
    evil = client.post("/api/ladder/npuzzle", json={}, headers={"Origin": "https://evil.test"})
    assert evil.status_code == 403
    with sqlite_app.extensions["players"].db.session() as session:
        games = session.query(LadderGame).all()
        assert [(g.puzzle is not None, g.score) for g in games] == [(True, None)]
    assert client.get("/api/ladder/npuzzle").get_json() == served
    assert client.get("/api/player").get_json()["ratings"] == {}  # nothing scored


def test_abandons_move_no_puzzle_and_stop_at_the_hours_limit(sqlite_app, clock):
    """An abandon scores 0 for the player and moves no puzzle's rating; the 21st within
    the hour is a 429 (issue 46: 150 GETs took a rating from 1500 to 42, pushed 150
    puzzles' ratings up and added 148 puzzles to the pool)."""
    db = sqlite_app.extensions["players"].db
    client = sqlite_app.test_client()
    replies = []
    for _ in range(25):
        # harder each time: a player whose rating falls is not sent below the easiest boards
        replies.append(client.post("/api/ladder/npuzzle", json={"shift": "harder"}))
        clock.wait(1)
    codes = [r.status_code for r in replies]
    assert codes == [200] * 21 + [429] * 4  # the first, then 20 abandons
    assert int(replies[-1].headers["Retry-After"]) > 0
    with db.session() as session:
        puzzles = {p.puzzle: p for p in session.query(LadderPuzzle)}
        games = session.query(LadderGame).order_by(LadderGame.id).all()
    assert len(games) == 21 and sum(g.abandoned is not None for g in games) == 20
    assert all(puzzles[g.puzzle].attempts == 0 for g in games)  # no puzzle moved
    assert len(puzzles) <= 21  # at most one new puzzle a puzzle served
    clock.wait(3600)  # an hour on: abandons are allowed again
    assert client.post("/api/ladder/npuzzle", json={}).status_code == 200


def test_the_pool_grows_only_when_no_unserved_puzzle_is_near(sqlite_app):
    """A second player at the same rating is served the puzzles the first one dropped
    (their ratings did not move), so the pool does not grow for them (issue 46: each
    ladder request added a generated puzzle, 148 rows from 150 requests)."""
    db = sqlite_app.extensions["players"].db

    def pool() -> set[str]:
        with db.session() as session:
            return {p.board for p in session.query(LadderPuzzle).filter_by(game="npuzzle")}

    def drop_ten(client) -> list[str]:
        return [client.post("/api/ladder/npuzzle", json={}).get_json()["board"] for _ in range(10)]

    first = drop_ten(sqlite_app.test_client())
    grown = pool()
    assert len(set(first)) == 10 and set(first) <= grown
    second = drop_ten(sqlite_app.test_client())
    assert pool() == grown  # nothing new made for the second player
    assert len(set(second)) == 10 and set(second) <= set(first)  # served the first's
