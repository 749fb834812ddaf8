"""Help follows the board (issue 46): the server's own help unranks an open ranked attempt
when its cookie asks about the attempt's game, when its address asks about its board,
and, for a ladder puzzle or a shipped level, when anyone anywhere does.

The bot of the attack opened a ladder puzzle with one cookie, had a second,
cookie-less socket solve exactly that board, and submitted: 1500 -> 2630 in 1.3 s, every
result ranked. Here that bot, and its variants (another address, ``/api/graph``, a
second web process sharing the database), get no ranked unassisted result. The check
on the analyse path reads memory only (:class:`webapp.players.helps.HelpLedger`).
"""

from __future__ import annotations

import time

import pytest
from helpers.players import build_app, daily_line
from helpers.players import ladder_line as line
from helpers.sockets import Inbox

from solver import catalogue
from webapp.players import helps
from webapp.players.challenges import Challenge
from webapp.players.helps import ATTEMPT, HelpLedger, Holding, family_of
from webapp.storage.models import Attempt

#: addresses the test clients stand at (the Flask test client's REMOTE_ADDR)
HOME, ELSEWHERE = "127.0.0.1", "10.9.8.7"


def _client(app, address: str = HOME):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _socket(app, client):
    """A Socket.IO test client with ``client``'s cookies (none for a fresh client) and
    address."""
    return Inbox(app.extensions["socketio"].test_client(app, flask_test_client=client))


def _ask(inbox: Inbox, event: str, game: str, board: str, options: dict) -> None:
    given = {k: v for k, v in options.items() if v is not None}
    inbox.client.emit(event, {"game": game, "board": board, **given, "id": board})
    answer = "analysis" if event == "analyse" else ("solution", "unsolvable")
    inbox.wait(answer, timeout=30, where=lambda p: p.get("id") == board)
    inbox.client.disconnect()


def _assisted(app) -> list[bool]:
    with app.extensions["players"].db.session() as session:
        return [a.assisted for a in session.query(Attempt).order_by(Attempt.id)]


def test_a_cookieless_socket_on_the_holders_address_unranks_the_daily(players_app):
    """The attack's second socket: no cookie, the holder's address, the daily's board."""
    holder = _client(players_app)
    daily, body = daily_line(holder)
    _ask(
        _socket(players_app, _client(players_app)),
        "solve",
        "jugs",
        daily["board"],
        daily["options"],
    )
    got = holder.post("/api/results", json=body).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)
    assert "help" in got["why"]


def test_a_daily_board_asked_from_another_address_without_the_cookie_is_not_help(players_app):
    """Everyone plays the same daily: a stranger elsewhere asking about it is no one's help."""
    holder = _client(players_app)
    daily, body = daily_line(holder)
    stranger = _socket(players_app, _client(players_app, ELSEWHERE))
    _ask(stranger, "analyse", "jugs", daily["board"], daily["options"])
    assert holder.post("/api/results", json=body).get_json()["ranked"] is True


def test_the_holders_cookie_from_another_address_is_help_on_any_board_of_the_game(players_app):
    holder = _client(players_app)
    daily, body = daily_line(holder)
    travelling = _client(players_app, ELSEWHERE)
    travelling.set_cookie("arcade_player", holder.get_cookie("arcade_player").value)
    _ask(_socket(players_app, travelling), "analyse", "jugs", body["states"][2], daily["options"])
    assert holder.post("/api/results", json=body).get_json()["assisted"] is True


def test_a_ladder_board_solved_anywhere_by_anyone_scores_its_holder_zero(sqlite_app, clock):
    """The bot: a ladder puzzle, solved by a socket with no cookie on another address."""
    bot = _client(sqlite_app)
    puzzle = bot.post("/api/ladder/npuzzle", json={}).get_json()
    helper = _socket(sqlite_app, _client(sqlite_app, ELSEWHERE))
    _ask(helper, "solve", "npuzzle", puzzle["board"], puzzle["options"])
    clock.wait(30)  # a person's pace: only help unranks it
    got = bot.post("/api/results", json=line(puzzle)).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)
    assert got["rating"]["after"] < got["rating"]["before"] == 1500


def test_the_state_graph_of_a_ladder_board_is_help_too(sqlite_app, clock):
    """``/api/graph`` gives every position's distance: asked about the open ladder board
    (here written with spaces: the same position), it unranks the attempt."""
    bot = _client(sqlite_app)
    puzzle = bot.post("/api/ladder/jugs", json={}).get_json()
    spaced = puzzle["board"].replace(",", " , ")
    query = {"board": spaced, **{k: v for k, v in puzzle["options"].items() if v is not None}}
    graph = _client(sqlite_app, ELSEWHERE).get("/api/graph/jugs", query_string=query)
    assert graph.status_code == 200, graph.get_json()
    clock.wait(30)
    got = bot.post("/api/results", json=line(puzzle)).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)


def test_a_lab_run_of_a_shipped_level_unranks_its_open_attempt(sqlite_app, clock):
    from webapp.levels.facts import level_ref

    level = catalogue.get("jugs").levels()[1]
    holder = _client(sqlite_app)
    holder.get(f"/play/jugs?level={level_ref(catalogue.get('jugs'), level)}")
    lab = _socket(sqlite_app, _client(sqlite_app, ELSEWHERE))
    options = dict(level["options"])
    lab.client.emit(
        "lab_run",
        {"game": "jugs", "board": level["board"], **options, "algorithms": ["bfs", "dfs"]},
    )
    lab.wait("lab_result", timeout=30)
    lab.client.disconnect()
    clock.wait(30)
    from solver.engine import solve_board

    states = solve_board("jugs", level["board"], **options)["states"]
    body = {"game": "jugs", "board": level["board"], "options": options, "states": states}
    got = holder.post("/api/results", json=body).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)


