"""``GET /api/graph/<game>``: every position reachable from a board, its distance to
solved and every move, checked against a search written here from the rules' words."""

import gzip
import itertools
import json
from collections import deque

import pytest

from solver.core.space import state_space
from solver.engine import make_domain, solve_board


def jugs_pours(board: str) -> set[str]:
    """Every board one pour from ``board`` ("contents/capacity,..."): from a non-empty
    jug into another that is not full, until the first is empty or the second full."""
    jugs = [tuple(map(int, part.split("/"))) for part in board.split(",")]
    after = set()
    for source, (have, _cap) in enumerate(jugs):
        for target, (there, room) in enumerate(jugs):
            if source == target or have == 0 or there == room:
                continue
            moved = min(have, room - there)
            poured = list(jugs)
            poured[source] = (have - moved, jugs[source][1])
            poured[target] = (there + moved, room)
            after.add(",".join(f"{a}/{b}" for a, b in poured))
    return after


def moves_to(board: str, goal: list[int | None]) -> int | None:
    """Pours from ``board`` to any board holding ``goal``'s litres (None: any), by a
    breadth-first search of its own."""
    seen, queue = {board: 0}, deque([board])
    while queue:
        here = queue.popleft()
        litres = [int(part.split("/")[0]) for part in here.split(",")]
        if all(want is None or want == got for want, got in zip(goal, litres, strict=True)):
            return seen[here]
        for there in jugs_pours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return None


def test_a_jugs_graph_is_every_position_distance_and_pour(client):
    reply = client.get("/api/graph/jugs?board=0/3,0/5,8/8&goal=*,4,4")
    assert reply.status_code == 200, reply.get_json()
    graph = reply.get_json()
    boards = [node["board"] for node in graph["nodes"]]
    assert boards[0] == "0/3,0/5,8/8" and len(set(boards)) == len(boards)
    reachable, queue = {"0/3,0/5,8/8"}, deque(["0/3,0/5,8/8"])
    while queue:
        for there in jugs_pours(queue.popleft()) - reachable:
            reachable.add(there)
            queue.append(there)
    assert set(boards) == reachable
    pours = {(boards[i], boards[j]) for i, j in graph["edges"]}
    assert pours == {(b, a) for b in reachable for a in jugs_pours(b)}
    for node in graph["nodes"]:
        assert node["distance"] == moves_to(node["board"], [None, 4, 4]), node


def test_the_graph_travels_compressed_as_the_worker_made_it(client):
    packed = client.get("/api/graph/jugs?board=0/3,0/5,8/8", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    plain = client.get("/api/graph/jugs?board=0/3,0/5,8/8")
    assert json.loads(gzip.decompress(packed.data)) == plain.get_json()


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("/api/graph/npuzzle?board=1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", 413, "100,000"),
        ("/api/graph/jugs?board=9/3,0/5", 400, "jug"),
        ("/api/graph/jugs", 400, "missing board"),
        ("/api/graph/chess?board=x", 400, "unknown game"),
        ("/api/graph/jugs?board=0/3,0/5,8/8&metric=piece", 400, "metric"),
    ],
)
def test_a_graph_that_cannot_be_drawn_is_refused_in_words(client, url, status, words):
    reply = client.get(url)
    assert reply.status_code == status and words in reply.get_json()["error"], reply.get_json()


def test_a_klotski_space_matches_its_game_moves_both_ways():
    """On a small board every move can be undone: each edge has its reverse, and
    neighbours' distances differ by at most one."""
    domain = make_domain("klotski")
    space = state_space(domain, domain.parse("AAB/AAC/.DE/..."))
    edges = set(space.edges)
    assert all((j, i) in edges for i, j in edges)
    assert all(
        abs(space.distances[i] - space.distances[j]) <= 1
        for i, j in edges
        if space.distances[i] is not None and space.distances[j] is not None
    )
    assert space.distances[0] == domain.solve(domain.parse(space.boards[0])).length


def graph_and_visits(client, query: str, algorithm: str) -> tuple[dict, dict]:
    graph = client.get(f"/api/graph/jugs?{query}")
    visits = client.get(f"/api/visits/jugs?{query}&algorithm={algorithm}")
    assert graph.status_code == 200 and visits.status_code == 200, visits.get_json()
    return graph.get_json(), visits.get_json()


def from_start(graph: dict) -> list[int | None]:
    """Pours from the start to each position, by a breadth-first pass of our own."""
    out: dict[int, list[int]] = {}
    for i, j in graph["edges"]:
        out.setdefault(i, []).append(j)
    depth: list[int | None] = [None] * len(graph["nodes"])
    depth[0], queue = 0, deque([0])
    while queue:
        here = queue.popleft()
        for there in out.get(here, []):
            if depth[there] is None:
                depth[there] = depth[here] + 1
                queue.append(there)
    return depth


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "dfs", "idastar", "seed-bfs"])
def test_visits_are_the_searchs_own_expansions_and_its_path_follows_the_graph(client, algorithm):
    query, goal = "board=0/6,0/7,13/13&goal=*,*,3", "*,*,3"
    graph, visits = graph_and_visits(client, query, algorithm)
    report = solve_board("jugs", "0/6,0/7,13/13", goal=goal, algorithm=algorithm)
    count = len(graph["nodes"])
    assert visits["nodes"] == report["stats"]["nodes"] and visits["complete"]
    assert all(0 <= i < count for i in visits["order"])
    assert len(visits["order"]) == len(visits["depth"]) == len(visits["added"])
    if algorithm != "idastar":  # IDA* expands a position again in each iteration
        assert len(visits["order"]) == visits["nodes"]
        assert len(set(visits["order"])) == len(visits["order"])
    path = visits["path"]
    assert path[0] == 0 and graph["nodes"][path[-1]]["distance"] == 0
    assert len(path) - 1 == visits["length"] == report["length"]
    edges = {tuple(edge) for edge in graph["edges"]}
    assert all((a, b) in edges for a, b in itertools.pairwise(path))
    if algorithm in ("bfs", "seed-bfs"):
        # layer by layer: each expansion's depth is its distance from the start
        depth = from_start(graph)
        assert visits["depth"] == [depth[i] for i in visits["order"]]
        assert visits["depth"] == sorted(visits["depth"])
        # every position found is counted once, where it was found
        assert sum(visits["added"]) <= count - 1


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("/api/visits/jugs?board=0/3,0/5,8/8&algorithm=bidirectional", 400, "undone"),
        ("/api/visits/jugs?board=0/3,0/5,8/8&algorithm=seed-astar", 400, "seed"),
        ("/api/visits/jugs?board=0/3,0/5,8/8&algorithm=dijkstra", 400, "dijkstra"),
        ("/api/visits/jugs?board=0/3,0/5,8/8", 400, "unknown algorithm"),
        (
            "/api/visits/npuzzle?board=1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15&algorithm=bfs",
            413,
            "100,000",
        ),
    ],
)
def test_visits_that_cannot_be_given_are_refused_in_words(client, url, status, words):
    reply = client.get(url)
    assert reply.status_code == status and words in reply.get_json()["error"], reply.get_json()
