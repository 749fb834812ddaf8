"""Shared fixtures: an isolated table cache, a live server, and Debian's Chromium."""
import os
import shutil
import threading

import pytest

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session", autouse=True)
def isolated_cache(tmp_path_factory):
    """Tables are built into a fresh folder, so tests never trust a stale cache."""
    path = tmp_path_factory.mktemp("table-cache")
    old = os.environ.get("PUZZLE_ARCADE_CACHE")
    os.environ["PUZZLE_ARCADE_CACHE"] = str(path)
    yield path
    if old is None:
        os.environ.pop("PUZZLE_ARCADE_CACHE", None)
    else:
        os.environ["PUZZLE_ARCADE_CACHE"] = old


@pytest.fixture(scope="session")
def live_server():
    """The real app on a free loopback port (websockets work); yields its base URL."""
    from werkzeug.serving import make_server

    from webapp import create_app

    app = create_app(testing=True)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch Debian's Chromium: Playwright cannot download its own build here."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    args = dict(browser_type_launch_args)
    if path:
        args["executable_path"] = path
    args["args"] = CHROMIUM_FLAGS
    return args
