"""Shared fixtures: the table cache, the app and its clients, a live server, and Debian's
Chromium. Shared code that is not a fixture lives in ``tests/helpers``."""

import itertools
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# no per-example time limit: on a shared machine one slow example is not a failure
settings.register_profile("arcade", deadline=None)
settings.load_profile("arcade")

#: the table folder every test run shares (``make clean`` removes it)
SHARED_CACHE = Path(__file__).resolve().parent.parent / "test-artifacts" / "table-cache"


@pytest.fixture(scope="session", autouse=True)
def shared_table_cache():
    """Every test, and every process a test starts, reads and saves tables in one folder.

    The folder outlives the session: a table file's name carries a fingerprint of
    the code that builds it, so an edited builder writes a new file instead of
    reading an old one, and a checkout builds the slow tables (the 15-puzzle
    databases) once, not once per session. One test in ``test_cache.py`` builds
    every table cold in a fresh folder and checks this folder holds the same tables.
    """
    SHARED_CACHE.mkdir(parents=True, exist_ok=True)
    old = os.environ.get("PUZZLE_ARCADE_CACHE")
    os.environ["PUZZLE_ARCADE_CACHE"] = str(SHARED_CACHE)
    yield SHARED_CACHE
    if old is None:
        os.environ.pop("PUZZLE_ARCADE_CACHE", None)
    else:
        os.environ["PUZZLE_ARCADE_CACHE"] = old


@pytest.fixture(scope="session", autouse=True)
def throwaway_data_dir(tmp_path_factory):
    """Servers the tests start keep their players in a throwaway folder, never in the
    user's data directory (the default SQLite file and the cookie secret live there)."""
    old = os.environ.get("ARCADE_DATA_DIR")
    os.environ["ARCADE_DATA_DIR"] = str(tmp_path_factory.mktemp("data"))
    yield
    if old is None:
        os.environ.pop("ARCADE_DATA_DIR", None)
    else:
        os.environ["ARCADE_DATA_DIR"] = old


@pytest.fixture
def isolated_cache(tmp_path, monkeypatch):
    """A fresh, empty table folder for this test only (cold builds, planted bad files)."""
    path = tmp_path / "table-cache"
    path.mkdir()
    monkeypatch.setenv("PUZZLE_ARCADE_CACHE", str(path))
    return path


@pytest.fixture(scope="session")
def npuzzle_tables():
    """The N-puzzle tables in the shared folder (built there at most once per checkout)
    and the compiled searches loaded, for tests whose subject needs them present, not
    built: without this such a test passed only after the cold-build test had run."""
    from solver.npuzzle.domain import warm_tables

    warm_tables()


@pytest.fixture(scope="session")
def cold_table_folder(tmp_path_factory):
    """One empty table folder for the run's cold builds: the cold-cache CLI solve builds
    the 15-puzzle databases in it, then the cold build of every table adds the rest,
    so no table is built from nothing twice in a run."""
    return tmp_path_factory.mktemp("cold-tables")


def pytest_collection_modifyitems(items):
    """The cold builds run first, in their ``order``: on a fresh checkout they also fill
    the shared folder, so no other test (or server a test starts) builds the tables again."""

    def rank(item):
        marker = item.get_closest_marker("cold_tables")
        return (0, marker.kwargs.get("order", 1)) if marker else (1, 0)

    items.sort(key=rank)


@pytest.fixture(scope="session")
def live_server():
    """The real app on a free loopback port (websockets work); yields its base URL."""
    from helpers.apps import make_app, serving

    # proofs the pages wait for (a 56-move 15-puzzle: ~2 s alone) must not run out of the
    # default 5 s analysis budget on a machine busy with other work
    # races: a 1 s countdown and a short race, so a browser test races in seconds
    # players: every browser context is a new player from 127.0.0.1, more than the
    # hourly share of new players one address gets by default (a test of it has its own app)
    app = make_app(
        ANALYSE_SECONDS=30,
        RACE_COUNTDOWN_SECONDS=1,
        RACE_SECONDS=6,
        RACE_PUZZLES=2,
        NEW_PLAYERS_PER_ADDRESS=500,
    )
    with serving(app) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium headless shell (``scripts/ensure-chromium.sh``; a third
    less CPU than the full browser's headless mode, the browser tests' largest cost),
    else its full Chromium: Playwright cannot download its own build here."""
    path = (
        shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    args = dict(browser_type_launch_args)
    if path:
        args["executable_path"] = path
    args["args"] = CHROMIUM_FLAGS
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Every page gets :data:`helpers.browser.CONTEXT`: reduced motion and no service
    worker (``test_browser_support`` and ``test_browser_offline`` check those two)."""
    from helpers.browser import CONTEXT

    return {**browser_context_args, **CONTEXT}


