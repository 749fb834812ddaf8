"""The one exception type bad input raises, so callers can catch it in one place."""


class BoardError(ValueError):
    """A board, option or request that cannot be parsed or does not make sense.

    The message names the problem in words a player understands, for example
    ``row 3 has 5 cells, expected 4``; the CLI prints it as its one line on stderr
    and the web server sends it back as the ``error`` event's message.
    """
