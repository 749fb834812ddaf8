"""Rush Hour against Michael Fogleman's database (tests/data/rushhour_fogleman.txt, its
sources named there): for every row, ``solve`` gives the published optimal length,
proven, as a line the reference rules replay, and ``hardest`` counts the published
cluster size (every position reachable, the solved ones and the board included) and
finds no start of the cluster farther than the board itself."""

from pathlib import Path

import pytest
from helpers.rushhour import bfs_length, cluster, replays

from solver.engine import solve_board
from solver.rushhour.hardest import hardest_report

DATA = Path(__file__).resolve().parent / "data" / "rushhour_fogleman.txt"
ROWS = [
    (int(moves), board, int(size))
    for moves, board, size in (
        line.split() for line in DATA.read_text().splitlines() if line[:1].isdigit()
    )
]


def test_the_sample_spans_the_lengths_and_has_walls():
    lengths = {moves for moves, _board, _size in ROWS}
    assert min(lengths) == 10 and max(lengths) == 60 and len(ROWS) >= 40
    assert sum("x" in board for _moves, board, _size in ROWS) >= 15
    assert any(size > 100_000 for _moves, _board, size in ROWS)  # the compiled search


@pytest.mark.parametrize(("moves", "board", "size"), ROWS, ids=[r[1] for r in ROWS])
def test_solve_and_hardest_give_the_published_figures(moves, board, size):
    report = solve_board("rushhour", board)
    assert report["status"] == "solved" and report["optimal"] and report["length"] == moves
    assert report["states"][0] == board.replace(".", "o") and replays(report["states"])
    found = hardest_report(board)
    assert found["positions"] == size
    assert found["distance"] == moves == found["group_hardest"]["distance"]


@pytest.mark.parametrize("row", [0, 1, 14], ids=lambda i: ROWS[i][1])
def test_the_reference_rules_agree_on_the_hardest_rows(row):
    """The 60-, 58- and 51-move rows searched once more by the plain string search."""
    moves, board, size = ROWS[row]
    assert bfs_length(board) == moves and len(cluster(board)) == size
