"""Rated races: Glicko-2 over pairwise results, on sockets and in the database.

The maths is checked against Glickman's published example; the wiring with three
racers in the public lobby (two players, one without an identity); the ranked-play
rule with a racer whose socket asks the solver during the race; and "rated once" with
a race finished twice. Distances come from the reference rules (:mod:`helpers.npuzzle`).
"""

from __future__ import annotations

import itertools
import time

import pytest
from helpers.npuzzle import neighbour
from helpers.sockets import Inbox
from sqlalchemy import func, select

from webapp.players.ratings import NEW_RATING, GlickoSide, Rating, rate_period
from webapp.races import rating
from webapp.races.model import Race, Racer
from webapp.races.rating import pair_score, rate_order
from webapp.storage.models import Player, RaceEntry, RaceRating, RatedRace

RACE_SECONDS = 6.0  # room for a first analysis and a judged move on a busy machine

# -- the maths -----------------------------------------------------------------------------


def test_a_period_of_several_games_is_glickmans_update(monkeypatch):
    """The paper's example (1500/200 v 1400/30 won, 1550/100 and 1700/300 lost, tau 0.5)
    in one period: 1464.06 and 151.52."""
    monkeypatch.setattr(GlickoSide, "_tau", 0.5)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate_period(Rating(1500, 200, 0.06), games)
    assert after.rating == pytest.approx(1464.06, abs=0.05)
    assert after.deviation == pytest.approx(151.52, abs=0.05)
    assert rate_period(Rating(1500, 200), []) == Rating(1500, 200)
    with pytest.raises(ValueError):
        rate_period(Rating(), [(Rating(), 2.0)])


def test_pairs_are_won_drawn_and_lost_by_score_and_help_ranks_last():
    assert (pair_score(3, 1), pair_score(1, 3), pair_score(2, 2)) == (1.0, 0.0, 0.5)
    assert (pair_score(None, 0), pair_score(0, None), pair_score(None, None)) == (0.0, 1.0, 0.5)


def test_the_finishing_order_orders_the_ratings_whatever_the_racers_order():
    racers = {"a": (Rating(), 9), "b": (Rating(), 5), "c": (Rating(), 5), "d": (Rating(), 0)}
    after = rate_order(racers)
    assert after["a"].rating > after["b"].rating == after["c"].rating > after["d"].rating
    assert after["a"].rating > NEW_RATING > after["d"].rating
    # each one is its own period against the others' ratings before the race
    expected_b = rate_period(Rating(), [(Rating(), 0.0), (Rating(), 0.5), (Rating(), 1.0)])
    assert after["b"] == expected_b
    for order in itertools.permutations(racers):
        assert rate_order({key: racers[key] for key in order}) == after


def test_an_assisted_racer_is_rated_below_every_unaided_one():
    after = rate_order({"helped": (Rating(), None), "slow": (Rating(), 0), "fast": (Rating(), 4)})
    assert after["helped"].rating < after["slow"].rating < after["fast"].rating
    assert after["helped"].rating < NEW_RATING


# -- on the sockets --------------------------------------------------------------------------


pytestmark = pytest.mark.app(
    RATE_LIMIT=0, RACE_COUNTDOWN_SECONDS=0.5, RACE_SECONDS=RACE_SECONDS, RACE_PUZZLES=2
)


_addresses = itertools.count(1)


def player(app, name, address=None):
    """A named player with a socket, on an address of their own unless ``address``
    says (one racer per address is rated)."""
    http = app.test_client()
    http.environ_base["REMOTE_ADDR"] = address or f"10.7.0.{next(_addresses)}"
    assert http.post("/api/player", json={"name": name}).status_code == 200
    socket = app.extensions["socketio"].test_client(app, flask_test_client=http)
    return http, Inbox(socket)


def state(inbox, status, timeout=10.0):
    return inbox.wait("race_state", timeout, lambda s: s["status"] == status)[1]


def public_race(app, *racers):
    """Every (inbox, name) joins the public lobby; their ``racing`` states once it starts."""
    inboxes = [inbox for inbox, _name in racers]
    for inbox, name in racers:
        inbox.client.emit("race_join", {"name": name})
        inbox.wait("race_state")  # waiting, or the countdown the last one starts
    return [state(inbox, "racing") for inbox in inboxes]


def rated(inbox):
    """The finished state that carries the ratings (the results come first)."""
    timeout = RACE_SECONDS + 10
    return inbox.wait(
        "race_state",
        timeout,
        lambda s: s["status"] == "finished" and any("rating" in p for p in s["players"]),
    )[1]


