"""Rush Hour: the notation, the rules, the searches and the hardest-start search, each
checked against the reference rules of ``helpers.rushhour`` (plain strings, a
one-cell referee, searches written out again there)."""

import json
import random
import threading

import pytest
from helpers.rushhour import (
    bfs_length,
    cluster_distances,
    is_one_move,
    placements_by_cluster,
    random_board,
    relettered,
    replays,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import catalogue
from solver.cli import main
from solver.core.errors import BoardError
from solver.core.results import BUDGET, CANCELLED, SOLVED, UNSOLVABLE, Budget, Monitor, StopSearch
from solver.engine import analyse_board, solve_board
from solver.originals import ORIGINAL_SEARCHES
from solver.rushhour import RushHour
from solver.rushhour import tables as rush_tables
from solver.rushhour.hardest import hardest_report
from solver.rushhour.moves import pack
from solver.rushhour.placements import VehicleSet, count_placements, search_placements

HARDEST_51 = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"
HARDEST_60 = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"
#: walls, three trucks, two cars: 13,160 placements in 323 clusters (helpers' count)
SMALL_SET = "xoBoooooBCCCAABoDooooxDoEEEoDoxooooo"
DOMAIN = RushHour()


def rows(*lines: str) -> str:
    return "".join(lines)


# -- notation ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "fragment"),
    [
        (HARDEST_51[:-1], "has 35 cells; a Rush Hour board has 36"),
        (HARDEST_51 + "o", "has 37 cells"),
        (HARDEST_51.replace("L", "?", 1), "row 1, column 5: '?' is not a vehicle"),
        (HARDEST_51.replace("A", "o"), "has no red car A"),
        (
            rows("BooooB", "oooooo", "AAoooo", "oooooo", "oooooo", "oooooo"),
            "vehicle B is not a straight line",
        ),
        (
            rows("BBoooo", "Boooooo"[:6], "AAoooo", "oooooo", "oooooo", "oooooo"),
            "vehicle B is not a straight line",
        ),
        (
            rows("Booooo", "oooooo", "AAoooo", "oooooo", "oooooo", "oooooo"),
            "vehicle B is 1 cell(s) long",
        ),
        (
            rows("BBBBoo", "oooooo", "AAoooo", "oooooo", "oooooo", "oooooo"),
            "vehicle B is 4 cell(s) long",
        ),
        (
            rows("oooooo", "oooooo", "oooooo", "AAoooo", "oooooo", "oooooo"),
            "the red car A must lie horizontally on the third row",
        ),
        (
            rows("oooooo", "ooAooo", "ooAooo", "oooooo", "oooooo", "oooooo"),
            "the red car A must lie horizontally",
        ),
        ("", "board is empty"),
    ],
)
def test_bad_boards_are_refused_quoting_the_board(board, fragment):
    with pytest.raises(BoardError) as err:
        DOMAIN.parse(board)
    message = str(err.value)
    assert fragment in message
    if board:
        assert repr(board[:40] + ("…" if len(board) > 40 else "")) in message


def test_a_board_that_is_not_text_is_one_clear_error():
    with pytest.raises(BoardError, match="board must be text"):
        DOMAIN.parse(["GBBoLo"])


def test_format_keeps_letters_and_writes_o_for_empty():
    state = DOMAIN.parse(HARDEST_60)
    assert DOMAIN.format(state) == HARDEST_60
    dotted = HARDEST_60.replace("o", ".")
    assert DOMAIN.format(DOMAIN.parse(dotted)) == HARDEST_60
    assert DOMAIN.parse(dotted) == state


def test_the_key_counts_letters_never_and_layouts_always():
    """Relettered boards are one position; boards of different layouts never share a key."""
    other = HARDEST_51.translate(str.maketrans("BCDEFGHIJKLM", "MLKJIHGFEDCB"))
    assert other != HARDEST_51
    assert DOMAIN.key(DOMAIN.parse(other)) == DOMAIN.key(DOMAIN.parse(HARDEST_51))
    a = DOMAIN.parse(rows("oooooo", "oooooo", "AAoBBo", "oooooo", "oooooo", "oooooo"))
    b = DOMAIN.parse(rows("oooooo", "oooooo", "AAoooo", "oooooo", "oooBBo", "oooooo"))
    assert a.offsets == b.offsets and DOMAIN.key(a) != DOMAIN.key(b)