def test_a_position_seen_in_a_storm_asked_from_its_address_marks_the_run(sqlite_app):
    holder = _client(sqlite_app)
    run = holder.post("/api/runs", json={"mode": "storm", "game": "npuzzle"}).get_json()
    _ask(
        _socket(sqlite_app, _client(sqlite_app)), "analyse", "npuzzle", run["board"], run["options"]
    )
    deadline = time.monotonic() + 5
    while not holder.get("/api/runs/storm/npuzzle").get_json()["assisted"]:
        assert time.monotonic() < deadline, "the run was never marked"
        time.sleep(0.05)


def test_the_check_on_the_analyse_path_reads_memory_only():
    """:meth:`HelpLedger.asked` never touches the database (the writer does, later) and
    takes about the same time with 20,000 holdings as with one."""

    def no_database():
        raise AssertionError("the analyse path asked the database")

    spawned = []
    ledger = HelpLedger(no_database, lambda task, *args: spawned.append(task))
    ledger.secret = "s"
    options: dict = {}
    full = catalogue.get("npuzzle").full_options(options)
    puzzle = Challenge("npuzzle", "1 2 3 4 5 6 7 0 8", full, 1, None, ladder=True)
    for number in range(20_000):
        ledger.hold(
            Holding(
                ATTEMPT,
                number,
                f"t{number}",
                [family_of("npuzzle", puzzle.options_json)],
                [f"board{number}"],
                ledger.holder_address(f"10.0.{number // 250}.{number % 250}"),
            )
        )
    ledger.hold_attempt(99_999, "bot", "10.9.9.9", puzzle)
    started = time.perf_counter()
    for _ in range(2000):
        ledger.asked(None, "10.1.1.1", "npuzzle", options, "1 2 3 4 5 6 7 8 0")
    each = (time.perf_counter() - started) / 2000
    ledger.asked(None, "10.1.1.1", "npuzzle", options, puzzle.board)  # anyone: the ladder's
    assert each < 0.0005, f"{each * 1e6:.0f} us a question"
    assert ledger.held() == 20_000  # the bot's attempt is marked, waiting for the writer
    assert len(spawned) == 1  # the writer, started once; nothing waited


def test_a_mark_is_on_record_before_a_result_is_judged(players_app, monkeypatch):
    """The answer goes out at once; the result waits for the writer's batch."""
    monkeypatch.setattr(helps, "FLUSH_SECONDS", 0.5)  # a slow batch: the result waits it out
    holder = _client(players_app)
    daily, body = daily_line(holder)
    ledger = players_app.extensions["players"].helps
    ledger.asked(None, HOME, "jugs", daily["options"], daily["board"])  # a cookie-less socket's
    started = time.monotonic()
    got = holder.post("/api/results", json=body).get_json()
    assert time.monotonic() - started >= 0.4
    assert (got["ranked"], got["assisted"]) == (False, True)


def test_help_that_cannot_be_recorded_leaves_the_result_unranked(players_app, monkeypatch):
    holder = _client(players_app)
    daily, body = daily_line(holder)
    state = players_app.extensions["players"]

    def broken():
        raise RuntimeError("the database is down")

    monkeypatch.setattr(helps, "SETTLE_SECONDS", 0.5)
    monkeypatch.setattr(helps, "RETRY_SECONDS", 0.1)
    writing = state.db.writing
    monkeypatch.setattr(state.db, "writing", broken)
    state.helps.asked(None, HOME, "jugs", daily["options"], daily["board"])
    time.sleep(0.3)  # the writer tried and failed
    monkeypatch.setattr(state.db, "writing", writing)  # the database is back for the result
    monkeypatch.setattr(state.helps, "_write", lambda holdings: broken())  # not for help
    got = holder.post("/api/results", json=body).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)


@pytest.mark.parametrize("asker", ["cookie", "stranger"])
def test_help_asked_of_another_web_process_counts(
    postgres_cluster, clock, tmp_path, monkeypatch, asker
):
    """Two web processes on one database (a cluster): the ladder puzzle handed out by the
    first, asked about on the second (by the holder's cookie, or by anyone) before the
    second has read that it was handed out, submitted to the first: not ranked."""
    monkeypatch.setattr(helps, "POLL_SECONDS", 1.0)  # the question comes first
    url = postgres_cluster.create(f"help_{asker}_{time.monotonic_ns()}")
    first = build_app(url, clock, tmp_path / "first", processes=2, SECRET_KEY="shared")
    second = build_app(url, clock, tmp_path / "second", processes=2, SECRET_KEY="shared")
    try:
        # the second process is up and watching before the first hands the puzzle out
        assert second.extensions["players"].db.dialect == "postgresql"
        assert second.extensions["players"].helps.held() == 0
        bot = _client(first)
        puzzle = bot.post("/api/ladder/npuzzle", json={}).get_json()
        other = _client(second, ELSEWHERE)
        if asker == "cookie":
            other.set_cookie("arcade_player", bot.get_cookie("arcade_player").value)
        _ask(_socket(second, other), "solve", "npuzzle", puzzle["board"], puzzle["options"])
        clock.wait(30)
        got = bot.post("/api/results", json=line(puzzle)).get_json()
        assert (got["ranked"], got["assisted"]) == (False, True)
    finally:
        for app in (first, second):
            app.extensions["players"].db.close()