def test_a_public_race_rates_its_players_by_score_and_not_the_racer_without_one(app):
    ann_http, ann = player(app, "Ann")
    bo_http, bo = player(app, "Bo")
    guest = Inbox(app.extensions["socketio"].test_client(app))
    racing = public_race(app, (ann, "Ann"), (bo, "Bo"), (guest, "Guest"))
    assert [s["rated"] for s in racing] == [True, True, False]
    board = racing[0]["puzzle"]["board"]
    ann.client.emit("race_move", {"board": neighbour(board, -1)})
    ann.wait("race_state", where=lambda s: s["players"][0]["score"] == 1)

    done = rated(guest)
    shown = {p["name"]: p for p in done["players"]}
    expected = rate_order({"Ann": (Rating(), 1), "Bo": (Rating(), 0)})
    assert shown["Ann"]["rating"] == round(expected["Ann"].rating) > NEW_RATING
    assert shown["Bo"]["rating"] == round(expected["Bo"].rating) < NEW_RATING
    assert shown["Ann"]["change"] == shown["Ann"]["rating"] - NEW_RATING > 0
    assert shown["Bo"]["assisted"] is False and shown["Bo"]["change"] < 0
    assert "rating" not in shown[racing[2]["you"]]  # the socket without a player: unrated
    me = ann_http.get("/api/player").get_json()["race_rating"]
    assert me == {"rating": shown["Ann"]["rating"], "deviation": me["deviation"], "races": 1}
    assert me["deviation"] < 350

    # a reconnect sees the same ratings and rates nothing again
    back = Inbox(app.extensions["socketio"].test_client(app, flask_test_client=bo_http))
    back.client.emit("race_join", {"race": done["race"]})
    again = state(back, "finished")
    assert {p["name"]: p.get("rating") for p in again["players"]} == {
        name: p.get("rating") for name, p in shown.items()
    }
    assert bo_http.get("/api/player").get_json()["race_rating"]["races"] == 1
    assert app.test_client().get("/api/player").get_json()["race_rating"] is None


def test_asking_the_solver_during_a_rated_race_rates_the_racer_last(app):
    _, cy = player(app, "Cy")
    _, di = player(app, "Di")
    _, ed = player(app, "Ed")
    racing = public_race(app, (cy, "Cy"), (di, "Di"), (ed, "Ed"))
    board = racing[0]["puzzle"]["board"]
    cy.client.emit("analyse", {"game": "npuzzle", "board": board})  # help, on record
    cy.wait("analysis", timeout=30)
    cy.client.emit("race_move", {"board": neighbour(board, -1)})  # the best score
    cy.wait("race_state", where=lambda s: s["players"][0]["score"] == 1)

    shown = {p["name"]: p for p in rated(di)["players"]}
    assert shown["Cy"]["assisted"] is True and shown["Di"]["assisted"] is False
    assert shown["Cy"]["rating"] < shown["Di"]["rating"] == shown["Ed"]["rating"]
    assert shown["Cy"]["change"] < 0


def test_sock_puppets_on_one_address_rate_only_the_first(app):
    """A rated race rates at most one racer per address (issue 46: two sock puppets on
    the owner's address lost to them on purpose, +247 race rating)."""
    _, owner = player(app, "Owner", "10.8.0.1")
    _, puppet = player(app, "Puppet", "10.8.0.1")
    _, rival = player(app, "Rival", "10.8.0.2")
    racing = public_race(app, (owner, "Owner"), (puppet, "Puppet"), (rival, "Rival"))
    assert [s["rated"] for s in racing] == [True, False, True]  # the puppet is told so
    board = racing[0]["puzzle"]["board"]
    owner.client.emit("race_move", {"board": neighbour(board, -1)})
    owner.wait("race_state", where=lambda s: s["players"][0]["score"] == 1)
    shown = {p["name"]: p for p in rated(rival)["players"]}
    assert "rating" in shown["Owner"] and "rating" in shown["Rival"]
    assert "rating" not in shown["Puppet"]  # the owner's address's second racer
    expected = rate_order({"Owner": (Rating(), 1), "Rival": (Rating(), 0)})
    assert shown["Owner"]["rating"] == round(expected["Owner"].rating)


def test_a_race_finished_twice_is_rated_once_and_a_private_race_never(players_app):
    """Straight through :mod:`webapp.races.rating`, as a second web process finishing
    the same race would call it; on SQLite and PostgreSQL."""
    app = players_app
    players_state = app.extensions["players"]
    tokens = []
    for name in ("Fay", "Gus"):
        http, _ = player(app, name)
        with players_state.db.session() as session:
            found = session.scalars(select(Player).where(Player.name == name)).one()
            tokens.append(found.token)
    now = time.time()
    race = Race("twice", True, None, [], starts=now - 1, ends=now + 60)  # racing
    for score, token in enumerate(tokens):
        race.racers[f"p:{token}"] = Racer(f"p:{token}", f"R{score}", score=score)
    rating.open_race(players_state, race, 60)
    rating.open_race(players_state, race, 60)  # opened twice: one row
    assert rating.rate(players_state, race)
    first = dict(race.ratings)
    race.racers[f"p:{tokens[0]}"].score = 99  # a late change moves nothing now
    assert rating.rate(players_state, race) and race.ratings == first
    with players_state.db.session() as session:
        assert session.scalar(select(func.count()).select_from(RatedRace)) >= 1
        assert session.scalar(select(func.count()).where(RatedRace.race == "twice")) == 1
        rows = session.scalars(
            select(RaceRating)
            .join(Player, Player.id == RaceRating.player_id)
            .where(Player.token.in_(tokens))
        ).all()
        assert sorted(row.races for row in rows) == [1, 1]
        entries = session.scalars(
            select(RaceEntry).join(RatedRace).where(RatedRace.race == "twice")
        ).all()
        assert sorted(e.score for e in entries) == [0, 1]
    private = Race("among-friends", False, None, [], starts=now - 1, ends=now + 60)
    private.racers = dict(race.racers)
    rating.open_race(players_state, private, 60)
    assert not rating.rate(players_state, private) and private.ratings == {}
