"""Players, verified results, the daily and leaderboards over HTTP, on SQLite and PostgreSQL.

Each test gets a database of each kind with no rows (``database_url`` in conftest) and a
clock it can move (UTC days for streaks). The daily is made by the game's own
generator in the test process (the app's page workers are not needed here).
"""

import datetime as dt
import threading

import pytest
from helpers.players import build_app, count, daily_line

from solver import catalogue
from solver.engine import solve_board
from webapp.levels.facts import level_ref
from webapp.storage.models import Player, Result


def test_a_solved_daily_is_verified_ranked_and_answered(players_app):
    client = players_app.test_client()
    opened = client.get("/api/daily/jugs")  # handing the daily over makes the player
    daily, body = daily_line(client)
    assert daily["date"] == "2026-03-01" and daily["shortest"] == len(body["states"]) - 1
    reply = client.post("/api/results", json=body)
    assert reply.status_code == 201
    got = reply.get_json()
    assert got["length"] == got["shortest"] == daily["shortest"]
    assert (got["optimal"], got["accuracy"], got["ranked"]) == (True, 100, True)
    assert (got["rank"], got["players"], got["streak"]) == (1, 1, 1)
    cookie = opened.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (lambda s: [s[0], *s[2:]], "not one legal move"),
        (lambda s: s[1:], "starts at"),
        (lambda s: s[:-1], "not solved"),
    ],
)
def test_a_forged_line_is_a_400_naming_it_and_writes_nothing(players_app, forge, message):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    reply = client.post("/api/results", json={**body, "states": forge(body["states"])})
    assert reply.status_code == 400
    assert message in reply.get_json()["error"]
    assert (
        count(players_app, Result) == 0 and count(players_app, Player) == 1
    )  # the one the daily made
    assert "Set-Cookie" not in reply.headers


def test_a_claimed_length_is_ignored_the_server_counts(players_app):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    got = client.post("/api/results", json={**body, "length": 1, "shortest": 1}).get_json()
    assert got["length"] == len(body["states"]) - 1


def test_bad_requests_are_4xx_never_500(players_app):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    for bad in (
        {**body, "game": "chess"},
        {**body, "seconds": -1},
        {**body, "seconds": "fast"},
        {**body, "assisted": "no"},
        {**body, "options": {"capacity": 9}},
        {**body, "board": 7},
        [],
    ):
        reply = client.post("/api/results", json=bad)
        assert reply.status_code == 400, bad
        assert reply.get_json()["error"]
    huge = {**body, "states": body["states"] + ["x" * 100] * 20_000}
    assert client.post("/api/results", json=huge).status_code == 413
    assert client.post("/api/results", data="{", content_type="application/json").status_code == 400
    assert count(players_app, Result) == 0


def test_resubmitting_the_same_line_is_the_same_result(players_app):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    first = client.post("/api/results", json=body)
    again = client.post("/api/results", json={**body, "seconds": 5})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.get_json()["id"] == again.get_json()["id"]
    assert count(players_app, Result) == 1


def test_a_retry_is_stored_unranked_and_does_not_hide_the_ranked_result(players_app, clock):
    client = players_app.test_client()
    daily, body = daily_line(client, "npuzzle")
    states = body["states"]
    detour = [states[0], states[1], states[0], *states[1:]]  # one move there and back
    clock.now += dt.timedelta(seconds=50)
    fast = client.post("/api/results", json={**body, "seconds": 3}).get_json()
    assert (fast["length"], fast["accuracy"], fast["ranked"]) == (daily["shortest"], 100, True)
    # the attempt is over: a retry is kept, never ranked (one ranked result per attempt)
    worse = client.post("/api/results", json={**body, "states": detour, "seconds": 1}).get_json()
    assert worse["length"] == daily["shortest"] + 2 and worse["ranked"] is False
    assert worse["best"] == {"length": daily["shortest"], "seconds": 50}
    board = client.get("/api/leaderboard/npuzzle").get_json()
    assert [(e["length"], e["seconds"]) for e in board["entries"]] == [(daily["shortest"], 50)]


def test_an_assisted_line_is_stored_but_never_ranked(players_app):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    got = client.post("/api/results", json={**body, "assisted": True}).get_json()
    assert (got["ranked"], got["rank"], got["players"], got["streak"]) == (False, None, 0, 0)
    assert count(players_app, Result) == 1
    assert client.get("/api/leaderboard/jugs").get_json()["entries"] == []


