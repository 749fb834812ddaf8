"""The one exception type bad input raises, so callers can catch it in one place."""

from __future__ import annotations


class BoardError(ValueError):
    """A board, option or request that cannot be parsed or does not make sense.

    The message names the problem in words a player understands, for example
    ``row 3 has 5 cells, expected 4``; the CLI prints it as its one line on stderr
    and the web server sends it back as the ``error`` event's message. It is kept as
    plain data too: ``template`` (``row %(row)s has ...``, marked for translation with
    :func:`~solver.core.text.N_`) and its ``params``, so the web app can say it in the
    player's language while the solver stays free of web code.
    """

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)

    def __reduce__(self) -> tuple[object, tuple[str, dict[str, object]]]:
        # a search process's error reaches the web process with its template intact
        return (_rebuild, (self.template, self.params))


def _rebuild(template: str, params: dict[str, object]) -> BoardError:
    return BoardError(template, **params)
