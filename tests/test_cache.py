"""The disk cache: builds once, survives bad files, and one build serves racing threads."""
import threading
import time

from solver.core import tables as cache


def test_builds_once_then_reads_from_disk(isolated_cache):
    calls = []
    build = lambda: calls.append(1) or {"table": [1, 2, 3]}
    assert cache.load_or_build("test-once", build) == {"table": [1, 2, 3]}
    assert cache.load_or_build("test-once", build) == {"table": [1, 2, 3]}
    assert len(calls) == 1


def test_a_corrupt_file_is_rebuilt_not_trusted(isolated_cache):
    cache.load_or_build("test-corrupt", lambda: [1])
    (path,) = isolated_cache.glob("test-corrupt.*")
    path.write_bytes(b"not a pickle")
    assert cache.load_or_build("test-corrupt", lambda: [2]) == [2]


def test_racing_threads_share_one_build(isolated_cache):
    calls = []

    def slow_build():
        calls.append(1)
        time.sleep(0.3)
        return "built"

    results = []
    threads = [threading.Thread(target=lambda: results.append(
        cache.load_or_build("test-race", slow_build))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert results == ["built"] * 4
    assert len(calls) == 1
