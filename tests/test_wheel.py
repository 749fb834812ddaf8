"""A non-editable install works from any directory: the wheel carries every module,
template and static file, and the installed server serves the pages and all they load.

The wheel is built from a copy of the checkout (``pip wheel --no-deps
--no-build-isolation``, so nothing is downloaded) and installed with ``--no-deps``
into a fresh venv that sees this environment's packages (Flask and the rest)
through a ``.pth`` line; ``python -m webapp`` then runs from an empty directory.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
import venv
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from harness.loopback import free_port
from solver import catalogue

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "solver", "webapp", "templates", "static"]
PAGES = ["/"] + [f"/{page}/{name}" for name in catalogue.games() for page in ("play", "editor")]
#: ``import ... from "x"``, ``import "x"``, ``export ... from "x"``
JS_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^'"]*?(?:\bfrom\s*)?["']([^"']+)["']""", re.MULTILINE
)


def _run(argv, **kwargs):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, **kwargs)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a clean copy of the checkout (no build/ left in it)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, source / name)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-cache-dir",
            "-q",
            "-w",
            str(work / "dist"),
            str(source),
        ]
    )
    (built,) = (work / "dist").glob("*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A venv holding the wheel; returns its python."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home, with_pip=False, symlinks=True)
    python = home / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    # this environment's packages, after the venv's own (a plain path line: its
    # .pth files, such as an editable install of this project, are not run)
    Path(purelib.strip(), "outer.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            str(wheel),
        ]
    )
    return python


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, **extra}


def test_the_wheel_holds_every_module_and_asset(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = set()
    for package in ("solver", "webapp"):
        expected |= {p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py")}
    expected |= {p.relative_to(ROOT).as_posix() for p in (ROOT / "solver").rglob("*.json")}
    expected |= {"solver/py.typed", "webapp/py.typed"}  # PEP 561: the packages are typed
    for folder in ("templates", "static"):
        expected |= {
            "webapp/" + p.relative_to(ROOT).as_posix()
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
        }
    assert expected - names == set()
    assert not [name for name in names if name.startswith("loadtest/")]  # a tool, not the app


class _Assets(HTMLParser):
    """The URLs a page loads: scripts, stylesheets, icons, images."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "img") and attrs.get("src"):
            self.urls.append(attrs["src"])
        elif tag == "link" and attrs.get("href"):
            self.urls.append(attrs["href"])


def _get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode("utf-8", "replace")


def test_the_installed_server_serves_every_page_and_asset(installed, tmp_path):
    where = _run(
        [str(installed), "-c", "import webapp, flask; print(webapp.__file__)"],
        cwd=tmp_path,
        env=_clean_env(),
    )
    assert Path(where.strip()).is_relative_to(installed.parent.parent)  # not the checkout
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115 - the server writes it until it stops
    server = subprocess.Popen(
        [str(installed), "-m", "webapp", "--port", str(port)],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=_clean_env(
            ARCADE_PREBUILD_TABLES="0", ARCADE_LOG_LEVEL="WARNING", ARCADE_DATA_DIR=str(tmp_path)
        ),
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _get(f"{base}/healthz")
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (
                    tmp_path / "server.log"
                ).read_text()[-3000:]
                time.sleep(0.2)
        seen, todo = set(), []
        for page in PAGES:
            status, html = _get(base + page)
            assert status == 200, page
            parser = _Assets()
            parser.feed(html)
            todo += [urljoin(base + page, url) for url in parser.urls]
        assert any(url.endswith(".js") for url in todo) and any(u.endswith(".css") for u in todo)
        # pages load a game's module by name (a dynamic import), so ask for each one
        todo += [f"{base}/static/js/games/{name}.js" for name in catalogue.games()]
        while todo:
            url = todo.pop()
            if url in seen or urlsplit(url).scheme not in ("http", "https"):
                continue  # data: icons are inline
            seen.add(url)
            status, body = _get(url)
            assert status == 200 and body, url
            if url.endswith(".js"):
                todo += [
                    urljoin(url, name)
                    for name in JS_IMPORT.findall(body)
                    # a module path, not a string an `export const` happens to hold
                    if name.startswith((".", "/")) and name.endswith(".js")
                ]
        assert any(url.endswith("/js/board.js") for url in seen)  # reached through imports
        # the migrations travel in the wheel: the server made its database at start-up
        assert _get(f"{base}/api/player")[0] == 200
        assert (tmp_path / "arcade.sqlite3").is_file()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
