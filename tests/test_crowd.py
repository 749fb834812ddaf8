"""Twelve players behind one address each start a hard 15-puzzle solve; a thirteenth
player on the same address asks for a two-colour water sort. On one production
server (``python -m webapp``, default settings, tables warmed) that trivial solve is
answered within a second: the quick lane serves the newest try first and moves
tries that waited too long to the long lane, where the address's players share
its turns. The cluster runs the same scenario in ``test_cluster.py``.
"""

import pytest

from harness.server import start_server
from loadtest.crowd import run_crowd

# timed: runs alone (make test), so the parallel half of the suite cannot slow it
pytestmark = pytest.mark.serial


def test_a_trivial_solve_is_answered_within_a_second_behind_twelve_hard_ones():
    process, url = start_server({"ARCADE_LOG_LEVEL": "WARNING"})
    try:
        report = run_crowd(url)
    finally:
        process.terminate()
        process.wait(30)
    assert report["event"] == "solution" and report["length"] == 3, report
    assert report["seconds"] < 1.0, report