# -- rules ---------------------------------------------------------------------------


def test_moves_match_the_reference_rules_and_read_well():
    state = DOMAIN.parse(HARDEST_51)
    ours = sorted(DOMAIN.format(nxt) for _, nxt in DOMAIN.moves(state))
    from helpers.rushhour import neighbours

    assert ours == sorted(neighbours(HARDEST_51))
    assert sorted(DOMAIN.describe(m) for m, _ in DOMAIN.moves(state)) == [
        "B right",
        "F right",
        "M up",
    ]
    wide = DOMAIN.parse(rows("oooooo", "oooooo", "AAoooo", "BBBooo", "oooooo", "oooooo"))
    texts = {DOMAIN.describe(m): DOMAIN.move_info(m) for m, _ in DOMAIN.moves(wide)}
    assert texts["B right 3"] == {
        "piece": "B",
        "from": [3, 0],
        "to": [3, 3],
        "path": [[3, 1], [3, 2], [3, 3]],
        "steps": 3,
        "text": "B right 3",
    }
    assert "A right 4" in texts and "B right" in texts and len(texts) == 7


def test_solved_blocked_and_hopeless_boards():
    solved = rows("oooooo", "oooooo", "ooooAA", "oooooo", "oooooo", "oooooo")
    assert solve_board("rushhour", solved)["length"] == 0
    wall = rows("oooooo", "oooooo", "AAooxo", "oooooo", "oooooo", "oooooo")
    car = rows("oooooo", "oooooo", "AAoBBo", "oooooo", "oooooo", "oooooo")
    for board in (wall, car):
        report = solve_board("rushhour", board)
        assert report["status"] == UNSOLVABLE and report["optimal"]
        assert "red car" in report["message"]
    # no quick proof: a truck stuck across the red car's row between two walls
    stuck = rows("ooxooo", "ooBooo", "AABooo", "ooBooo", "ooxooo", "oooooo")
    assert DOMAIN.quick_solvable(DOMAIN.parse(stuck)) is None
    report = solve_board("rushhour", stuck)
    assert report["status"] == UNSOLVABLE and "reachable positions searched" in report["message"]
    assert bfs_length(stuck) is None


def test_the_heuristic_never_overestimates():
    rnd = random.Random(5)
    for _ in range(30):
        board = random_board(rnd, rnd.randint(1, 7), rnd.randint(0, 2))
        expected = bfs_length(board)
        if expected is not None:
            assert DOMAIN.heuristic(DOMAIN.parse(board)) <= expected


# -- searches ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), vehicles=st.integers(1, 8), walls=st.integers(0, 2))
def test_random_positions_round_trip_and_every_search_agrees(seed, vehicles, walls):
    board = random_board(random.Random(seed), vehicles, walls)
    state = DOMAIN.parse(board)
    assert DOMAIN.format(state) == board and DOMAIN.parse(board) == state
    expected = bfs_length(board)
    for algorithm in (None, "bfs", "bidirectional", "astar"):
        report = solve_board("rushhour", board, algorithm=algorithm)
        if expected is None:
            assert report["status"] == UNSOLVABLE, algorithm
            continue
        assert report["status"] == SOLVED and report["optimal"], algorithm
        assert report["length"] == expected, algorithm
        assert report["states"][0] == board and replays(report["states"]), algorithm


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), vehicles=st.integers(2, 9), scramble=st.integers(0, 4))
def test_near_the_exit_ida_star_agrees_too(seed, vehicles, scramble):
    """Walked back a few moves from a solved position, so IDA* (no memory of positions)
    finishes: all five searches give the reference length and legal lines."""
    rnd = random.Random(seed)
    board = random_board(rnd, vehicles)
    from helpers.rushhour import moves, solved

    while not solved(board):  # drive the red car out, or give up on this layout
        red_moves = [after for letter, steps, after in moves(board) if letter == "A" and steps > 0]
        if not red_moves:
            board = random_board(rnd, vehicles)
            continue
        board = red_moves[-1]
    for _ in range(scramble):
        board = rnd.choice(moves(board))[2]
    expected = bfs_length(board)
    assert expected is not None and expected <= scramble
    for algorithm in (None, "bfs", "bidirectional", "astar", "idastar", *ORIGINAL_SEARCHES[:1]):
        report = solve_board("rushhour", board, algorithm=algorithm)
        assert report["status"] == SOLVED and report["length"] == expected, algorithm
        assert report["optimal"] and replays(report["states"]), algorithm


