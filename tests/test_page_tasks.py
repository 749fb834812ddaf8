"""The typed contract with the solver processes: one request per page task, its answer
typed, an :class:`~webapp.jobs.contract.Outcome` for how it went, and one mapping of a
refusal to its HTTP status and its socket ``error``.

:func:`~webapp.jobs.tasks.page_search` (what a solver process runs) is called here in
this process; the answers are checked against the jugs' reference rules
(``helpers.jugs``) and a plain breadth-first search, the mapping against each outcome.
"""

from __future__ import annotations

import gzip
import json
import pickle

import pytest
from helpers.jugs import capacities_of, contents_of, goal_met, jug_pours
from helpers.search import bfs_path

from solver.core.errors import BoardError
from solver.core.replay import Replay
from solver.core.space import SpaceTooLarge
from webapp.jobs.contract import (
    TASKS,
    CheckBoard,
    Checked,
    Failure,
    GenerateLevel,
    GraphSpace,
    Judged,
    JudgeMove,
    Outcome,
    Packed,
    ReplayLine,
    VisitOrder,
    from_wire,
    task_from_wire,
    to_wire,
)
from webapp.jobs.model import TaskRefused
from webapp.jobs.outcomes import answer_of, refusal, socket_error
from webapp.jobs.tasks import page_search
from webapp.puzzle_request import RequestRefused

BOARD = "0/3,0/5,8/8"
OPTIONS = {"goal": "*,4,4"}
GOAL = goal_met(OPTIONS["goal"])


def _text(contents) -> str:
    return ",".join(f"{c}/{cap}" for c, cap in zip(contents, capacities_of(BOARD), strict=True))


def _shortest_line() -> list[str]:
    path = bfs_path(contents_of(BOARD), jug_pours(capacities_of(BOARD)), GOAL)
    return [_text(contents) for contents in path]


def test_every_kind_has_one_request_type_and_a_typed_answer():
    assert set(TASKS) == {"generate", "check", "graph", "visits", "replay", "judge"}
    line = _shortest_line()
    first, second = line[0], line[1]
    answers = {
        "check": page_search(CheckBoard("jugs", BOARD, OPTIONS), 10.0),
        "graph": page_search(GraphSpace("jugs", BOARD, OPTIONS), 10.0),
        "visits": page_search(VisitOrder("jugs", BOARD, OPTIONS, "bfs"), 10.0),
        "replay": page_search(ReplayLine("jugs", BOARD, OPTIONS, tuple(line), None), 10.0),
        "judge": page_search(JudgeMove("jugs", OPTIONS, first, second), 10.0),
        "generate": page_search(GenerateLevel("npuzzle", {"size": 3}, 7, False), 10.0),
    }
    assert {outcome for outcome, _ in answers.values()} == {Outcome.DONE}
    checked = answers["check"][1]
    assert checked == Checked(True, len(line) - 1, True, checked.message)
    graph = answers["graph"][1]
    assert isinstance(graph, Packed)
    assert len(json.loads(gzip.decompress(graph.gzip))["nodes"]) == graph.positions
    assert answers["replay"][1] == Replay(tuple(line), len(line) - 1)
    judged = answers["judge"][1]
    assert isinstance(judged, Judged) and judged.closer and judged.after == len(line) - 2
    assert {"board", "options", "min_moves", "optimal"} <= set(answers["generate"][1])


def test_a_bad_request_is_refused_an_illegal_move_too_and_words_stay_data():
    outcome, failure = page_search(CheckBoard("jugs", "0/3,x/5", OPTIONS), 5.0)
    assert outcome is Outcome.REFUSED and failure.template and failure.message
    outcome, failure = page_search(JudgeMove("jugs", OPTIONS, BOARD, "3/3,5/5,0/8"), 5.0)
    assert outcome is Outcome.REFUSED
    assert failure.template == "that is not one legal move from %(board)s"
    assert failure.params == {"board": repr(BOARD)}
    # what crosses the process boundary is plain data: pickled as the pipe does
    assert pickle.loads(pickle.dumps((outcome, failure))) == (outcome, failure)


def test_each_outcome_raises_what_maps_to_its_status_and_socket_error():
    words = Failure("row 1 is bad", "row %(row)s is bad", {"row": 1})
    cases = [
        ((Outcome.REFUSED, words), BoardError, 400),
        ((Outcome.TOO_LARGE, words), SpaceTooLarge, 413),
        ((Outcome.FAILED, Failure("over its budget")), TaskRefused, 503),
        (None, TaskRefused, 503),  # the task never answered
    ]
    for reported, raised, status in cases:
        with pytest.raises(raised) as caught:
            answer_of(reported)
        assert type(caught.value) is raised
        refused = refusal(caught.value)
        assert refused.status == status
        assert refused.headers == ({"Retry-After": "5"} if status == 503 else {})
        error = socket_error(caught.value, "race_move")
        assert error["event"] == "race_move" and error["message"] == str(refused)
        if raised is not TaskRefused:
            assert (refused.template, error["params"]) == (words.template, {"row": 1})
    assert answer_of((Outcome.DONE, words)) is words
    already = RequestRefused("no such race", 404)
    assert refusal(already) is already


def test_the_contract_crosses_the_clusters_json_and_comes_back_the_same():
    tasks = [
        GenerateLevel("npuzzle", {"size": 3}, 7, True),
        CheckBoard("jugs", BOARD, OPTIONS),
        GraphSpace("jugs", BOARD, OPTIONS),
        VisitOrder("jugs", BOARD, OPTIONS, "astar"),
        ReplayLine("jugs", BOARD, OPTIONS, ("a", "b"), 7),
        JudgeMove("jugs", OPTIONS, BOARD, "3/3,0/5,5/8"),
    ]
    for task in tasks:
        assert task_from_wire(task.kind, json.loads(json.dumps(to_wire(task)))) == task
    answers = {
        "graph": Packed(gzip.compress(b'{"nodes":[]}'), 0),
        "replay": Replay(("a", "b"), 1),
        "check": Checked(None, None, False, "gave up"),
        "judge": Judged("b", "pour", 3, 2, True, False),
        "generate": {"board": "1 2 3 4 5 6 7 8 0", "options": {}, "min_moves": 0},
    }
    for kind, answer in answers.items():
        wire = json.loads(json.dumps(to_wire(answer)))
        assert from_wire(kind, Outcome.DONE.value, wire) == (Outcome.DONE, answer)
    failure = Failure("no", "no %(x)s", {"x": "y"})
    wire = json.loads(json.dumps(to_wire(failure)))
    assert from_wire("visits", Outcome.REFUSED.value, wire) == (Outcome.REFUSED, failure)
