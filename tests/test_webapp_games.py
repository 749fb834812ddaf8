"""The web app is a middle end: it learns every game from the catalogue and names none.

Only the load test (a client that plays chosen positions, like these tests) may
name games; every other module of ``webapp/`` must work for any declared game.
``files_naming`` lives in ``helpers.sources`` (its own tests in ``test_game_boundaries``).
"""

from pathlib import Path

import pytest
from helpers.sources import files_naming

from solver import catalogue

#: the load generator plays chosen cheap positions and a slow solve to cancel, and its
#: floods ask for hard solves and generated levels
CLIENTS = {"webapp/loadtest.py", "webapp/floods.py"}


@pytest.mark.parametrize("game", list(catalogue.games()))
def test_no_web_app_module_names_a_game(game):
    naming = {name for name in files_naming(game) if Path(name).parts[0] == "webapp"}
    assert naming <= CLIENTS, f"{game} is named in {sorted(naming - CLIENTS)}"
