"""HTTP side of the web app: lobby, play pages and their config, errors, health, startup."""

import functools
import inspect
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlsplit

import pytest
from helpers.apps import make_app
from helpers.klotski import string_bfs
from helpers.npuzzle import reference_distances
from helpers.watersort import fewest_pours_by_bfs

from harness.loopback import free_port
from solver import catalogue
from solver.core.errors import BoardError
from solver.engine import parse_board
from solver.klotski import levels as solver_levels
from webapp import create_app
from webapp.config import SETTINGS, from_environment, normalise
from webapp.http.links import lobby_packs
from webapp.jobs.cluster import ClusterLane
from webapp.jobs.core import Lane
from webapp.jobs.pool import WorkerPool

ROOT = Path(__file__).resolve().parent.parent
CONFIG_SCRIPT = re.compile(r'<script id="config" type="application/json">(.*?)</script>', re.S)


@functools.cache
def _levels() -> tuple:
    return tuple(level for levels in lobby_packs().values() for level in levels)


def all_levels() -> list:
    """The lobby's levels, worked out once (a third of a second): the per-level test
    reads them for each of its 272 levels."""
    return list(_levels())


def klotski_levels() -> list:
    return [level for level in all_levels() if level["game"] == "klotski"]


def page_config(response) -> dict:
    """The page's config; a page whose query was bad is a 400 that still shows it."""
    found = CONFIG_SCRIPT.search(response.get_data(as_text=True))
    assert found, "the play page must carry its config as JSON"
    config = json.loads(found.group(1))
    assert response.status_code == (400 if config["error"] else 200)
    return config


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_lobby_links_every_game_and_level(client):
    html = client.get("/").get_data(as_text=True)
    for game in catalogue.games():
        assert f'href="/play/{game}"' in html
    level_links = [
        unescape(href) for href in re.findall(r'href="(/play/[a-z]+\?level=[^"]+)"', html)
    ]  # a level's own link (ranked), not a board's (free play)
    opened = {page_config(client.get(link))["board"] for link in level_links}
    assert len(klotski_levels()) >= 10
    assert opened == {level["board"] for level in all_levels()}
    for level in all_levels():
        assert level["name"] in unescape(html)


def test_the_lobby_is_rendered_once_per_language_and_theme(app, monkeypatch):
    """The lobby's level cards are rendered once per language and theme and kept (the
    render took some 50 ms, too long for the event loop); each reader still gets theirs.
    A served process renders each language's at start-up."""
    from webapp.http import pages

    pages.render_lobbies(app)
    assert set(app.extensions["lobby_pages"]) == {("en", None), ("zh-Hans", None)}
    rendered = []
    render = pages.render_template
    monkeypatch.setattr(
        pages, "render_template", lambda *a, **k: rendered.append(a) or render(*a, **k)
    )
    for _ in range(2):
        for language, theme in [("zh-Hans", None), ("en", "dark"), ("zh-Hans", "light")]:
            client = app.test_client()
            client.set_cookie("arcade_lang", language)
            if theme:
                client.set_cookie("arcade_theme", theme)
            html = client.get("/").get_data(as_text=True)
            assert f'<html lang="{language}"' in html
            assert (f'data-theme="{theme}"' in html) == bool(theme)
    assert len(rendered) == 2  # the two themes chosen; the languages' were kept from start-up


def test_the_levels_file_is_the_shared_classic_list():
    shipped = solver_levels.load("klotski-classic")
    names = [level["name"] for level in shipped["levels"]]
    assert len(names) == len(set(names)) and names[0] == "横刀立马"


@pytest.mark.parametrize("level", all_levels(), ids=lambda level: level["board"])
def test_every_level_link_opens_its_board_named_and_graded(client, level):
    config = page_config(client.get(level["url"]))
    assert config["error"] is None and config["board"] == level["board"]
    # the next level in the lobby's order of the same pack ("Next level" once solved)
    pack = [
        other
        for other in all_levels()
        if (other["game"], other["pack"]) == (level["game"], level["pack"])
    ]
    number = pack.index(level) + 1
    after = pack[number] if number < len(pack) else None
    assert config["level"] == {
        "name": level["name"],
        "english": level.get("english"),
        "pack": level["pack"],
        "moves": json.loads(json.dumps(level["moves"])),  # as JSON keys them (None: "null")
        "next": after
        and {"ref": parse_qs(urlsplit(after["url"]).query)["level"][0], "name": after["name"]},
    }
    assert config["min"] == {"moves": level["min"], "optimal": True}
    for variant in level["variants"]:  # the same level under the other metrics
        config = page_config(client.get(variant["url"]))
        assert config["board"] == level["board"] and config["level"]["name"] == level["name"]
        assert config["min"] == {"moves": variant["min"], "optimal": True}


