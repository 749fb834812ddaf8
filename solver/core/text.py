"""Words a player reads, kept as plain data so the solver stays free of web code.

The solver speaks English. :func:`N_` marks a message for ``pybabel`` to extract into
the web app's catalogues (it returns the text unchanged); the web layer or the page
translates it there. A message with values is a template with ``%(name)s`` fields,
and :class:`~solver.core.errors.BoardError` carries the template and its values.
"""

import math

#: decimal digits per bit
LOG10_2 = math.log10(2)


def N_(text: str) -> str:
    """``text``, marked for extraction into the translations."""
    return text


def clipped(text: str, most: int) -> str:
    """``text`` as an error quotes it: whole up to ``most`` characters, cut with "…"
    past them (an error names what it was given, and a line should stay a line)."""
    return text if len(text) <= most else text[:most] + "…"


def number_shown(value: int, most: int = 20) -> str:
    """A whole number as an error quotes it: whole up to ``most`` digits, its first
    ``most`` and "…" past them, never printed whole (Python refuses to print a number of
    over 4,300 digits, and a client's JSON reader one of over 20)."""
    magnitude = abs(value)
    extra = max(0, int(magnitude.bit_length() * LOG10_2) - most)  # digits surely past most
    head = str(magnitude // 10**extra)
    shown = head if len(head) <= most and not extra else head[:most] + "…"
    return ("-" if value < 0 else "") + shown
