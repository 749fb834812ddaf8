"""The HTTP edge: what every response gets on its way out, whatever page made it.

- Compression: flask-compress (gzip/brotli as the browser asks; JS, CSS, HTML, JSON).
- Fingerprinted static files: :func:`asset` gives ``/static/<hash>/<path>``, one
  content hash of the whole ``static/`` tree. The ES modules import each other by
  relative paths, so one prefix for all keeps those imports working and lets every
  file under it be cached for a year (``immutable``): a changed file changes the
  prefix. Plain ``/static/<path>`` stays, revalidated on every use.
- Security headers, a few fixed strings (:data:`SECURITY_HEADERS`) rather than
  flask-talisman, whose defaults (HTTPS redirects, session-cookie rewrites) this
  loopback-first server would have to turn off one by one. The Content-Security-Policy
  allows scripts from this origin only: the pages' ``<script type="application/json">``
  config blocks are data, not scripts, and need no exception.
- Styled error pages (400, 404, 405, 413, 414, 500, 503) from ``error.html``; the API
  keeps its JSON errors. A request line over :data:`MAX_URL_BYTES` is answered 414.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import (
    Flask,
    Response,
    current_app,
    jsonify,
    render_template,
    request,
    send_from_directory,
)
from flask_babel import gettext
from flask_compress import Compress
from werkzeug.exceptions import HTTPException

from solver.core.text import N_

#: the longest path plus query a page accepts (the longest shareable board is far shorter);
#: within gunicorn's request-line limit (``webapp.serve.server``), so both answer alike
MAX_URL_BYTES = 8000
#: a year: fingerprinted files never change under their URL
LONG_CACHE = 365 * 24 * 3600

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

#: what each error page says, by status
ERROR_TEXT = {
    400: (N_("Bad request"), N_("The address asks for something the arcade cannot open.")),
    404: (N_("Not found"), N_("There is no such page or game.")),
    405: (N_("Not allowed"), N_("This address does not take that kind of request.")),
    413: (N_("Too large"), N_("The request is larger than the arcade accepts.")),
    414: (N_("Address too long"), N_("The address is longer than the arcade accepts.")),
    500: (N_("Something went wrong"), N_("The arcade could not answer this request.")),
    503: (N_("Busy"), N_("The arcade is busy; try again in a few seconds.")),
}


def asset_url(filename: str) -> str:
    """A static file's fingerprinted URL (``asset`` in templates) for Python code."""
    return f"/static/{current_app.extensions['static_fingerprint']}/{filename}"


def static_fingerprint(folder: Path) -> str:
    """A short hash of every file's path and content under ``folder``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def error_page(status: int, message: str | None = None, headers: dict | None = None):
    """A styled page for ``status`` (JSON under ``/api/``), with ``message`` if given."""
    title, default = ERROR_TEXT.get(status, ERROR_TEXT[500])
    # in the reader's language: ours, and a message from the catalogue (else as given)
    title, text = gettext(title), gettext(message or default)
    if request.path.startswith("/api/"):
        return jsonify(error=text), status, headers or {}
    page = render_template("error.html", status=status, heading=title, message=text)
    return page, status, headers or {}


def error_response(
    app: Flask, environ: dict, status: int, message: str | None = None, headers: dict | None = None
) -> Response:
    """:func:`error_page` for ``environ``'s request, made outside any view: for WSGI
    middleware that answers before the app routes it."""
    with app.request_context(environ):
        return app.process_response(app.make_response(error_page(status, message, headers)))


def raw_error(app: Flask, status: int) -> bytes:
    """A whole HTTP/1.1 response (``Connection: close``) with the styled page for
    ``status``: for the server to send when a request never reaches the app."""
    with app.test_request_context("/"):
        response = app.process_response(app.make_response(error_page(status)))
    body = response.get_data()
    head = [f"HTTP/1.1 {response.status}", "Connection: close"]
    head += [f"{name}: {value}" for name, value in response.headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class _UrlLimit:
    """WSGI middleware: a path plus query over :data:`MAX_URL_BYTES` gets a styled 414
    before routing (gunicorn passes request lines up to its own, larger limit)."""

    def __init__(self, app: Flask, wsgi):
        self.app, self.wsgi = app, wsgi

    def __call__(self, environ, start_response):
        size = len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", ""))
        if size <= MAX_URL_BYTES:
            return self.wsgi(environ, start_response)
        response = error_response(self.app, {**environ, "PATH_INFO": "/", "QUERY_STRING": ""}, 414)
        return response(environ, start_response)


class SecurityHeaders:
    """WSGI middleware: :data:`SECURITY_HEADERS` on every response, including those no
    Flask view makes (the host guard's refusals, ``/socket.io/``'s answers), each
    header only when the response does not set it itself."""

    def __init__(self, wsgi):
        self.wsgi = wsgi
        self.missing = [(name.lower(), name, value) for name, value in SECURITY_HEADERS.items()]

    def __call__(self, environ, start_response):
        def with_headers(status, headers, exc_info=None):
            present = {name.lower() for name, _value in headers}
            extra = [(name, value) for low, name, value in self.missing if low not in present]
            return start_response(status, [*headers, *extra], exc_info)

        return self.wsgi(environ, with_headers)


#: the cookie ``js/theme.js`` keeps the reader's theme in, and the themes it may name
THEME_COOKIE = "arcade_theme"
THEMES = ("light", "dark")


def chosen_theme() -> str | None:
    """The theme the reader chose (its cookie, set by ``js/theme.js``), written on
    ``<html>`` so the first paint has it; none: the page follows the system."""
    chosen = request.cookies.get(THEME_COOKIE)
    return chosen if chosen in THEMES else None


def install(app: Flask) -> None:
    """Compression, fingerprinted static URLs, security headers and error pages."""
    app.config.setdefault("COMPRESS_MIMETYPES", _COMPRESSED)
    app.config.setdefault("COMPRESS_MIN_SIZE", 512)
    app.config.setdefault("COMPRESS_STREAMING_ENDPOINT_CONDITIONAL", ["static", "asset"])
    Compress(app)
    folder = Path(app.static_folder or "static")
    fingerprint = static_fingerprint(folder)
    app.jinja_env.globals["asset"] = asset_url

    @app.context_processor
    def theme() -> dict:
        return {"theme": chosen_theme()}

    app.extensions["static_fingerprint"] = fingerprint

    @app.get("/static/<string(length=12):stamp>/<path:filename>", endpoint="asset")
    def fingerprinted(stamp: str, filename: str):
        if stamp != fingerprint:  # a page from before a deploy: today's file, not cached
            response = send_from_directory(folder, filename, max_age=0)
            response.cache_control.no_cache = True
            return response
        response = send_from_directory(folder, filename, max_age=LONG_CACHE)
        response.cache_control.immutable = True
        return response

    @app.after_request
    def headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.endpoint == "static":  # unfingerprinted: always revalidate
            response.cache_control.no_cache = True
            response.cache_control.max_age = None
        return response

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        if err.code is None or err.code < 400:
            return err
        return error_page(err.code, err.description if err.code == 400 else None)

    app.wsgi_app = _UrlLimit(app, app.wsgi_app)  # type: ignore[method-assign]  # WSGI wrap


_COMPRESSED = [
    "text/html",
    "text/css",
    "text/plain",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
]
