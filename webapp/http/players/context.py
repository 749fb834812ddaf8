"""What every players' route shares: the state, the cookie's player, the write guard.

The cookie is read once per request (:func:`read_cookie`, the players' API's first
``before_request``, or a page's first ask) into ``g``; :func:`current_player` is then
the one way a route gets its player, made on a write when there is none. After the
request, :func:`remember` sets the cookie a new or moved player, or an old cookie's
new session, needs. Every refusal is answered ``{"error", "template", "params"}``
with its status.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal, overload

from flask import Blueprint, Response, current_app, g, jsonify, request
from sqlalchemy.orm import Session

from solver.core.errors import BoardError
from solver.core.text import N_

from ...jobs.model import TaskRefused
from ...jobs.outcomes import refusal
from ...players import PlayersState
from ...players.identity import COOKIE, COOKIE_DAYS, TooManyPlayers, address_key, new_player
from ...players.limits import same_site
from ...players.sessions import SignedIn, open_session, session_cookie, signed_in
from ...protocol import message_fields
from ...puzzle_request import RequestRefused

#: the endpoint of a run's moves: a storm is quick moves, under their own limit
RUN_MOVES = "players.runs.run_move"


def state() -> PlayersState:
    return current_app.extensions["players"]


def today() -> dt.date:
    return state().now().date()


def _secret() -> str:
    """The app's cookie-signing key (text: the players' setup makes it)."""
    return str(current_app.secret_key)


# -- the cookie's player -------------------------------------------------------------


def read_cookie() -> SignedIn | None:
    """The player this request's cookie names (None: nobody), read once per request; an
    old cookie becomes a session here (:func:`~webapp.players.sessions.signed_in`)."""
    if "signed_in" not in g:
        cookie = request.cookies.get(COOKIE)
        agent = request.headers.get("User-Agent")
        g.signed_in = signed_in(state(), _secret(), cookie, agent)
    return g.signed_in


@overload
def current_player(*, create: Literal[True], session: Session | None = None) -> SignedIn: ...


@overload
def current_player(*, create: Literal[False] = False) -> SignedIn | None: ...


def current_player(*, create: bool = False, session: Session | None = None) -> SignedIn | None:
    """The cookie's player; with ``create``, a new one when there is none, made in
    ``session`` when given (the route's own write: a write turned back makes nobody,
    see :func:`forget_made_player`), else in a write of its own. At most
    ``NEW_PLAYERS_PER_ADDRESS`` are made an hour from one address
    (:class:`~webapp.players.identity.TooManyPlayers`: a 429)."""
    player = read_cookie()
    if player is not None or not create:
        return player
    if session is None:
        with state().db.writing() as own:
            return current_player(create=True, session=own)
    made = new_player(
        session,
        state().now(),
        address_key(_secret(), request.remote_addr),
        current_app.config["NEW_PLAYERS_PER_ADDRESS"],
    )
    g.signed_in = SignedIn(made.id, made.token, None)
    g.new_token = made.token
    return g.signed_in


def forget_made_player() -> None:
    """The write that made this request's player was turned back: nobody was made."""
    if g.pop("new_token", None) is not None:
        g.signed_in = None


def move_here(token: str) -> None:
    """This browser plays as the player ``token`` from now on (a new session)."""
    g.new_token = token


def remember(response: Response) -> Response:
    """Set the player cookie when this request made or moved the player (a new
    session), or turned an old cookie into a session: the players' API and the pages."""
    token = g.get("new_token") if response.status_code < 400 else None
    signed: SignedIn | None = g.get("signed_in")  # unread: this page never asked
    made = signed.secret if signed is not None else None
    if token:
        made = open_session(state(), token, request.headers.get("User-Agent"))[1]
    if made:
        response.set_cookie(
            COOKIE,
            session_cookie(_secret(), made),
            max_age=COOKIE_DAYS * 86400,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


# -- the players' API's hooks ----------------------------------------------------------


def _guard() -> None:
    """Writes: same site only, and within the limits per address and per player."""
    player = read_cookie()
    if request.method != "POST":
        return
    config = current_app.config
    if not same_site(request.headers.get("Origin"), request.host_url, config["ALLOWED_ORIGINS"]):
        raise RequestRefused(N_("writes are accepted from this site's pages only"), 403)
    keys = {f"address:{request.remote_addr}": config["WRITES_PER_ADDRESS"]}
    if player and request.endpoint == RUN_MOVES:
        keys[f"moves:{player.token}"] = config["RUN_MOVES_PER_PLAYER"]
    elif player:
        keys[f"player:{player.token}"] = config["WRITES_PER_PLAYER"]
    wait = state().limits.retry_after(keys)
    if wait is not None:
        raise RequestRefused(
            N_("too many writes; try again in %(seconds)s s"),
            429,
            {"Retry-After": str(wait)},
            seconds=wait,
        )


def _after(response: Response) -> Response:
    token = g.get("new_token")
    if token and response.status_code < 400:
        # the write that made the player counts against the player's own limit too
        state().limits.retry_after({f"player:{token}": current_app.config["WRITES_PER_PLAYER"]})
    return remember(response)


def _refused(err: RequestRefused):
    return jsonify(error=str(err), **message_fields(err)), err.status, err.headers


def _too_many_players(err: TooManyPlayers):
    forget_made_player()
    wait = {"Retry-After": str(err.wait)}
    return _refused(RequestRefused(err.TEMPLATE, 429, wait, seconds=err.wait))


def _solver_refused(err: BoardError | TaskRefused):
    """A bad board, or a page task the domain code asked for (the daily's, a ladder
    puzzle's or a run's generator) that could not run now: the one mapping's status."""
    return _refused(refusal(err))


def install(blueprint: Blueprint) -> None:
    """The players' API's hooks on ``blueprint`` (its nested blueprints share them)."""
    blueprint.before_request(_guard)
    blueprint.after_request(_after)
    blueprint.register_error_handler(RequestRefused, _refused)
    blueprint.register_error_handler(TooManyPlayers, _too_many_players)
    blueprint.register_error_handler(BoardError, _solver_refused)
    blueprint.register_error_handler(TaskRefused, _solver_refused)