@pytest.mark.parametrize("game", list(catalogue.games()))
def test_play_page_defaults(client, game):
    declared = catalogue.get(game)
    config = page_config(client.get(f"/play/{game}"))
    assert config["game"] == game and config["error"] is None
    assert config["speed"] == 400
    assert config["options"] == declared.default_options()
    assert config["game_info"] == json.loads(json.dumps(declared.describe()))
    assert config["choices"] == json.loads(json.dumps(declared.choices()))
    domain, state = parse_board(game, config["board"], **config["options"])
    assert domain.format(state) == config["board"] == declared.default_board
    html = client.get(f"/play/{game}").get_data(as_text=True)
    assert 'data-testid="board"' in html and "vendor/socket.io.min.js" in html


def test_play_page_canonicalises_the_board_and_reads_options(client):
    config = page_config(client.get("/play/npuzzle?board=1,2,3/4,5,6/7,0,8&speed=150"))
    assert config["board"] == "1 2 3 4 5 6 7 0 8" and config["speed"] == 150
    config = page_config(client.get("/play/watersort?board=AAB,BBA,,&capacity=3"))
    assert config["error"] is None and config["options"] == {"capacity": 3}
    assert config["board"] == "AAB,BBA,,"
    config = page_config(
        client.get(
            "/play/klotski?"
            + "board="
            + quote("BAAC/BAAC/DEEF/DGHF/I..J")
            + "&metric=step&goal=A@3,1"
        )
    )
    assert config["error"] is None
    assert config["options"] == {"metric": "step", "goal": "A@3,1"}


@pytest.mark.parametrize(
    "url, words",
    [
        ("/play/npuzzle?board=1 2 3", None),
        ("/play/npuzzle?board=1 2 3 4 5 6 7 8 8", None),
        ("/play/klotski?board=BAAC/BAA/DEEF", None),
        ("/play/klotski?metric=diagonal", "metric"),
        ("/play/watersort?capacity=lots", "capacity"),
        ("/play/watersort?board=ABC,,&capacity=4", None),
        ("/play/npuzzle?board=" + "1" * 3000, "limit"),
    ],
)
def test_bad_board_in_the_url_shows_the_error_and_the_default(client, url, words):
    game = url.split("/")[2].split("?")[0]
    config = page_config(client.get(url))
    assert isinstance(config["error"], str) and config["error"]
    assert "\n" not in config["error"]
    if words:
        assert words in config["error"]
    assert config["board"] == catalogue.get(game).default_board
    assert config["options"] == catalogue.get(game).default_options()


@pytest.mark.parametrize("speed, expected", [("abc", 400), ("-5", 20), ("99999", 5000), ("", 400)])
def test_speed_is_clamped(client, speed, expected):
    assert page_config(client.get(f"/play/npuzzle?speed={speed}"))["speed"] == expected


@pytest.mark.parametrize("url", ["/play/chess", "/play/", "/play/klotski/extra", "/nowhere"])
def test_unknown_pages_are_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert "lobby" in response.get_data(as_text=True)


def test_vendored_socketio_client_is_served(client):
    response = client.get("/static/vendor/socket.io.min.js")
    assert response.status_code == 200
    head = response.get_data(as_text=True)[:200]
    assert "Socket.IO v4.8" in head and "MIT" in head


def test_paths_do_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app()
    assert Path(app.template_folder).is_absolute() and Path(app.static_folder).is_absolute()
    assert app.test_client().get("/play/klotski").status_code == 200


