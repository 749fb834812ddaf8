"""The player's page's API: the rating's history per game, strengths and weaknesses from
first attempts, a new recovery code on request, and the level cards' ratings.

Lines are the solver's shortest, replayed by the server (``helpers.players.ladder_line``); the
weak side of a player is made by abandoning ladder puzzles (a new request scores the
open one 0), so every score here is known without trusting the code under test.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from urllib.parse import quote

from helpers.players import daily_line
from helpers.players import ladder_line as line
from sqlalchemy import select

from solver import catalogue
from solver.engine import solve_board
from webapp.levels.facts import level_ref
from webapp.players.ratings import PUZZLE_DEVIATION
from webapp.storage.models import Player


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


def _level_body(level: dict) -> dict:
    options = dict(level["options"])
    states = solve_board("jugs", level["board"], **options)["states"]
    return {"game": "jugs", "board": level["board"], "options": options, "states": states}


def test_the_profile_holds_the_dailies_levels_races_and_recent_results(players_app, clock):
    """On SQLite and PostgreSQL: two days' dailies make a streak of 2 on the calendar, a
    level solved from its own link is listed with its fewest moves and its link, a rated
    race's rating comes back point by point, and every result is there newest first with
    a replay of exactly the line that was sent; another player's result is a 404."""
    client = players_app.test_client()
    empty = client.get("/api/player/profile").get_json()
    assert (empty["dailies"], empty["levels"], empty["race"], empty["recent"]) == ({}, [], None, [])
    sent = []
    for _ in range(2):
        daily, body = daily_line(client)
        assert client.post("/api/results", json=body).status_code == 201
        sent.append(body)
        clock.next_day()
    jugs = catalogue.get("jugs")
    level = jugs.levels()[1]
    client.get(f"/play/jugs?level={level_ref(jugs, level)}")  # the level's own link: ranked
    clock.wait(30)
    body = _level_body(level)
    assert client.post("/api/results", json=body).get_json()["ranked"] is True
    sent.append(body)

    profile = client.get("/api/player/profile").get_json()
    assert profile["today"] == clock.now.date().isoformat()
    calendar = profile["dailies"]["jugs"]
    yesterday = clock.now.date() - dt.timedelta(days=1)
    assert [d["day"] for d in calendar["days"]] == [
        yesterday.isoformat(),
        (yesterday - dt.timedelta(days=1)).isoformat(),
    ]
    assert calendar["streak"] == 2  # up to yesterday while today's is not solved
    for shown, body in zip(calendar["days"], [sent[1], sent[0]], strict=True):
        assert shown["length"] == shown["shortest"] == len(body["states"]) - 1
    [solved] = profile["levels"]
    goal = level["options"]["goal"]
    assert (solved["name"], solved["length"], solved["shortest"]) == (
        level["name"],
        level["moves"][goal],
        level["moves"][goal],
    )
    assert solved["url"] == f"/play/jugs?level={quote(level_ref(jugs, level), safe='')}"
    recent = profile["recent"]
    assert [r["day"] is not None for r in recent] == [False, True, True]  # newest first
    assert recent[0]["level"] == level["name"]
    for row, body in zip(recent, reversed(sent), strict=True):
        assert row["replay"].startswith("/play/jugs?") and f"replay={row['id']}" in row["replay"]
        line = client.get(f"/api/player/results/{row['id']}").get_json()
        assert line["states"] == body["states"] and line["length"] == len(body["states"]) - 1
    stranger = players_app.test_client()
    stranger.post("/api/player", json={"name": "Bob"})
    refused = stranger.get(f"/api/player/results/{recent[0]['id']}")
    assert refused.status_code == 404 and refused.get_json()["error"]


def test_the_profile_reads_the_race_rating_history_oldest_first(players_app, clock):
    """Rated races stored for the player come back as points, oldest first; an entry
    not yet rated adds none."""
    from webapp.storage.models import RaceEntry, RaceRating, RatedRace

    client = players_app.test_client()
    client.post("/api/player", json={"name": "Ann"})
    db = players_app.extensions["players"].db
    with db.session() as session:
        player = session.execute(select(Player.id).where(Player.name == "Ann")).scalar_one()
    ratings = [(1500.0, 1562.4), (1562.4, 1540.2), (1540.2, None)]
    with db.writing() as session:
        session.add(
            RaceRating(player_id=player, rating=1540.2, deviation=250.0, volatility=0.06, races=2)
        )
        for number, (before, after) in enumerate(ratings):
            ends = clock.now + dt.timedelta(days=number)
            race = RatedRace(race=f"r{number}", started=ends, families="[]", rated=ends)
            session.add(race)
            session.flush()
            session.add(
                RaceEntry(
                    rated_race=race.id,
                    player_id=player,
                    ends=ends,
                    assisted=False,
                    score=10 - number,
                    rating_before=before,
                    rating_after=after,
                )
            )
    race = client.get("/api/player/profile").get_json()["race"]
    assert (race["rating"], race["races"]) == (1540, 2)
    assert [(p["before"], p["rating"], p["score"]) for p in race["points"]] == [
        (1500, 1562, 10),
        (1562, 1540, 9),
    ]
