"""Rush Hour's content: the level packs (each level the hardest start of its cluster,
its length proven), the puzzles made from them for the ladder, runs and races, and
every mode that hands them out: the daily, the ladder, a storm, the lab's graph.

Lengths and clusters are checked against the reference rules (:mod:`helpers.rushhour`:
a plain breadth-first search over board strings, no solver code).
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers.rushhour import bfs_line, cluster_distances, replays

from solver import catalogue
from solver.rushhour.generate import MAX_POSITIONS, rushhour_puzzle
from solver.rushhour.grading import grade
from solver.rushhour.levels import PACKS, load

GAME = catalogue.get("rushhour")
LEVELS = GAME.levels()


def test_the_packs_hold_two_hundred_hardest_starts_from_10_to_51_moves():
    assert len(LEVELS) >= 200
    lengths = Counter(level["moves"][None] for level in LEVELS)
    assert (min(lengths), max(lengths)) == (10, 51)
    assert all(lengths[n] for n in range(10, 48)), sorted(lengths.items())
    boards = [level["board"] for level in LEVELS]
    assert len(set(boards)) == len(boards)
    for level in LEVELS:
        assert level["group"]["farthest"][None] == level["moves"][None], level["name"]
        assert level["group"]["positions"] <= 60_000
    names = [level["name"] for level in LEVELS]
    assert len(set(names)) == len(names) and names[0] == "Beginner 1"
    # each pack its lengths, shortest first
    spans = [[level["moves"] for level in load(pack)["levels"]] for pack in PACKS]
    assert [(s[0], s[-1]) for s in spans] == [(10, 19), (20, 29), (30, 39), (40, 51)]
    assert all(s == sorted(s) for s in spans)


#: a level of each pack (its first and last), and the 51-move one, by the reference rules
SAMPLE = [
    level
    for pack in PACKS
    for level in (lambda ls: [ls[0], ls[-1]])([x for x in LEVELS if x["pack"] == pack])
    if level["group"]["positions"] <= 12_000
]


@pytest.mark.parametrize("level", SAMPLE, ids=[level["name"] for level in SAMPLE])
def test_a_level_is_the_hardest_start_of_its_cluster_by_the_reference_rules(level):
    members, dist = cluster_distances(level["board"])
    assert len(members) == level["group"]["positions"]
    assert dist[level["board"]] == max(dist.values()) == level["moves"][None]
    assert grade(level["board"]) == {
        "moves": level["moves"][None],
        "traps": level["traps"][None],
        "group": {"positions": len(members), "farthest": level["moves"][None]},
    }


def test_the_sample_reaches_the_longest_level():
    assert max(level["moves"][None] for level in SAMPLE) == 51


@pytest.mark.parametrize("moves", [1, 4, 11, 23, 51])
def test_a_puzzle_made_for_a_length_is_that_long(moves):
    made = rushhour_puzzle(moves, 7)
    line = bfs_line(made["board"])
    assert len(line) - 1 == moves and replays(line)
    assert rushhour_puzzle(moves, 7) == made  # one seed, one puzzle
    source = next(level for level in LEVELS if level["name"] == made["level"])
    assert source["group"]["positions"] <= MAX_POSITIONS
    assert len({rushhour_puzzle(moves, seed)["board"] for seed in range(8)}) > 1


def _line_body(puzzle: dict) -> dict:
    line = bfs_line(puzzle["board"])
    return {"game": "rushhour", "board": puzzle["board"], "states": line, "seconds": 60}


def test_the_daily_is_a_level_and_its_result_is_ranked(sqlite_app, clock):
    client = sqlite_app.test_client()
    daily = client.get("/api/daily/rushhour").get_json()
    level = next(level for level in LEVELS if level["board"] == daily["board"])
    assert daily["shortest"] == level["moves"][None]
    clock.wait(60)
    reply = client.post("/api/results", json=_line_body(daily)).get_json()
    assert (reply["length"], reply["shortest"], reply["accuracy"]) == (
        level["moves"][None],
        level["moves"][None],
        100,
    )
    assert reply["ranked"] is True


def test_the_ladder_hands_out_a_rush_hour_puzzle_and_rates_its_result(sqlite_app):
    client = sqlite_app.test_client()
    puzzle = client.post("/api/ladder/rushhour", json={}).get_json()
    assert puzzle["game"] == "rushhour" and puzzle["rating"] == 1500
    assert len(bfs_line(puzzle["board"])) - 1 == puzzle["shortest"]
    reply = client.post("/api/results", json=_line_body(puzzle)).get_json()
    assert reply["optimal"] and reply["rating"]["after"] > 1500


def test_a_storm_serves_small_rush_hour_puzzles_judged_move_by_move(sqlite_app):
    client = sqlite_app.test_client()
    run = client.post("/api/runs", json={"mode": "storm", "game": "rushhour"}).get_json()
    # the storm's first length, one over the easiest: the levels (10 moves and up) join
    # the pool rated on the same scale as the puzzles made, so none of them is drawn
    assert run["shortest"] == GAME.ladder_lengths[0] + 1 == 2
    assert len(bfs_line(run["board"])) - 1 == run["shortest"]
    for board in bfs_line(run["board"])[1:]:
        got = client.post(
            f"/api/runs/{run['run']}/moves", json={"moves": run["moves"], "board": board}
        )
        assert got.status_code == 200, got.get_json()
        run = got.get_json()
        assert run["last"]["closer"] is True
    assert run["solved"] == 1 and not run["over"]


def test_the_lab_draws_the_cluster_of_the_hardest_puzzle(sqlite_app):
    client = sqlite_app.test_client()
    graph = client.get(f"/api/graph/rushhour?board={GAME.default_board}").get_json()
    assert len(graph["nodes"]) == 4_780
    assert max(node["distance"] for node in graph["nodes"]) == 51
    assert graph["nodes"][0] == {"board": GAME.default_board, "distance": 51}