def test_leaderboard_orders_by_moves_then_time_and_shows_each_players_best(players_app, clock):
    daily, body = daily_line(players_app.test_client(), "npuzzle")
    states = body["states"]
    detour = [states[0], states[1], states[0], *states[1:]]
    plays = {"Ann": (states, 40), "Bob": (detour, 5), "Cy": (states, 20)}
    clients = {name: players_app.test_client() for name in plays}
    for name, client in clients.items():  # every one opens the daily now
        client.post("/api/player", json={"name": name})
        client.get("/api/daily/npuzzle")
    start = clock.now
    for name, (line, seconds) in sorted(plays.items(), key=lambda play: play[1][1]):
        clock.now = start + dt.timedelta(seconds=seconds)  # the server's clock counts
        client = clients[name]
        client.post("/api/results", json={**body, "states": line, "seconds": 0})
    board = clients["Cy"].get("/api/leaderboard/npuzzle?date=2026-03-01").get_json()
    assert [(e["rank"], e["name"]) for e in board["entries"]] == [(1, "Cy"), (2, "Ann"), (3, "Bob")]
    assert board["players"] == 3 and board["shortest"] == daily["shortest"]
    assert board["me"]["rank"] == 1 and board["me"]["beat"] == 100
    assert board["distribution"] == [
        {"length": daily["shortest"], "players": 2},
        {"length": daily["shortest"] + 2, "players": 1},
    ]


def test_streak_counts_utc_days_in_a_row(players_app, clock):
    client = players_app.test_client()
    streaks = []
    for _day in range(3):
        _daily, body = daily_line(client)
        streaks.append(client.post("/api/results", json=body).get_json()["streak"])
        clock.next_day()
    assert streaks == [1, 2, 3]
    # the next day, not solved yet: the streak is still alive (yesterday counts)
    assert client.get("/api/leaderboard/jugs").get_json()["streak"] == 3
    clock.next_day()  # a day missed
    assert client.get("/api/leaderboard/jugs").get_json()["streak"] == 0
    _daily, body = daily_line(client)
    assert client.post("/api/results", json=body).get_json()["streak"] == 1


def test_yesterdays_daily_is_not_ranked_today(players_app, clock):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    clock.next_day()
    got = client.post("/api/results", json=body).get_json()
    if got["level"] is None:  # jugs' daily may be a shipped level, ranked as that
        assert got["ranked"] is False
    assert got["daily"] is None


def test_names_are_checked_trimmed_and_carry_no_markup(players_app):
    client = players_app.test_client()
    for bad in ("", "   ", "x" * 21, "<b>hi</b>", "a&b", "An\tn", "\u202eevil", 5):
        reply = client.post("/api/player", json={"name": bad})
        assert reply.status_code == 400 and reply.get_json()["error"], bad
    reply = client.post("/api/player", json={"name": "  Zoë_the-3rd  "}).get_json()
    assert reply["name"] == "Zoë_the-3rd" and len(reply["code"]) == 19
    assert client.get("/api/player").get_json()["name"] == "Zoë_the-3rd"


def test_the_recovery_code_moves_the_player_to_another_browser(players_app):
    first = players_app.test_client()
    code = first.post("/api/player", json={"name": "Ann"}).get_json()["code"]
    _daily, body = daily_line(first)
    first.post("/api/results", json=body)
    other = players_app.test_client()
    assert other.post("/api/player/restore", json={"code": "NOPE-NOPE"}).status_code == 404
    assert other.post("/api/player/restore", json={"code": code.lower()}).status_code == 200
    assert other.get("/api/player").get_json()["name"] == "Ann"
    assert other.get("/api/leaderboard/jugs").get_json()["me"]["rank"] == 1


def test_results_cannot_be_written_for_another_player(players_app):
    ann, bob = players_app.test_client(), players_app.test_client()
    ann.post("/api/player", json={"name": "Ann"})
    bob.post("/api/player", json={"name": "Bob"})
    _daily, body = daily_line(ann)
    bob.set_cookie("arcade_player", "forged.cookie")  # a cookie not signed by the server
    bob.get("/api/daily/jugs")  # makes a new player (the forged cookie is nobody's)
    bob.post("/api/results", json={**body, "player": 1, "player_id": 1, "name": "Ann"})
    board = ann.get("/api/leaderboard/jugs").get_json()
    assert [e["name"] for e in board["entries"]] == ["Player 3"]  # a new player, not Ann
    assert board["me"]["rank"] is None  # Ann has no result


def test_another_sites_page_cannot_write(players_app):
    client = players_app.test_client()
    _daily, body = daily_line(client)
    evil = client.post("/api/results", json=body, headers={"Origin": "https://evil.example"})
    assert evil.status_code == 403
    same = client.post("/api/results", json=body, headers={"Origin": "http://localhost"})
    assert same.status_code == 201
    assert count(players_app, Result) == 1


