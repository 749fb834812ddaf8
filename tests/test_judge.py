"""The judged-move core (:func:`solver.core.judge.judge_move`) against water jugs' rules
written out for the tests (``helpers.jugs``): a pour may leave the distance as it was,
so "one closer" is a real test there, where a sliding puzzle's moves always change it."""

from __future__ import annotations

from collections import deque

from helpers.jugs import capacities_of, contents_of, goal_met, jug_pours

from solver import catalogue
from solver.core.judge import judge_move
from solver.engine import warm_judging

BOARD = "0/3,0/5,8/8"  # the default puzzle: share the water between the two largest
GOAL = goal_met("*,4,4")


def reference_distance(contents, neighbours) -> int | None:
    """Pours from ``contents`` to the goal, by a plain breadth-first search."""
    seen, queue = {contents: 0}, deque([contents])
    while queue:
        here = queue.popleft()
        if GOAL(here):
            return seen[here]
        for nxt in neighbours(here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return None


def test_every_pour_is_judged_closer_exactly_when_the_reference_says_so():
    domain = catalogue.get("jugs").make_domain()
    capacities = capacities_of(BOARD)
    pours = jug_pours(capacities)

    def text(contents):
        return ",".join(f"{c}/{cap}" for c, cap in zip(contents, capacities, strict=True))

    seen, verdicts = {contents_of(BOARD)}, set()
    frontier = [contents_of(BOARD)]
    while frontier:  # every position the puzzle reaches, every pour from it
        here = frontier.pop()
        was = reference_distance(here, pours)
        for after in pours(here):
            judged = judge_move(domain, text(here), text(after))
            now = reference_distance(after, pours)
            assert judged["legal"] and (judged["before"], judged["after"]) == (was, now)
            closer = was is not None and now == was - 1
            assert judged["closer"] is closer
            verdicts.add(closer)
            if not closer and was:  # a closer pour is offered instead
                better = contents_of(judged["better"])
                assert better in set(pours(here)) and reference_distance(better, pours) == was - 1
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    assert verdicts == {True, False}
    assert judge_move(domain, BOARD, "3/3,5/5,0/8") == {"legal": False}  # two pours away


def test_warming_judges_a_move_of_every_game_that_makes_puzzles(caplog):
    """A served replay process judges one move per game before its first job (the
    first small Klotski judgement loads kernels for up to a second, and every race
    move behind it waited); a game whose warm-up fails is logged, so none may."""
    makers = [
        game
        for game in catalogue.games().values()
        if game.ladder_lengths is not None or game.race_lengths is not None
    ]
    assert len(makers) >= 2
    with caplog.at_level("ERROR"):
        assert warm_judging() == len(makers)
    assert caplog.records == []


def test_only_a_served_replay_lane_warms_its_judging():
    from helpers.apps import make_app

    from webapp.jobs.model import REPLAY_LANE

    served = make_app(PREBUILD_TABLES=True).extensions["jobs"].lanes
    assert served[REPLAY_LANE].settings.warm_judging
    assert not any(
        lane.settings.warm_judging for name, lane in served.items() if name != REPLAY_LANE
    )
    tested = make_app().extensions["jobs"].lanes  # tests start no warm-up
    assert not tested[REPLAY_LANE].settings.warm_judging
