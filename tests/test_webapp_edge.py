"""The HTTP edge: compression, fingerprinted static URLs, security headers, error pages."""

import gzip
import json
import re
import socket
from html.parser import HTMLParser
from pathlib import Path

import pytest
from gunicorn.http.errors import LimitRequestLine

from solver import catalogue
from webapp.edge import LONG_CACHE, MAX_URL_BYTES, raw_error, static_fingerprint
from webapp.serve.server import GeventServerWorker

GAMES = list(catalogue.games())
PAGES = ["/", *(f"/play/{g}" for g in GAMES), *(f"/editor/{g}" for g in GAMES)]


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


class Scripts(HTMLParser):
    """Every <script>'s attributes, the page's asset URLs and its manifest's."""

    def __init__(self):
        super().__init__()
        self.scripts, self.urls, self.manifests = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "link" and attrs.get("rel") == "manifest":
            self.manifests.append(attrs["href"])  # made by the app, naming today's icons
            return
        url = attrs.get("src") or (attrs.get("href") if tag == "link" else None)
        if url:
            self.urls.append(url)


def parsed(response) -> Scripts:
    parser = Scripts()
    parser.feed(response.get_data(as_text=True))
    return parser


def test_pages_are_compressed_when_the_browser_asks(client):
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers
    packed = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 3


@pytest.mark.parametrize("path", PAGES)
def test_every_asset_a_page_loads_is_fingerprinted_and_cached_for_a_year(client, app, path):
    stamp = app.extensions["static_fingerprint"]
    urls = parsed(client.get(path)).urls
    assert urls
    for url in urls:
        assert url.startswith(f"/static/{stamp}/"), url
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.cache_control.max_age == LONG_CACHE
        assert response.cache_control.immutable


@pytest.mark.parametrize("path", PAGES)
def test_every_page_names_the_manifest_whose_icons_are_todays_files(client, app, path):
    stamp = app.extensions["static_fingerprint"]
    assert parsed(client.get(path)).manifests == ["/manifest.webmanifest"]
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    icons = manifest.get_json()["icons"]
    assert [icon["sizes"] for icon in icons] == ["192x192", "512x512"]
    for icon in icons:
        assert icon["src"].startswith(f"/static/{stamp}/")
        assert client.get(icon["src"]).status_code == 200


def test_the_service_worker_keeps_every_static_file_and_the_free_pages(client, app):
    """``/sw.js`` (scope ``/``) precaches today's fingerprinted files and the pages that
    open no ranked attempt, and is revalidated so a deploy's worker is seen at once."""
    stamp = app.extensions["static_fingerprint"]
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and worker.cache_control.no_cache
    body = worker.get_data(as_text=True)
    first, _script = body.split("\n", 1)
    kept = json.loads(first.removeprefix("self.ARCADE_OFFLINE = ").removesuffix(";"))["precache"]
    folder = Path(app.static_folder)
    files = {
        f"/static/{stamp}/{p.relative_to(folder).as_posix()}"
        for p in folder.rglob("*")
        if p.is_file()
    }
    assert files <= set(kept)
    assert "/" in kept and "/play/klotski" in kept
    assert not [url for url in kept if "level=" in url or "daily=" in url]
    assert client.get("/offline").status_code == 200


def test_unfingerprinted_and_stale_static_urls_are_revalidated(client):
    for url in ("/static/js/main.js", "/static/0123456789ab/js/main.js"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.cache_control.no_cache and not response.cache_control.immutable


def test_the_fingerprint_changes_with_any_static_file(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("1")
    before = static_fingerprint(tmp_path)
    assert static_fingerprint(tmp_path) == before
    (tmp_path / "js" / "a.js").write_text("2")
    assert static_fingerprint(tmp_path) != before


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page", "/healthz"])
def test_security_headers_and_a_csp_without_inline_scripts(client, path):
    response = client.get(path)
    csp = dict(
        part.strip().split(" ", 1)
        for part in response.headers["Content-Security-Policy"].split(";")
    )
    assert (
        csp["script-src"] == "'self'"
        and "unsafe" not in response.headers["Content-Security-Policy"]
    )
    assert csp["frame-ancestors"] == "'none'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    if response.mimetype == "text/html":
        for script in parsed(response).scripts:  # only files, or JSON data blocks
            assert script.get("src") or script.get("type") == "application/json", script


@pytest.mark.parametrize("path", PAGES)
def test_pages_have_a_description_and_a_favicon(client, path):
    page = client.get(path).get_data(as_text=True)
    assert re.search(r'<meta name="description" content="[^"]{40,}">', page)
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert client.get(icon).status_code == 200


def styled(response, status: int, words: str):
    page = response.get_data(as_text=True)
    assert response.status_code == status
    assert "<main" in page and "Back to the lobby" in page and words in page
    assert "arcade.css" in page


def test_error_pages_are_styled(client):
    styled(client.get("/no-such-page"), 404, "no such page")
    styled(client.post("/"), 405, "does not take")
    styled(client.get("/play/npuzzle?x=" + "a" * MAX_URL_BYTES), 414, "longer than")
    assert client.get("/play/npuzzle?x=" + "a" * 1000).status_code == 200


def test_api_errors_stay_json(client):
    response = client.get("/api/no-such-thing")
    assert response.status_code == 404 and response.json["error"]
    big = client.post("/api/validate", data="x" * 100_000, content_type="application/json")
    assert big.status_code == 413 and big.json["error"]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("distance=abc", "distance must be a whole number"),
        ("distance=30", "distance=30 makes a new puzzle only with seed=N or daily=1"),
    ],
)
def test_a_generator_option_without_a_seed_is_not_ignored(client, query, words):
    game = next(
        g
        for g, decl in catalogue.games().items()
        if any(o.name == "distance" for o in decl.generator)
    )
    response = client.get(f"/play/{game}?{query}")
    assert response.status_code == 400
    assert words in response.get_data(as_text=True).replace("&#39;", "'").replace("\\u0027", "'")


def test_gunicorn_answers_an_overlong_request_line_with_the_styled_page(app):
    """What the gunicorn worker sends when gunicorn refuses a request line (over 8,190 bytes)."""
    worker = GeventServerWorker.__new__(GeventServerWorker)
    worker.wsgi = app
    ours, theirs = socket.socketpair()
    with ours, theirs:
        worker.handle_error(None, ours, ("127.0.0.1", 1), LimitRequestLine(20_000, 8190))
        ours.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := theirs.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 414")
    assert b"Content-Security-Policy" in head
    assert b"Address too long" in body
    assert reply == raw_error(app, 414)
