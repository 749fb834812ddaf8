"""The one reader of JSON request bodies, for every route that takes one.

Strict about what no browser sends (:func:`webapp.puzzle_request.strict_json`), and a
clear 4xx :class:`~webapp.puzzle_request.RequestRefused` for every body it cannot read.
"""

from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.exceptions import HTTPException

from solver.core.text import N_

from ..puzzle_request import BadNumber, RequestRefused, strict_json


def read_json_body(limit: int | None = None) -> dict[str, Any]:
    """The request's JSON object; :class:`RequestRefused` when it cannot be read or is not
    one. ``limit`` replaces the app's ``MAX_CONTENT_LENGTH`` for this request.

    Read here rather than by ``request.get_json`` so a broken chunked body, a body
    over the size limit, JSON nested deeper than the parser's recursion limit and a
    number no endpoint takes (:func:`strict_json`) are each a clear 4xx, never a 500.
    """
    if limit is not None:
        request.max_content_length = limit
    try:
        data = request.get_data(cache=True)
    except HTTPException as err:
        if err.code == 413:
            size = request.max_content_length
            raise RequestRefused(
                N_("the request body is over the %(size)s-byte limit"), 413, size=size
            ) from None
        raise RequestRefused(N_("could not read the request body")) from None
    except Exception:  # noqa: BLE001 - a garbled (chunked) body
        raise RequestRefused(N_("could not read the request body")) from None
    try:
        body = strict_json(data)
    except RecursionError:
        raise RequestRefused(N_("the JSON is nested too deeply")) from None
    except BadNumber as err:
        raise RequestRefused(err) from None
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        raise RequestRefused(N_("send a JSON object")) from None
    if not isinstance(body, dict):
        raise RequestRefused(N_("send a JSON object"))
    return body
