"""Reading a JSON body strictly: every number a plain, finite one of sane size.

Python's ``json.loads`` accepts what no browser sends: ``NaN``, ``Infinity``,
``1e400`` (which becomes ``inf``) and integers of thousands of digits, which
later blow up far from the parser (``math.isfinite(10**400)`` raises
``OverflowError``, ``str()`` of a 5,000-digit int raises ``ValueError``). Every
JSON endpoint reads its body through :func:`loads`, so such a number is a 400
naming the problem, before any handler sees it.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: no field of any endpoint needs more digits (a week in hundredths of a second has 8)
MAX_DIGITS = 20


class BadJson(ValueError):
    """A body that is not JSON, or holds a number no endpoint accepts; the message says which."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadJson(f"numbers may have at most {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise BadJson(f"numbers may have at most {MAX_DIGITS} digits")
    value = float(text)
    if not math.isfinite(value):
        raise BadJson(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise BadJson(f"{name} is not a number JSON allows")


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``; raises :class:`BadJson` (a ValueError) with a short
    reason for broken JSON, NaN/Infinity, overflowing or over-long numbers, and nesting
    deeper than the parser's recursion limit."""
    try:
        return json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except BadJson:
        raise
    except RecursionError:
        raise BadJson("the JSON is nested too deeply") from None
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        raise BadJson("the body is not valid JSON") from None