def test_python_m_webapp_serves_without_a_terminal(tmp_path):
    port = free_port()
    env = {**os.environ, "PORT": str(port)}
    server = subprocess.Popen(
        [sys.executable, "-m", "webapp"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    assert json.load(r) == {"status": "ok"}
                    break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode()
                assert time.monotonic() < deadline, "server did not come up"
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- issue 4: seeded levels, graded packs, the editor's JSON API ----------------------


def test_seeded_npuzzle_link_gives_the_same_exact_distance_puzzle(client):
    link = "/play/npuzzle?size=3&distance=20&seed=123"
    first, again = page_config(client.get(link)), page_config(client.get(link))
    assert first["board"] == again["board"] and first["error"] is None
    assert first["min"] == {"moves": 20, "optimal": True}
    assert reference_distances()[tuple(map(int, first["board"].split()))] == 20
    other = page_config(client.get("/play/npuzzle?size=3&distance=20&seed=124"))
    assert other["board"] != first["board"]


def test_seeded_watersort_link_carries_capacity_and_fewest_pours(client):
    config = page_config(client.get("/play/watersort?colours=5&capacity=3&empty=2&seed=5"))
    assert config["options"]["capacity"] == 3 and config["error"] is None
    assert fewest_pours_by_bfs(config["board"], 3) == config["min"]["moves"]


def test_daily_puzzles_open_and_bad_generator_values_fall_back(client):
    for game in catalogue.games():
        config = page_config(client.get(f"/play/{game}?daily=1"))
        assert config["error"] is None and config["generated"]["daily"] is True
        assert config["min"]["moves"] > 0
        seeded = page_config(client.get(f"/play/{game}?seed=7"))
        assert seeded["generated"]["seed"] == 7 and seeded["generated"]["daily"] is False
        assert page_config(client.get(f"/play/{game}?seed=7"))["board"] == seeded["board"]
    bad = page_config(client.get("/play/npuzzle?seed=1&distance=99"))
    assert "distance must be a whole number from 1 to 31" in bad["error"]
    assert bad["board"] == catalogue.get("npuzzle").default_board
    for seed in ("x", "-1", "²", str(2**31)):
        assert (
            "seed must be a whole number"
            in page_config(client.get(f"/play/npuzzle?seed={seed}"))["error"]
        )


def test_lobby_shows_every_graded_level_with_its_minimum(client):
    html = client.get("/").get_data(as_text=True)
    for level in all_levels():
        assert f'data-min="{level["min"]}"' in html
    assert html.count("min ") >= len(all_levels())
    first = klotski_levels()[0]
    classic = page_config(client.get("/play/klotski?board=" + quote(first["board"])))
    assert classic["level"]["name"] == "横刀立马" and classic["min"]["moves"] == 81
    step = page_config(client.get("/play/klotski?metric=step&board=" + quote(first["board"])))
    assert step["min"]["moves"] == first["moves"]["step"]
    other_goal = page_config(client.get("/play/klotski?goal=A@0,0&board=" + quote(first["board"])))
    assert other_goal["error"] is None and other_goal["level"] is None and other_goal["min"] is None


@pytest.mark.parametrize(
    "game,board,options,message",
    [
        ("klotski", "AAB/AAC/BBD/E.D", {}, "piece B is not a rectangle"),
        ("watersort", "RRRR,RB,BBB,", {"capacity": 4}, "colour R has 5 units, tubes hold 4"),
        ("npuzzle", "1 2 3 4 5 6 7 8 8", {}, "tile 8 appears twice"),
    ],
)
def test_validate_api_uses_the_cli_messages(client, game, board, options, message):
    reply = client.post(
        "/api/validate", json={"game": game, "board": board, "options": options}
    ).get_json()
    assert reply["ok"] is False and reply["error"].startswith(message)
    with pytest.raises(BoardError) as err:  # the CLI's own message, word for word
        parse_board(game, board, **options)
    assert str(err.value) == reply["error"]


def test_validate_and_check_a_good_board(client):
    board = "AA./AAG/FEB/CD."
    reply = client.post("/api/validate", json={"game": "klotski", "board": board}).get_json()
    assert reply["ok"] and reply["canonical"] == board
    assert reply["link"].startswith("/play/klotski?board=")
    checked = client.post("/api/check", json={"game": "klotski", "board": board}).get_json()
    expected = string_bfs(board, "A", 2, 0, "piece")  # the default goal: bottom centre
    assert checked["solvable"] is True and checked["distance"] == expected
    unsolvable = client.post(
        "/api/check", json={"game": "npuzzle", "board": "2 1 3 4 5 6 7 8 0"}
    ).get_json()
    assert unsolvable["ok"] and unsolvable["solvable"] is False


@pytest.mark.parametrize(
    "body",
    [None, [], {"game": "chess", "board": "x"}, {"game": "klotski", "board": "A", "options": 3}],
)
def test_api_rejects_bad_requests_with_one_line(client, body):
    """A refused request is the API's one error shape, ``{error, template, params}``
    (the editor's answers once added ``ok``: false, as a verdict does)."""
    response = client.post("/api/validate", json=body)
    assert response.status_code == 400
    reply = response.get_json()
    assert set(reply) == {"error", "template", "params"} and "\n" not in reply["error"]


def test_a_busy_solver_is_a_503_in_the_one_error_shape(sqlite_app, monkeypatch):
    """The editor's check and graph, and the daily's generator, each refused by a full
    lane: a 503 with ``Retry-After`` and ``{error, template, params}``, as every refusal
    of the API (the editor's and the generator's said ``{ok: false, error}``)."""
    from webapp.jobs.model import TASK_BUSY_MESSAGE, TaskRefused

    def busy(*_args, **_kwargs):
        raise TaskRefused(TASK_BUSY_MESSAGE)

    monkeypatch.setattr(sqlite_app.extensions["jobs"], "page_task", busy)
    sqlite_app.extensions["players"].daily = busy
    client = sqlite_app.test_client()
    answers = [
        client.post("/api/check", json={"game": "klotski", "board": "AA./AAG/FEB/CD."}),
        client.get("/api/graph/jugs?board=0/3,0/5,8/8"),
        client.get("/api/daily/jugs"),
    ]
    for answer in answers:
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
        assert answer.get_json() == {
            "error": TASK_BUSY_MESSAGE,
            "template": TASK_BUSY_MESSAGE,
            "params": {},
        }


def test_an_api_path_without_a_route_answers_the_one_error_shape(client):
    """The app's own error pages answer the API in JSON as its refusals do, ``{error}``
    (they said ``{ok: false, error}``)."""
    missing = client.get("/api/no-such-thing")
    wrong = client.get("/api/validate")  # a POST-only route
    assert (missing.status_code, wrong.status_code) == (404, 405)
    assert missing.get_json() == {"error": "There is no such page or game."}
    assert wrong.get_json() == {"error": "This address does not take that kind of request."}


def test_editor_pages_open_for_every_game(client):
    for game in catalogue.games():
        response = client.get(f"/editor/{game}")
        assert response.status_code == 200 and 'data-testid="editor-board"' in response.get_data(
            as_text=True
        )
    assert client.get("/editor/chess").status_code == 404


def test_editor_home_opens_the_first_games_editor(client):
    response = client.get("/editor")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/editor/{next(iter(catalogue.games()))}")


def test_every_response_carries_a_request_id_and_readyz_reports_the_runner(client):
    response = client.get("/readyz", headers={"X-Request-Id": "abc"})
    assert response.status_code == 200 and response.headers["X-Request-Id"] == "abc"
    assert response.get_json()["status"] == "ok" and "lanes" in response.get_json()
    assert client.get("/nowhere").headers["X-Request-Id"]


@pytest.mark.parametrize("given", ["a\x00b", "a\x1b[31mb", "x" * 65, "é", "a b"])
def test_a_request_id_that_is_not_plain_text_is_replaced(client, given):
    echoed = client.get("/healthz", headers={"X-Request-Id": given}).headers["X-Request-Id"]
    assert echoed != given and echoed.isascii() and echoed.isprintable() and len(echoed) <= 64


# -- issue 9: settings from ARCADE_* through Flask's from_prefixed_env ----------------


def test_arcade_environment_variables_configure_the_app(monkeypatch):
    monkeypatch.setenv("ARCADE_PREBUILD_TABLES", "0")
    monkeypatch.setenv("ARCADE_ALLOWED_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("ARCADE_SOLVE_SECONDS", "20")
    monkeypatch.setenv("ARCADE_RATE_BURST", "7")
    monkeypatch.setenv("ARCADE_MESSAGE_QUEUE", "")
    config = create_app().config
    assert config["PREBUILD_TABLES"] is False
    assert config["ALLOWED_ORIGINS"] == ["https://a.example", "https://b.example"]
    assert config["SOLVE_SECONDS"] == 20.0 and isinstance(config["SOLVE_SECONDS"], float)
    assert config["RATE_BURST"] == 7 and config["MESSAGE_QUEUE"] is None
    assert make_app(RATE_BURST=9).config["RATE_BURST"] == 9  # arguments win


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0", False),
        ("false", False),
        ("no", False),
        ("off", False),
        ("1", True),
        ("true", True),
        ("yes", True),
        ("on", True),
    ],
)
def test_boolean_settings_read_the_usual_words(monkeypatch, text, expected):
    monkeypatch.setenv("ARCADE_PREBUILD_TABLES", text)
    app = make_app()  # the test settings turn prebuilding off
    app.config.from_prefixed_env("ARCADE")
    normalise(app.config)
    assert app.config["PREBUILD_TABLES"] is expected


def test_a_setting_that_is_not_a_number_says_which(monkeypatch):
    monkeypatch.setenv("ARCADE_SOLVE_SECONDS", "soon")
    with pytest.raises(ValueError, match="ARCADE_SOLVE_SECONDS must be a number"):
        make_app()


def test_a_generated_level_or_check_the_page_pool_cannot_take_is_a_503_saying_so():
    app = make_app(PAGE_QUEUE=0)
    client = app.test_client()
    page = client.get("/play/npuzzle?seed=3&size=3&distance=5")
    assert page.status_code == 503 and b"busy" in page.data
    assert page.headers["Retry-After"]
    check = client.post("/api/check", json={"game": "npuzzle", "board": "1 2 3 4 5 6 7 0 8"})
    assert check.status_code == 503 and "busy" in check.get_json()["error"]
    assert client.get("/play/npuzzle").status_code == 200  # no search needed: served
    assert app.extensions["jobs"].lanes["page"].stats()["workers"] == 0


def test_both_back_ends_follow_the_lane_protocol():
    methods = [
        name for name, _ in inspect.getmembers(Lane, inspect.isfunction) if not name.startswith("_")
    ]
    assert {"submit", "cancel", "withdraw", "close", "shutdown", "stats"} <= set(methods)
    for lane in (WorkerPool, ClusterLane):
        for name in methods:
            mine, wanted = getattr(lane, name), getattr(Lane, name)
            mine_params = list(inspect.signature(mine).parameters)
            assert mine_params == list(inspect.signature(wanted).parameters), f"{lane}.{name}"


def test_readyz_has_the_same_keys_for_every_lane(client):
    lanes = client.get("/readyz").get_json()["lanes"]
    assert set(lanes) == {"quick", "long", "page", "replay"}
    keys = {frozenset(stats) for stats in lanes.values()}
    assert len(keys) == 1 and {"busy", "queued", "lost", "ready", "size"} <= next(iter(keys))


def test_every_setting_declares_its_type_default_and_purpose():
    for key, setting in SETTINGS.items():
        assert setting.help and setting.type in (int, float, bool, str, list), key
        assert setting.default is None or isinstance(setting.default, setting.type), key


def test_the_server_and_the_rq_worker_read_the_same_settings_as_the_app(monkeypatch):
    environ = {"ARCADE_MAX_CLIENTS": "12", "ARCADE_REQUEST_SECONDS": "2.5", "ARCADE_LOG_LEVEL": ""}
    config = from_environment(environ)
    assert config["MAX_CLIENTS"] == 12 and config["REQUEST_SECONDS"] == 2.5
    assert config["LOG_LEVEL"] == "INFO" and config["TRUSTED_PROXIES"] == 0
    with pytest.raises(ValueError, match="ARCADE_MAX_CLIENTS must be a number"):
        from_environment({"ARCADE_MAX_CLIENTS": "many"})
    monkeypatch.setenv("ARCADE_MAX_CLIENTS", "12")
    assert make_app().config["MAX_CLIENTS"] == config["MAX_CLIENTS"]


def _remote_addr_app(**config):
    app = make_app(**config)
    app.add_url_rule("/whoami", "whoami", lambda: request_address())
    return app.test_client()


def request_address():
    from flask import request

    return request.remote_addr


def test_forwarded_addresses_are_ignored_unless_proxies_are_trusted():
    forged = {"X-Forwarded-For": "10.9.9.9"}
    plain = _remote_addr_app()
    assert plain.get("/whoami", headers=forged, environ_base={"REMOTE_ADDR": "127.0.0.5"}).text == (
        "127.0.0.5"
    )
    behind_one = _remote_addr_app(TRUSTED_PROXIES=1)
    chain = {"X-Forwarded-For": "10.9.9.9, 172.16.0.7"}  # forged by the client, then the proxy's
    answer = behind_one.get("/whoami", headers=chain, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert answer.text == "172.16.0.7"


def test_an_old_setting_name_still_works_and_warns(monkeypatch):
    monkeypatch.setenv("ARCADE_ANALYSE_WORKERS", "3")
    with pytest.warns(FutureWarning) as caught:
        app = make_app(MAX_QUEUE=7)
    assert sorted(str(w.message).split(";")[0] for w in caught) == [
        "ARCADE_ANALYSE_WORKERS is now ARCADE_QUICK_WORKERS",
        "ARCADE_MAX_QUEUE is now ARCADE_QUICK_QUEUE",
    ]
    assert app.config["QUICK_WORKERS"] == 3 and app.config["QUICK_QUEUE"] == 7
    assert "ANALYSE_WORKERS" not in app.config and "MAX_QUEUE" not in app.config
    with pytest.warns(FutureWarning):  # the new name, when given, wins
        assert make_app(QUICK_WORKERS=1).config["QUICK_WORKERS"] == 1
    with pytest.warns(FutureWarning, match="ARCADE_SOLVE_WORKERS"):
        assert from_environment({"ARCADE_SOLVE_WORKERS": "5"})["LONG_WORKERS"] == 5


# -- one parser for (game, board, options), one policy for unknown options ---------------


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"game": "npuzzle", "board": "1 2 3 4 5 6 7 0 8", "capacity": 4}, "capacity"),
        ({"game": "klotski", "board": "A", "size": 3}, "size"),
        ({"game": "npuzzle", "board": "1 2 3 4 5 6 7 0 8", "colour": "red"}, "colour"),
    ],
)
def test_an_option_the_game_does_not_declare_is_refused_everywhere(client, fields, words):
    """Socket.IO, the editor's API and the players' API read the request with one parser:
    another game's option, or a name no game declares, is an error naming it."""
    from webapp.live.validation import parse_job_request
    from webapp.puzzle_request import RequestRefused

    with pytest.raises(RequestRefused, match=words):
        parse_job_request(fields)
    game, board = fields["game"], fields["board"]
    options = {k: v for k, v in fields.items() if k not in ("game", "board")}
    body = {"game": game, "board": board, "options": options}
    editor = client.post("/api/validate", json=body)
    assert editor.status_code == 400 and words in editor.get_json()["error"]
    result = client.post("/api/results", json={**body, "states": [board], "seconds": 1})
    assert result.status_code == 400 and words in result.get_json()["error"]