@pytest.mark.parametrize(
    "board",
    [
        SMALL_SET,
        rows("ooBooo", "ooBCoo", "AAoCoo", "oooDDo", "EEoooF", "oooooF"),
        rows("xoBoox", "ooBoCo", "AAooCo", "oDDDoo", "ooxEEo", "oooooo"),
    ],
)
@pytest.mark.parametrize("compiled", [False, True])
def test_every_distance_of_a_cluster_matches_a_plain_search(board, compiled, monkeypatch):
    """The table's distance for every position equals the reference's, in Python and
    compiled (a cluster past a tiny Python limit goes compiled)."""
    if compiled:
        monkeypatch.setattr(rush_tables, "PYTHON_MAX_POSITIONS", 1)
    members, dist = cluster_distances(board)
    state = DOMAIN.parse(board)
    table = rush_tables.build_table(state.layout, pack(state.offsets), Monitor())
    assert type(table.distance).__name__ == ("PackedDistances" if compiled else "dict")
    assert len(table) == len(members)
    for pos in members:
        key = pack(DOMAIN.parse(pos).offsets)
        assert table.distance[key] == dist.get(pos, -1)


def test_a_compiled_solve_is_the_reference_length(monkeypatch):
    monkeypatch.setattr(rush_tables, "PYTHON_MAX_POSITIONS", 1)
    rush_tables.forget_tables()
    report = solve_board("rushhour", HARDEST_60)
    assert report["length"] == 60 and report["optimal"] and replays(report["states"])


def test_the_coach_reads_the_cluster_table():
    """Distance, best move and every move rated, all from the cluster's table, each
    re-derived by the reference's own search of the whole cluster."""
    rush_tables.forget_tables()
    payload = analyse_board("rushhour", HARDEST_51)
    assert payload["distance"] == 51 and payload["optimal"]
    nxt = payload["next_board"]
    assert is_one_move(HARDEST_51, nxt)
    _members, dist = cluster_distances(HARDEST_51)
    assert dist[nxt] == 50
    assert payload["moves_rated_complete"]
    rated = {r["board"]: r["distance"] for r in payload["moves_rated"]}
    assert rated == {pos: dist[pos] for pos in rated} and len(rated) == len(
        DOMAIN.moves(DOMAIN.parse(HARDEST_51))
    )
    assert DOMAIN.distance_by_table(DOMAIN.parse(HARDEST_51)) == 51


def test_an_analysis_out_of_budget_says_so_and_a_cancel_stops_it():
    rush_tables.forget_tables()
    board = rows("oooooo", "ooBooo", "AABooo", "oooooo", "oooooo", "oooooo")
    state = DOMAIN.parse(board)
    cancel = threading.Event()
    cancel.set()
    assert DOMAIN.analyse(state, cancel=cancel).solvable is None
    result = DOMAIN.solve(DOMAIN.parse(HARDEST_51), budget=Budget(max_nodes=10))
    assert result.status == BUDGET


# -- the hardest start ---------------------------------------------------------------


def test_hardest_start_of_a_cluster_matches_the_reference():
    found = hardest_report(SMALL_SET.replace("D", "o").replace("EEEo", "ooEE"))
    board = found["board"]
    members, dist = cluster_distances(board)
    far = max(dist.values())
    assert found["positions"] == len(members)
    assert found["group_hardest"]["distance"] == far == found["hardest"]["distance"]
    assert dist[found["hardest"]["board"]] == far
    assert found["group_hardest"]["ties"] == sum(1 for d in dist.values() if d == far)
    assert found["distance"] == dist[board]


def test_every_placement_of_a_small_set_matches_a_plain_enumeration():
    groups, placements = placements_by_cluster(SMALL_SET)
    lines = []
    found = hardest_report(SMALL_SET, placements=True, report=lines.append)
    assert found["placements"] == placements == found["grouped_positions"]
    assert count_placements(VehicleSet.of(DOMAIN.parse(SMALL_SET).layout)) == placements
    assert found["groups"] == len(groups)
    solvable = [d for _size, d in groups if d is not None]
    assert found["solvable_groups"] == len(solvable)
    assert found["hardest"]["distance"] == max(solvable)
    by_distance = {}
    for d in solvable:
        by_distance[str(d)] = by_distance.get(str(d), 0) + 1
    assert found["by_distance"] == by_distance
    best = found["hardest"]
    members, dist = cluster_distances(best["board"])
    assert len(members) == best["positions"] and max(dist.values()) == best["distance"]
    assert bfs_length(best["board"]) == best["distance"]
    assert [h["distance"] for h in found["top"]] == sorted(solvable, reverse=True)[:10]
    assert lines[-1].startswith("all 13,160 placements searched: 323 clusters, 186 solvable")


