"""Ranked attempts: the server's clock and its record of help decide, on SQLite and PostgreSQL.

A ranked attempt opens when the server hands the puzzle to a player (the daily's
API or its play page). Its seconds are the server's; an ``analyse`` or ``solve``
from the player's socket about it while it is open makes it unranked.
"""

import pytest
from helpers.apps import make_app
from helpers.players import daily_line
from helpers.sockets import Inbox

from solver import catalogue
from solver.core.seeds import daily_seed
from solver.engine import solve_board
from webapp.players.helps import HelpLedger
from webapp.players.sessions import cookie_owner


def test_a_claimed_zero_seconds_is_replaced_by_the_servers_clock(players_app, clock):
    client = players_app.test_client()
    _daily, body = daily_line(client)  # GET /api/daily: the attempt opens now
    clock.wait(2)
    got = client.post("/api/results", json={**body, "seconds": 0}).get_json()
    assert got["ranked"] is True
    board = client.get("/api/leaderboard/jugs").get_json()
    assert [e["seconds"] for e in board["entries"]] == [2.0]
    assert got["best"]["seconds"] == 2.0


def test_reopening_the_daily_does_not_restart_the_clock(players_app, clock):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    clock.wait(30)
    client.get("/api/daily/jugs")  # opened again: the first open counts
    clock.wait(1)
    got = client.post("/api/results", json={**body, "seconds": 1}).get_json()
    assert got["ranked"] is True and got["best"]["seconds"] == 31.0


def test_a_line_without_an_open_attempt_is_stored_but_never_ranked(players_app):
    opener = players_app.test_client()
    _daily, body = daily_line(opener)
    stranger = players_app.test_client()  # never handed the puzzle: no attempt, no clock
    got = stranger.post("/api/results", json={**body, "seconds": 0}).get_json()
    assert (got["ranked"], got["rank"]) == (False, None)
    # one ranked result per attempt: a second line after the first ended it is not ranked
    first = opener.post("/api/results", json=body).get_json()
    states = body["states"]
    detour = [states[0], states[1], states[0], *states[1:]]
    again = opener.post("/api/results", json={**body, "states": detour}).get_json()
    assert (first["ranked"], again["ranked"]) == (True, False)


def test_a_store_the_database_turns_back_leaves_the_attempt_open(players_app, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from webapp.players import results

    client = players_app.test_client()
    _daily, body = daily_line(client)
    failing = results.record_choices

    def refused(*args):  # the database gives up after the attempt's end was written
        raise OperationalError("INSERT", {}, Exception("canceling statement"))

    monkeypatch.setattr(results, "record_choices", refused)
    busy = client.post("/api/results", json=body)
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    monkeypatch.setattr(results, "record_choices", failing)
    again = client.post("/api/results", json=body)  # the page sends it again
    assert again.status_code == 201 and again.get_json()["ranked"] is True


def test_the_page_of_the_daily_opens_the_attempt_and_sets_the_cookie(players_app, clock):
    client = players_app.test_client()
    page = client.get("/play/jugs?daily=1")
    assert page.status_code == 200 and "HttpOnly" in page.headers["Set-Cookie"]
    config = page.get_data(as_text=True)
    assert (
        '"attempt": {"assisted": false, "finished": false, "ranked": true, "seconds": 0.0}'
        in config
    )
    clock.wait(17)  # reopened later: the page's clock is the attempt's, 17 s on
    again = client.get("/play/jugs?daily=1").get_data(as_text=True)
    assert '"ranked": true, "seconds": 17.0}' in again
    free = client.get("/play/jugs?board=0/3,0/5,8/8&goal=0,4,4").get_data(as_text=True)
    assert '"attempt": null' in free


def test_a_socket_that_asked_about_the_daily_makes_it_unranked(players_app):
    client = players_app.test_client()
    daily, body = daily_line(client)
    socket = players_app.extensions["socketio"].test_client(players_app, flask_test_client=client)
    inbox = Inbox(socket)
    # any position of the daily (here its second one), with the daily's rules
    socket.emit("analyse", {"game": "jugs", "board": body["states"][1], **daily["options"]})
    inbox.wait("analysis", timeout=30)
    socket.disconnect()
    got = client.post("/api/results", json={**body, "assisted": False}).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)
    assert client.get("/api/leaderboard/jugs").get_json()["entries"] == []