def test_the_options_a_game_declares_pass_the_parser_typed():
    from webapp.puzzle_request import PuzzleRequest

    asked = PuzzleRequest.from_fields(
        {"game": "watersort", "board": "AB,BA,,", "capacity": "2", "id": 7, "metric": None},
        reserved=("id",),
    )
    assert asked == PuzzleRequest("watersort", "AB,BA,,", {"capacity": 2})


@pytest.mark.parametrize("board", ["BCC./BDD./..EE", "AABB/AABB/...."])
def test_the_editor_says_what_a_klotski_board_needs_in_page_words(client, board):
    """The editor shows the solver's message as it is: no command-line flag in it."""
    reply = client.post("/api/validate", json={"game": "klotski", "board": board}).get_json()
    assert reply["ok"] is False
    assert "2x2" in reply["error"] and "--" not in reply["error"], reply["error"]


@pytest.mark.parametrize("colours", [4, 7])
def test_the_new_game_pickers_start_at_the_puzzle_on_screen(client, colours):
    """A 4-colour water sort opened by its board: the colour picker says 4, not the default."""
    game = catalogue.get("watersort")
    made = game.generate({"colours": colours, "capacity": 4, "empty": 2}, 1, False)
    page = client.get("/play/watersort?" + urlencode({"board": made["board"], "capacity": 4}))
    html = page.get_data(as_text=True)
    picker = re.search(r'<select name="colours".*?</select>', html, re.S)[0]
    assert re.findall(r'<option value="(\d+)" selected>', picker) == [str(colours)]
