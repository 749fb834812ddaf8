"""One accuracy rule (:func:`solver.core.coach.accuracy`): the server answers with it and
the page's copy (``static/js/score.js``) gives the same number on every pair, ties
included (shortest 5 in 8 moves is 62.5%: 63 on both, where the server once said 62)."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from solver import catalogue
from solver.core.coach import accuracy
from solver.engine import solve_board

SCORE_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "score.js"
MOST = 200


def test_accuracy_is_a_whole_percentage_rounded_half_up_and_never_over_100():
    assert [accuracy(5, 8), accuracy(1, 8), accuracy(3, 8), accuracy(2, 3)] == [63, 13, 38, 67]
    assert accuracy(7, 7) == 100 and accuracy(9, 7) == 100  # a bound above the moves made
    with pytest.raises(ValueError):
        accuracy(1, 0)


def test_the_pages_accuracy_equals_the_servers_on_every_pair_up_to_200():
    node = shutil.which("node")
    assert node, "node is not installed (make node_modules/.installed needs it too)"
    script = (
        f"const {{ accuracy }} = await import({json.dumps(SCORE_JS.as_uri())});\n"
        "const out = [];\n"
        f"for (let length = 1; length <= {MOST}; length++)\n"
        "  for (let shortest = 1; shortest <= length; shortest++) out.push(accuracy(shortest, length));\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    pages = json.loads(done.stdout)
    servers = [
        accuracy(shortest, length)
        for length in range(1, MOST + 1)
        for shortest in range(1, length + 1)
    ]
    assert len(pages) == len(servers) == MOST * (MOST + 1) // 2
    differ = [(i, p, s) for i, (p, s) in enumerate(zip(pages, servers, strict=True)) if p != s]
    assert differ == []


def _tie(shortest: int) -> int | None:
    """A length, ``shortest`` plus an even detour, whose accuracy is a half that rounding
    to even would take down (12.5% -> 12): where the two roundings differ."""
    for length in range(shortest + 2, 4 * shortest + 100, 2):
        if (200 * shortest) % length == 0 and round(100 * shortest / length) != accuracy(
            shortest, length
        ):
            return length
    return None


def _detoured(game, board, options, length):
    """The solver's shortest line from ``board``, made ``length`` long by stepping to a
    position and back (both legal moves) where the line allows it."""
    domain = game.make_domain(**game.check_options(options))
    given = {k: v for k, v in options.items() if v is not None}
    states = solve_board(game.name, board, **given)["states"]
    for i, here in enumerate(states):
        state = domain.parse(here)
        for _move, there in domain.moves(state):
            if any(domain.format(back) == here for _m, back in domain.moves(there)):
                detour = [domain.format(there), here] * ((length - len(states) + 1) // 2)
                return states[: i + 1] + detour + states[i + 1 :]
    return None


def test_the_servers_result_rounds_a_half_up_as_the_page_does(sqlite_app):
    """A shipped level (its proven shortest) solved with a detour whose accuracy is a half:
    the result's ``accuracy`` is the one rule's, and it is not what rounding to even gave."""
    client = sqlite_app.test_client()
    for name, game in catalogue.games().items():
        for level in game.levels():
            options = game.full_options(level.get("options"))
            shortest = level["moves"][game.progress_value(options)]
            length = _tie(shortest)
            line = length and _detoured(game, level["board"], options, length)
            if not line:
                continue
            reply = client.post(
                "/api/results",
                json={
                    "game": name,
                    "board": level["board"],
                    "options": options,
                    "states": line,
                    "seconds": 60,
                    "assisted": False,
                },
            )
            assert reply.status_code == 201, reply.get_json()
            result = reply.get_json()
            assert (result["length"], result["shortest"]) == (length, shortest)
            assert result["accuracy"] == accuracy(shortest, length)
            assert result["accuracy"] != round(100 * shortest / length)
            return
    pytest.fail("no shipped level allows a line whose accuracy is a half")
