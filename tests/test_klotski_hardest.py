"""The hardest-start search: every answer re-derived by plain searches written here.

The oracle is the reference rules of ``helpers.klotski``: labelled board strings, a
one-cell referee, positions deduplicated by their shape pattern (interchangeable
pieces), a whole group measured by breadth-first search from its solved positions.
"""

import json

import pytest
from helpers.klotski import grid, group_distances, moves, shapes_of

from solver.cli import main
from solver.klotski.baseline import StringKlotski
from solver.klotski.hardest import hardest_report

METRICS = ("piece", "straight", "step")
CLASSIC = "BAAC/BAAC/DEEF/DGHF/I..J"


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("board", ["AAB/AAC/DE./F.G", "BAAC/BAAC/D..E/FGHE", "AA../AABB/CDEE"])
def test_group_hardest_start_matches_a_plain_search_of_the_whole_group(board, metric):
    found = hardest_report(board, metric)
    dist, xlat = group_distances(board, metric)
    far = max(dist.values())
    best = found["hardest"]
    assert best["distance"] == far and found["distance"] == dist[board.translate(xlat)]
    assert dist[best["board"].translate(xlat)] == far
    assert best["ties"] == sum(1 for d in dist.values() if d == far)
    assert found["positions"] == len(dist)


def test_classic_group_hardest_start_resolved_independently():
    """The classic's group is too big for the slow oracle: its hardest start is
    re-solved by the bench's string baseline (no code shared with the rules)."""
    found = hardest_report(CLASSIC, "piece")
    assert found["distance"] == 81 and found["positions"] == 25955
    best = found["hardest"]["board"]
    length, _nodes = StringKlotski(best, "A", 3, 1, "piece").solve()
    assert length == found["hardest"]["distance"] == 81 + found["beats_by"]
    assert found["beats_by"] > 0


def plain_placements(board):
    """Every placement of ``board``'s pieces, one labelled board per shape pattern."""
    labels, shape, xlat = shapes_of(board)
    h, w = len(grid(board)), len(grid(board)[0])
    out = {}

    def place(cells, i):
        if i == len(labels):
            text = "/".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))
            out.setdefault(text.translate(xlat), text)
            return
        ph, pw = shape[labels[i]]
        for r in range(h - ph + 1):
            for c in range(w - pw + 1):
                spots = [(r + a) * w + c + b for a in range(ph) for b in range(pw)]
                if all(cells[s] == "." for s in spots):
                    for s in spots:
                        cells[s] = labels[i]
                    place(cells, i + 1)
                    for s in spots:
                        cells[s] = "."

    place(["."] * (h * w), 0)
    return out


@pytest.mark.parametrize("metric", METRICS)
def test_piece_set_hardest_start_matches_plain_enumeration(metric):
    board = "AAB/AAC/DE./F.G"
    found = hardest_report(board, metric, placements=True)
    everything = plain_placements(board)
    groups, hardest, seen = 0, [], set()
    for key, pos in everything.items():
        if key in seen:
            continue
        groups += 1
        dist, _ = group_distances(pos, metric)
        labels, _shape, xlat = shapes_of(pos)
        members, todo = {key}, [pos]  # the group, solvable or not
        while todo:
            p = todo.pop()
            for q in moves(p, labels, "step"):
                if q.translate(xlat) not in members:
                    members.add(q.translate(xlat))
                    todo.append(q)
        seen |= members
        if dist:
            hardest.append(max(dist.values()))
    assert found["placements"] == len(everything)
    assert found["groups"] == groups and found["solvable_groups"] == len(hardest)
    assert found["hardest"]["distance"] == max(hardest)
    assert (
        sorted((h["distance"] for h in found["top"]), reverse=True)
        == sorted(hardest, reverse=True)[: len(found["top"])]
    )
    dist, xlat = group_distances(found["hardest"]["board"], metric)
    assert dist[found["hardest"]["board"].translate(xlat)] == max(hardest)


def test_cli_hardest_prints_json_and_progress(capsys):
    assert main(["hardest", "klotski", "AAB/AAC/DE./F.G", "--placements", "--json"]) == 0
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert report["hardest"]["distance"] >= report["distance"]
    assert report["beats_by"] == report["hardest"]["distance"] - report["distance"]
    assert f"{report['placements']} placements" in out.err.replace(",", "")


def test_an_unsolvable_group_has_no_hardest_start(capsys):
    board = "BAA./BAAC/DEEC/F..G"
    assert group_distances(board, "piece")[0] == {}
    assert main(["hardest", "klotski", board]) == 1
    assert "unsolvable" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["hardest", "npuzzle", "1 2 3 4 5 6 7 0 8"], "no hardest-start search"),
        (["hardest", "klotski", "AAB/AAC/DE./F.GG"], "row 4 has 4 cells"),
        (["hardest", "klotski", CLASSIC, "--metric", "diagonal"], "invalid choice"),
    ],
)
def test_cli_hardest_bad_input_exits_2_with_one_line(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0]
