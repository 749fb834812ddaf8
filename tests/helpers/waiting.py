"""Waiting in a test without sleeping to synchronise: poll until something holds."""

import time


def until(check, timeout: float, what: str, every: float = 0.05):
    """Poll ``check()`` until it returns something true, and return that; fail the test
    after ``timeout`` seconds, naming ``what`` never happened."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(every)
