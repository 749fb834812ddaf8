"""One server per data folder: `make run` (python -m webapp) warns when another server
already uses the same folder (issue 34)."""

import logging
import os
import subprocess
import sys

import webapp.__main__ as entry

HOLD = (
    "import sys; from webapp.serve.folder import claim; "
    "assert claim(sys.argv[1]) is None; print('held', flush=True); sys.stdin.read()"
)


def test_a_second_server_on_the_same_data_folder_is_warned(tmp_path, monkeypatch, caplog):
    started, held = [], []
    monkeypatch.setattr("webapp.serve.folder._held", held)  # this test's claims, let go at its end
    monkeypatch.setattr("webapp.serve.server.ArcadeServer.run", lambda self: started.append(1))
    monkeypatch.setenv("ARCADE_DATA_DIR", str(tmp_path))
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout.readline() == "held\n"
        with caplog.at_level(logging.WARNING, logger="webapp"):
            entry.main(["--port", "0"])
        warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert any(f"process {other.pid}" in line and str(tmp_path) in line for line in warned), (
            warned
        )
        assert started == [1]  # a warning, not a refusal: the server still starts
    finally:
        other.communicate("")
    # the other server gone, the folder is free again: no warning
    caplog.clear()
    free = tmp_path / "free"
    monkeypatch.setenv("ARCADE_DATA_DIR", str(free))
    with caplog.at_level(logging.WARNING, logger="webapp"):
        entry.main(["--port", "0"])
    assert not [r for r in caplog.records if "already uses" in r.getMessage()]
    assert len(held) == 1
    for fd in held:
        os.close(fd)
