"""Words a player reads, kept as plain data so the solver stays free of web code.

The solver speaks English. :func:`N_` marks a message for ``pybabel`` to extract into
the web app's catalogues (it returns the text unchanged); the web layer or the page
translates it there. A message with values is a template with ``%(name)s`` fields,
and :class:`~solver.core.errors.BoardError` carries the template and its values.
"""


def N_(text: str) -> str:
    """``text``, marked for extraction into the translations."""
    return text
