"""The table store: builds once, survives bad files, one build serves racing threads, and
file names change with the code that builds the tables."""
import threading
import time
from pathlib import Path

import pytest

from solver.core.tables import TableStore


@pytest.fixture
def store():
    return TableStore("test", Path(__file__))


def test_builds_once_then_reads_from_memory_and_disk(isolated_cache, store):
    calls = []
    build = lambda: calls.append(1) or {"table": [1, 2, 3]}
    assert store.get("once", build) == {"table": [1, 2, 3]}
    assert store.get("once", build) == {"table": [1, 2, 3]}          # memory
    store.forget()
    assert store.ready("once")
    assert store.get("once", build) == {"table": [1, 2, 3]}          # disk
    assert len(calls) == 1


def test_read_and_off_modes_never_write(isolated_cache, store):
    assert store.get("read-only", lambda: [1], disk="read") == [1]
    assert store.get("ignored", lambda: [2], disk="off") == [2]
    assert not store.path("read-only").exists() and not store.path("ignored").exists()
    with pytest.raises(ValueError):
        store.get("bad", lambda: [3], disk="sometimes")


def test_a_corrupt_or_invalid_file_is_rebuilt_not_trusted(isolated_cache, store):
    store.get("corrupt", lambda: [1])
    (path,) = isolated_cache.glob("test-corrupt-*")
    path.write_bytes(b"not a pickle")
    store.forget()
    assert store.get("corrupt", lambda: [2]) == [2]
    store.forget()
    assert store.get("corrupt", lambda: [3], valid=lambda value: value == [3]) == [3]


def test_file_names_carry_the_fingerprint_of_the_building_code(tmp_path):
    code = tmp_path / "builder.py"
    code.write_text("RULES = 1\n")
    first = TableStore("fam", code)
    code.write_text("RULES = 2\n")
    second = TableStore("fam", code)
    assert first.file_name("t").startswith("fam-t-")
    assert first.file_name("t") != second.file_name("t")
    assert TableStore("fam", tmp_path / "gone.py").code != second.code


def test_racing_threads_share_one_build(isolated_cache, store):
    calls = []

    def slow_build():
        calls.append(1)
        time.sleep(0.3)
        return "built"

    results = []
    threads = [threading.Thread(target=lambda: results.append(
        store.get("race", slow_build))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert results == ["built"] * 4
    assert len(calls) == 1