def test_writes_over_the_limits_are_429_with_retry_after(database_url, clock, tmp_path):
    app = build_app(database_url, clock, tmp_path, WRITES_PER_PLAYER=3, WRITES_PER_ADDRESS=5)
    client = app.test_client()
    codes = [client.post("/api/player", json={"name": "Ann"}).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.post("/api/player", json={"name": "Ann"})
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    other = app.test_client()  # another player, same address: 5 a minute in all
    codes = [other.post("/api/player", json={"name": "Bob"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    app.extensions["players"].db.close()


def test_the_browsers_progress_is_imported_once(players_app):
    client = players_app.test_client()
    progress = {"jugs||0/3,0/5,8/8": {"moves": 7, "extra": 0, "min": 6, "at": "2026-02-27"}}
    first = client.post("/api/player/progress", json={"progress": progress}).get_json()
    again = client.post("/api/player/progress", json={"progress": progress}).get_json()
    assert (first["imported"], again["already"]) == (1, True)
    assert client.get("/api/player").get_json()["imported"] is True
    bad = client.post("/api/player/progress", json={"progress": {"k": {"moves": "x"}}})
    assert bad.status_code == 400


def test_200_players_submitting_at_once_lose_nothing(players_app):
    _daily, body = daily_line(players_app.test_client())
    start = threading.Barrier(200)
    clients = [players_app.test_client() for _ in range(200)]
    # each from its own address: one address makes at most 20 new players an hour
    addresses = [{"REMOTE_ADDR": f"10.0.{i // 100}.{i % 100 + 1}"} for i in range(200)]
    replies: list = [None] * 200

    def send(i):
        line = {**body, "seconds": 10 + i}
        return clients[i].post("/api/results", json=line, environ_base=addresses[i])

    def play(i):
        # the attempt opens (the test's clock stands still)
        clients[i].get("/api/daily/jugs", environ_base=addresses[i])
        start.wait()
        replies[i] = send(i)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(200)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # an overloaded server may turn some of the burst back (its connection pool full):
    # 503 with Retry-After, and nothing stored, so the page's second send is a first (201)
    busy = [i for i, reply in enumerate(replies) if reply.status_code == 503]
    assert all(replies[i].headers["Retry-After"] for i in busy)
    assert [r.status_code for r in replies if r.status_code != 503] == [201] * (200 - len(busy))
    assert len(busy) < 160  # the pool's 40 connections take their share at least
    assert [send(i).status_code for i in busy] == [201] * len(busy)
    assert (
        count(players_app, Result) == 200 and count(players_app, Player) == 201
    )  # and daily_line's
    board = players_app.test_client().get("/api/leaderboard/jugs").get_json()
    assert board["players"] == 200 and len(board["entries"]) == 100
    # ranked seconds are the server's (its clock stands still here), never the claimed ones
    assert [e["seconds"] for e in board["entries"]] == [0] * 100


def test_a_restart_keeps_players_results_and_cookies(database_url, clock, tmp_path):
    app = build_app(database_url, clock, tmp_path)
    client = app.test_client()
    client.post("/api/player", json={"name": "Ann"})
    _daily, body = daily_line(client)
    client.post("/api/results", json=body)
    app.extensions["players"].db.close()
    restarted = build_app(database_url, clock, tmp_path)
    restarted_client = restarted.test_client()
    restarted_client.set_cookie("arcade_player", client.get_cookie("arcade_player").value)
    board = restarted_client.get("/api/leaderboard/jugs").get_json()
    assert [e["name"] for e in board["entries"]] == ["Ann"]
    assert board["me"]["rank"] == 1 and board["streak"] == 1
    restarted.extensions["players"].db.close()


def test_what_players_chose_counts_unassisted_lines_per_position(players_app):
    _daily, body = daily_line(players_app.test_client(), "npuzzle")
    states = body["states"]
    detour = [states[0], states[1], states[0], *states[1:]]
    for line, assisted in ((states, False), (detour, False), (states, True)):
        client = players_app.test_client()
        client.post("/api/results", json={**body, "states": line, "assisted": assisted})

    def chosen(position):
        query = {"board": body["board"], "position": position}
        reply = client.get("/api/choices/npuzzle", query_string=query).get_json()
        return reply["players"], {m["board"]: m["players"] for m in reply["moves"]}

    players, moves = chosen(states[0])
    assert players == 2 and moves[states[1]] == 2  # the assisted line is not counted
    players, moves = chosen(states[1])
    assert (players, moves[states[2]], moves[states[0]]) == (2, 2, 1)
    assert sum(moves.values()) == 3 and len(moves) >= 2  # every legal move is listed
    nowhere = client.get("/api/choices/npuzzle", query_string={"board": "1 2 3 4 5 6 7 0 8"})
    assert nowhere.status_code == 404  # neither a daily nor a level: nothing to show


def test_level_cards_count_players_solve_rate_and_optimal_rate(players_app):
    level = catalogue.get("jugs").levels()[0]
    options = dict(level["options"])
    states = solve_board("jugs", level["board"], **options)["states"]
    body = {"game": "jugs", "board": level["board"], "options": options, "states": states}
    ann, bob = players_app.test_client(), players_app.test_client()
    for client in (ann, bob):  # the level's own link opens a ranked attempt
        client.get(f"/play/jugs?level={level_ref(catalogue.get('jugs'), level)}")
    assert ann.post("/api/results", json=body).get_json()["ranked"] is True
    assert bob.post("/api/results", json={**body, "assisted": True}).get_json()["ranked"] is False
    stats = ann.get("/api/levels/jugs").get_json()["levels"]
    mine = next(s for s in stats if (s["board"], s["options"]) == (level["board"], options))
    assert (mine["players"], mine["solve_rate"], mine["optimal_rate"]) == (2, 50, 50)
    assert sum(s["players"] for s in stats) == 2
    query = {"board": level["board"], **options}
    board = ann.get("/api/leaderboard/jugs", query_string=query).get_json()
    assert [e["length"] for e in board["entries"]] == [level["moves"][options["goal"]]]