@pytest.fixture(scope="module")
def app(request, tmp_path_factory):
    """The module's app: the test settings (Flask's tutorial layout; ``helpers.apps``)
    under the module's own, given by its marker (``pytestmark = pytest.mark.app(RATE_LIMIT=0)``),
    with a data folder of its own. No module defines another ``app``; the players'
    modules use :func:`players_app` (both databases, the test's clock) instead."""
    from helpers.apps import make_app

    marker = request.node.get_closest_marker("app")
    settings = {
        "DATA_DIR": str(tmp_path_factory.mktemp("app")),
        **(marker.kwargs if marker else {}),
    }
    return make_app(**settings)


@pytest.fixture
def client(app):
    """An HTTP test client of the module's ``app``."""
    return app.test_client()


@pytest.fixture
def inbox(app):
    """A Socket.IO test client of the module's ``app`` fixture, collecting its events."""
    from helpers.sockets import Inbox

    client = app.extensions["socketio"].test_client(app)
    yield Inbox(client)
    if client.is_connected():
        client.disconnect()


@pytest.fixture(scope="session")
def postgres_cluster():
    """One throwaway PostgreSQL cluster on loopback for the whole session."""
    import tempfile

    from helpers.postgres import Cluster

    from harness.loopback import free_port

    if not Cluster.available():
        pytest.fail("PostgreSQL is not installed: run scripts/ensure-postgres.sh (make test does)")
    cluster = Cluster(Path(tempfile.mkdtemp(prefix="arcade-pg-")), free_port())
    cluster.start()
    yield cluster
    cluster.stop()
    shutil.rmtree(cluster.folder, ignore_errors=True)


_DATABASE_NUMBERS = itertools.count()


def _database_name() -> str:
    return f"t{os.getpid()}_{next(_DATABASE_NUMBERS)}"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request, tmp_path):
    """An empty database, once on SQLite and once on PostgreSQL: the migrations' tests."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'arcade.sqlite3'}"
    return request.getfixturevalue("postgres_cluster").create(_database_name())


def _migrated(url: str) -> None:
    from webapp.storage.database import Database

    db = Database(url)
    db.upgrade()
    db.close()  # PostgreSQL copies a template only while nobody is connected to it


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file at the newest schema, copied for each test: migrating an empty
    database took a test a fifth of a second, and hundreds of tests start from one
    (the migrations' own tests take ``empty_database_url``)."""
    path = tmp_path_factory.mktemp("migrated") / "arcade.sqlite3"
    _migrated(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def migrated_postgres(postgres_cluster) -> str:
    """The name of a PostgreSQL database at the newest schema, the template of each test's."""
    name = _database_name()
    _migrated(postgres_cluster.create(name))
    return name


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A database at the newest schema with no rows, once on SQLite and once on
    PostgreSQL: the storage tests run on both."""
    if request.param == "sqlite":
        path = tmp_path / "arcade.sqlite3"
        shutil.copy(request.getfixturevalue("migrated_sqlite"), path)
        return f"sqlite:///{path}"
    return request.getfixturevalue("postgres_cluster").create(
        _database_name(), template=request.getfixturevalue("migrated_postgres")
    )


@pytest.fixture(scope="session")
def gevent_server(tmp_path_factory):
    """One production server (gunicorn's gevent worker) for the whole session, with
    gevent's monitor thread reporting any 0.1 s block of its event loop: a
    :class:`helpers.gevent_server.GeventServer` (``.url``; ``.mark()`` then
    ``.assert_no_block(mark)`` fails a test whose requests blocked the loop)."""
    from helpers.gevent_server import GeventServer

    server = GeventServer(tmp_path_factory.mktemp("gevent-server"))
    yield server
    server.stop()


@pytest.fixture
def clock():
    """A clock the test moves by hand (``helpers.players.Clock``), as the players' app's."""
    from helpers.players import Clock

    return Clock()


@pytest.fixture
def sqlite_app(tmp_path, clock):
    """The players' app on SQLite only, with the test's clock."""
    from helpers.players import build_app

    app = build_app(f"sqlite:///{tmp_path / 'arcade.sqlite3'}", clock, tmp_path)
    yield app
    app.extensions["players"].db.close()


@pytest.fixture
def players_app(database_url, clock, tmp_path):
    """The players' app on both databases with the test's clock, its daily made in the
    test process; the modules about players use it as their ``app``."""
    from helpers.players import build_app

    app = build_app(database_url, clock, tmp_path)
    yield app
    app.extensions["players"].db.close()
