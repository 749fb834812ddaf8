"""The table store: builds once, survives bad files, one build serves racing threads, and
file names change with the code that builds the tables; the folder the tests share holds
what a cold build makes."""

import mmap
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from solver.core import mapped
from solver.core.tables import APP_NAME, TableStore, user_cache_dir


@pytest.fixture
def store():
    return TableStore("test", Path(__file__))


@pytest.mark.parametrize(
    "xdg, home",
    [
        (None, "/home/ann"),
        ("/var/cache/ann", "/home/ann"),
        ("/var/cache/ann/", "/home/ann/"),
        ("", "/home/ann"),
        ("relative/cache", "/home/ann"),
        (None, "/"),
        (None, "relative-home"),
        (None, None),
    ],
)
def test_the_cache_folder_is_platformdirs_own(monkeypatch, xdg, home):
    """The tables' folder, found without importing platformdirs where the XDG rule gives
    it, is the one platformdirs gives (a relative or missing ``$HOME`` asks it)."""
    from platformdirs import user_cache_dir as platform_cache_dir

    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert user_cache_dir() == platform_cache_dir(APP_NAME)


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG rule is Linux's")
def test_finding_the_cache_folder_imports_no_platformdirs_on_linux():
    code = (
        "import sys; from solver.core.tables import user_cache_dir; "
        "print(user_cache_dir(), 'platformdirs' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    env["HOME"] = "/home/ann"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    assert out == ["/home/ann/.cache/puzzle-arcade", "False"]


def test_builds_once_then_reads_from_memory_and_disk(isolated_cache, store):
    calls = []

    def build():
        return calls.append(1) or {"table": [1, 2, 3]}

    assert store.get("once", build) == {"table": [1, 2, 3]}
    assert store.get("once", build) == {"table": [1, 2, 3]}  # memory
    store.forget()
    assert store.ready("once")
    assert store.get("once", build) == {"table": [1, 2, 3]}  # disk
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
    threads = [
        threading.Thread(target=lambda: results.append(store.get("race", slow_build)))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert results == ["built"] * 4
    assert len(calls) == 1


# -- the shared folder the tests use ------------------------------------------------------

WARM_EVERY_TABLE = "from solver.catalogue import warm_tables; print(warm_tables())"


def _content(value):
    """What a saved table says, less how long its build took (that differs per build)."""
    fields = vars(value) if hasattr(value, "__dict__") else value
    if isinstance(fields, dict):
        return {
            k: _comparable(v)
            for k, v in fields.items()
            if not (isinstance(k, str) and "seconds" in k)
        }
    return fields


def _comparable(value):
    """Arrays (mapped from the file) as their bytes, so == compares content."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, list | tuple):
        return [_comparable(v) for v in value]
    return value


@pytest.mark.cold_tables
def test_a_cold_build_makes_exactly_what_the_shared_folder_holds(
    cold_table_folder, shared_table_cache
):
    """Tests read tables from a folder that outlives the session (``conftest.py``). This
    test, run first, builds every table from nothing the way a new server does (the
    15-puzzle databases already there were built from nothing by the cold CLI solve
    just before), and
    checks the shared folder holds the same tables under the same names, so a table
    the current code would not build is never trusted (a builder reading code its
    fingerprint does not cover, say). A table the shared folder lacks (a fresh
    checkout, an edited builder) is copied there from this build: the run's only build.
    """
    cold = cold_table_folder  # empty, or holding what the cold CLI solve built
    env = {**os.environ, "PUZZLE_ARCADE_CACHE": str(cold)}
    subprocess.run(
        [sys.executable, "-c", WARM_EVERY_TABLE],
        env=env,
        check=True,
        capture_output=True,
        timeout=900,
    )
    made = sorted(p.name for p in cold.iterdir() if not p.name.startswith("."))
    assert {name.split("-")[0] for name in made} >= {"klotski", "npuzzle"}
    for name in made:
        shared = shared_table_cache / name
        if not shared.exists():
            copy = shared.with_name(f".tmp-{name}")
            shutil.copyfile(cold / name, copy)
            os.replace(copy, shared)
            continue
        fresh = mapped.load(cold / name)
        assert _content(mapped.load(shared)) == _content(fresh), name


# -- arrays mapped from the file, shared by every process ---------------------------------


def _backed_by_mmap(array) -> bool:
    base = array
    while base is not None:
        if isinstance(base, mmap.mmap):
            return True
        nxt = getattr(base, "base", None)
        base = getattr(base, "obj", None) if nxt is None else nxt
    return False


def test_saved_arrays_come_back_mapped_read_only_and_page_aligned(isolated_cache, store):
    table = {"name": "t", "small": np.arange(10, dtype=np.int16), "big": np.arange(1 << 16)}
    store.save("mapped", table)
    store.forget()
    again = store.load("mapped")
    assert again["name"] == "t"
    for key in ("small", "big"):
        assert np.array_equal(again[key], table[key]) and again[key].dtype == table[key].dtype
        assert not again[key].flags.writeable and _backed_by_mmap(again[key])
        assert again[key].ctypes.data % mmap.PAGESIZE == 0


def test_a_cut_short_table_file_is_rebuilt(isolated_cache, store):
    store.get("cut", lambda: {"a": np.arange(5000)})
    path = store.path("cut")
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(mapped.NotATable):
        mapped.load(path)
    store.forget()
    assert store.get("cut", lambda: "rebuilt") == "rebuilt"