def test_a_placement_search_samples_clusters_of_every_distance():
    """``per_distance`` keeps up to that many clusters of each distance (what a level
    pack is drawn from): each its cluster's hardest start, the clusters all different,
    as many as the plain enumeration finds of that distance, and the same every run."""
    groups, _placements = placements_by_cluster(SMALL_SET)
    layout = DOMAIN.parse(SMALL_SET).layout
    found = search_placements(layout, per_distance=2)
    wanted = {}
    for _size, d in groups:
        if d is not None:
            wanted[d] = min(wanted.get(d, 0) + 1, 2)
    assert {d: len(picks) for d, picks in found.samples.items()} == wanted
    clusters = set()
    for d, picks in found.samples.items():
        for pick in picks:
            members, dist = cluster_distances(pick.board)
            assert dist[pick.board] == max(dist.values()) == pick.distance == d
            assert len(members) == pick.positions
            assert sum(v == d for v in dist.values()) == pick.ties
            clusters.add(frozenset(relettered(m) for m in members))
    assert len(clusters) == sum(wanted.values())
    assert search_placements(layout, per_distance=2).samples == found.samples


def test_a_placement_search_reports_how_far_it_has_walked(monkeypatch):
    """Progress is the share of all placements before the walk's current one: it only
    grows, and the last line sums the search up."""
    from solver.rushhour import placements

    monkeypatch.setattr(placements, "REPORT_EVERY", 0.0)
    monkeypatch.setattr(placements, "SLICE", 200)
    lines = []
    search_placements(DOMAIN.parse(SMALL_SET).layout, report=lines.append)
    shares = [float(line.split("%")[0]) for line in lines[:-1]]
    assert len(shares) > 5 and shares == sorted(shares) and shares[0] >= 0 and shares[-1] <= 100
    assert all("of 13,160 placements walked" in line for line in lines[:-1])
    assert lines[-1].startswith("all 13,160 placements searched")


def test_a_placement_search_honours_its_budget_and_cancel():
    layout = DOMAIN.parse(HARDEST_51).layout
    with pytest.raises(StopSearch) as stop:
        search_placements(layout, Monitor(Budget(max_seconds=0.2)))
    assert stop.value.status == BUDGET
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(StopSearch) as stop:
        search_placements(layout, Monitor(cancel=cancel))
    assert stop.value.status == CANCELLED


def test_a_set_with_too_many_placements_is_refused(monkeypatch):
    from solver.rushhour import placements

    monkeypatch.setattr(placements, "MAX_PLACEMENTS", 1000)
    with pytest.raises(BoardError, match="13,160 placements"):
        search_placements(DOMAIN.parse(SMALL_SET).layout)


# -- the command line and the declaration --------------------------------------------


def test_cli_solve_json_is_proven_and_replays(capsys):
    assert main(["solve", "rushhour", HARDEST_51, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["puzzle"] == "rushhour" and report["board"] == HARDEST_51
    assert report["solvable"] and report["optimal"] and report["length"] == 51
    assert len(report["moves"]) == 51 and replays(report["states"])


def test_cli_bad_board_is_one_line(capsys):
    assert main(["solve", "rushhour", "GBBoLo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'GBBoLo' has 6 cells" in err


def test_cli_hardest_prints_the_cluster(capsys):
    assert main(["hardest", "rushhour", HARDEST_51, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "51 moves; its group has 4,780 positions" in out


def test_cli_hardest_placements_json(capsys):
    assert main(["hardest", "rushhour", SMALL_SET, "--placements", "--json", "--no-progress"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["groups"] == 323 and found["hardest"]["distance"] == 10


def test_the_declaration():
    game = catalogue.get("rushhour")
    assert game.options == () and game.default_board == HARDEST_51
    assert game.size_label(HARDEST_60, {}) == "12 vehicles"
    with pytest.raises(BoardError):
        game.check_size("o" * 37)