def test_asking_about_other_rules_or_anothers_socket_is_not_help(players_app):
    client = players_app.test_client()
    daily, body = daily_line(client)
    socket = players_app.extensions["socketio"].test_client(players_app, flask_test_client=client)
    inbox = Inbox(socket)
    other_goal = "*,*,1" if daily["options"]["goal"] != "*,*,1" else "*,1,*"
    socket.emit("analyse", {"game": "jugs", "board": daily["board"], "goal": other_goal})
    inbox.wait(("analysis", "error"), timeout=30)
    socket.disconnect()
    stranger = players_app.extensions["socketio"].test_client(
        players_app
    )  # no cookie: nobody's attempt
    stranger.emit("analyse", {"game": "jugs", "board": daily["board"], **daily["options"]})
    Inbox(stranger).wait("analysis", timeout=30)
    stranger.disconnect()
    assert client.post("/api/results", json=body).get_json()["ranked"] is True


def test_a_shipped_level_is_ranked_from_its_own_link_only(players_app, clock):
    from webapp.levels.facts import level_ref  # the level's own link: ?level=<pack>/<n>

    level = catalogue.get("jugs").levels()[1]
    options = dict(level["options"])
    states = solve_board("jugs", level["board"], **options)["states"]
    body = {"game": "jugs", "board": level["board"], "options": options, "states": states}
    free = players_app.test_client()
    free.get(f"/play/jugs?board={level['board']}&goal={options['goal']}")
    assert free.post("/api/results", json=body).get_json()["ranked"] is False
    ranked = players_app.test_client()
    page = ranked.get(f"/play/jugs?level={level_ref(catalogue.get('jugs'), level)}")
    assert '"ranked": true' in page.get_data(as_text=True)
    clock.wait(5)
    got = ranked.post("/api/results", json={**body, "seconds": 0}).get_json()
    assert got["ranked"] is True and got["best"]["seconds"] == 5.0


@pytest.mark.parametrize("ref", ["jugs-classic/999", "jugs-classic/0", "nope", "/", "x" * 500])
def test_a_bad_level_link_is_a_400_page_and_opens_nothing(players_app, ref):
    from webapp.storage.models import Attempt

    client = players_app.test_client()
    page = client.get("/play/jugs", query_string={"level": ref})
    assert page.status_code == 400 and '"attempt": null' in page.get_data(as_text=True)
    assert "Set-Cookie" not in page.headers
    with players_app.extensions["players"].db.session() as session:
        assert session.query(Attempt).count() == 0


def test_crawlers_opening_daily_links_make_players_only_within_the_new_player_limit(
    database_url, clock, tmp_path
):
    from webapp.storage.models import Player

    app = make_app(
        DATABASE_URL=database_url,
        DATA_DIR=str(tmp_path),
        CLOCK=clock,
        NEW_PLAYERS_PER_ADDRESS=3,
    )
    app.extensions["players"].daily = lambda game, day: catalogue.get(game).generate(
        {}, daily_seed(game, day), True
    )
    replies = [app.test_client().get("/api/daily/jugs") for _ in range(5)]
    assert [r.status_code for r in replies] == [200] * 5  # the daily is served all the same
    assert ["Set-Cookie" in r.headers for r in replies] == [True] * 3 + [False] * 2
    with app.extensions["players"].db.session() as session:
        assert session.query(Player).count() == 3
    app.extensions["players"].db.close()


def _owner(app, client) -> str | None:
    """The player token the client's cookie stands for (a session's, today)."""
    cookie = client.get_cookie("arcade_player").value
    return cookie_owner(app.extensions["players"], str(app.secret_key), cookie)


def test_help_is_on_record_before_it_is_answered_and_later_requests_keep_their_order(players_app):
    client = players_app.test_client()
    daily, body = daily_line(client)
    token = _owner(players_app, client)
    spawned, done = [], []
    state = players_app.extensions["players"]
    ledger = HelpLedger(lambda: state.db, lambda task, *args: spawned.append((task, args)))
    options = daily["options"]
    ledger.route("sid", token, "jugs", options, lambda: done.append("first"), done.append)
    ledger.route(
        "sid", token, "jugs", {"goal": "*,*,1"}, lambda: done.append("second"), done.append
    )
    assert done == [] and len(spawned) == 1  # nothing answered before the mark is written
    task, args = spawned.pop()
    task(*args)
    assert done == ["first", "second"]
    # the mark is on record: the line is stored, not ranked
    got = client.post("/api/results", json=body).get_json()
    assert (got["ranked"], got["assisted"]) == (False, True)


def test_help_that_cannot_be_recorded_is_refused_not_given(players_app, monkeypatch):
    client = players_app.test_client()
    daily, _body = daily_line(client)
    token = _owner(players_app, client)
    state = players_app.extensions["players"]
    spawned, done = [], []
    ledger = HelpLedger(lambda: state.db, lambda task, *args: spawned.append((task, args)))
    ledger.route(
        "sid", token, "jugs", daily["options"], lambda: done.append("answered"), done.append
    )

    def broken():
        raise RuntimeError("the database is down")

    monkeypatch.setattr(state.db, "writing", broken)
    task, args = spawned.pop()
    task(*args)
    assert done == ["could not record this request; try again"]
