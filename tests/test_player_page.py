"""The player's page's API: the rating's history per game, strengths and weaknesses from
first attempts, a new recovery code on request, and the level cards' ratings.

Lines are the solver's shortest, replayed by the server (``helpers.players.ladder_line``); the
weak side of a player is made by abandoning ladder puzzles (a new request scores the
open one 0), so every score here is known without trusting the code under test.
"""

from __future__ import annotations

from collections import Counter

from helpers.players import ladder_line as line

from solver import catalogue
from webapp.players.ratings import PUZZLE_DEVIATION


def _jugs_size(board: str) -> str:
    return f"{board.count(',') + 1} jugs"


def test_history_and_strengths_follow_first_attempts(players_app):
    """On SQLite and PostgreSQL: three optimal N-puzzle solves rise in the history point
    by point; abandoned jugs puzzles score 0; the 3x3 N-puzzle is the strength and the
    jugs the weakness; a second submission adds no point."""
    client = players_app.test_client()
    assert client.get("/api/player/history/npuzzle").get_json()["points"] == []
    moves = []
    for _ in range(3):
        puzzle = client.post("/api/ladder/npuzzle", json={}).get_json()
        reply = client.post("/api/results", json=line(puzzle)).get_json()
        moves.append(reply["rating"])
    seen = client.get("/api/player/history/npuzzle").get_json()
    assert seen["start"] == 1500 == moves[0]["before"]
    assert [p["rating"] for p in seen["points"]] == [m["after"] for m in moves]
    rising = [1500] + [p["rating"] for p in seen["points"]]
    assert rising == sorted(set(rising))  # optimal each time: up every time
    ratings = client.get("/api/player").get_json()["ratings"]
    assert seen["points"][-1]["rating"] == ratings["npuzzle"]["rating"]
    alone = client.get("/api/player/strengths").get_json()  # one group: nothing to compare
    assert alone["strengths"] == alone["weaknesses"] == [] and len(alone["groups"]) == 1
    again = client.post("/api/results", json=line(puzzle, 2))
    assert again.status_code == 201
    assert client.get("/api/player/history/npuzzle").get_json() == seen

    served: list[str] = []  # each jugs puzzle is abandoned by the next request
    while not served or max(Counter(map(_jugs_size, served[:-1])).values(), default=0) < 3:
        served.append(client.post("/api/ladder/jugs", json={}).get_json()["board"])
    abandoned = Counter(map(_jugs_size, served[:-1]))
    jugs = client.get("/api/player/history/jugs").get_json()["points"]
    assert len(jugs) == len(served) - 1
    assert all(b["rating"] < a["rating"] for a, b in zip(jugs, jugs[1:], strict=False))

    got = client.get("/api/player/strengths").get_json()
    groups = {(g["game"], g["size"]): (g["attempts"], g["score"]) for g in got["groups"]}
    assert groups == {
        ("npuzzle", "3x3"): (3, 1.0),
        **{("jugs", size): (n, 0.0) for size, n in abandoned.items()},
    }
    assert [(g["game"], g["size"]) for g in got["strengths"]] == [("npuzzle", "3x3")]
    weak = [(g["game"], g["size"]) for g in got["weaknesses"]]
    assert weak == [("jugs", size) for size, n in abandoned.items() if n >= 3]


def test_a_new_recovery_code_on_request_and_bad_requests_refused(sqlite_app):
    """Asking needs a player and this site; the new code moves the player to another
    browser and the old one stops working. Bad requests are 4xx and store nothing."""
    client = sqlite_app.test_client()
    assert client.get("/api/player/strengths").get_json()["groups"] == []
    refused = client.get("/api/player/history/chess")
    assert refused.status_code == 400 and "unknown game" in refused.get_json()["error"]
    nobody = client.post("/api/player/code", json={})
    assert nobody.status_code == 404 and nobody.get_json()["error"]
    assert client.get("/api/player").get_json()["known"] is False
    bad_json = client.post("/api/player/code", data="[", content_type="application/json")
    assert bad_json.status_code == 400
    old = client.post("/api/player", json={"name": "Ann"}).get_json()["code"]
    foreign = client.post("/api/player/code", json={}, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403
    new = client.post("/api/player/code", json={}).get_json()["code"]
    assert new != old
    other = sqlite_app.test_client()
    assert other.post("/api/player/restore", json={"code": old}).status_code == 404
    moved = other.post("/api/player/restore", json={"code": new})
    assert moved.status_code == 200 and moved.get_json()["name"] == "Ann"


def test_level_cards_show_the_ladder_rating_with_its_deviation(sqlite_app):
    """Before play, a level shows the rating its length grades it at (longer: higher),
    with the wide deviation of a graded start; its first ladder attempt moves both."""
    client = sqlite_app.test_client()
    before = client.get("/api/levels/jugs").get_json()["levels"]
    assert all(lv["rating_attempts"] == 0 for lv in before)
    assert all(lv["deviation"] == PUZZLE_DEVIATION for lv in before)
    lengths = {
        (lv["board"], goal): moves
        for lv in catalogue.get("jugs").levels()
        for goal, moves in lv["moves"].items()
    }
    by_length = sorted(before, key=lambda lv: lengths[(lv["board"], lv["options"]["goal"])])
    ratings = [lv["rating"] for lv in by_length]
    assert ratings == sorted(ratings) and ratings[0] < ratings[-1]
    puzzle = client.post("/api/ladder/jugs", json={}).get_json()
    assert client.post("/api/results", json=line(puzzle)).status_code == 201
    after = client.get("/api/levels/jugs").get_json()["levels"]
    moved = [lv for lv in after if lv["rating_attempts"] == 1]
    assert len(moved) == 1 and moved[0]["board"] == puzzle["board"]
    assert moved[0]["deviation"] < PUZZLE_DEVIATION
    assert moved[0]["rating"] < puzzle["puzzle_rating"]  # solved at once: an easier puzzle
