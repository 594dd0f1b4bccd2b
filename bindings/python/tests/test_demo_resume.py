"""Persistence on the demo's own flow: a demo killed while a page loads resumes that load."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import corelogic
from conftest import REPOSITORY

DEMO = REPOSITORY / "examples" / "python" / "demo.py"


def start_demo(journal, library, latency):
    env = dict(os.environ, CORELOGIC_LIBRARY=str(library.path), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, str(DEMO), "--journal", str(journal), "--latency", str(latency)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )


def test_killing_the_demo_while_a_page_loads_restarts_that_load_on_restore(tmp_path, library):
    journal = tmp_path / "journal"
    # Slow server: the first page of 'swift' is still loading when the process dies.
    process = start_demo(journal, library, latency=60)
    lines = []
    deadline = time.monotonic() + 30
    try:
        for line in process.stdout:
            lines.append(line)
            if "loadPage q=swift page 1" in line:
                break
            assert time.monotonic() < deadline, "".join(lines)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert any("loadPage q=swift page 1" in line for line in lines), "".join(lines)

    with corelogic.System.restore("search", journal, library=library) as restored:
        assert restored.state["query"] == "swift"
        assert restored.state["shouldLoadNextPage"] is True
        started = restored.initial_batch.started
        assert [s["feedback"] for s in started] == ["loadPage"]
        assert started[0]["request"] == {"url": "/search/repositories?q=swift"}
        assert restored.restore_report["replayed"] >= 5   # one input per key typed


def test_the_resumed_demo_finishes_the_restarted_load(tmp_path, library):
    journal = tmp_path / "journal"
    process = start_demo(journal, library, latency=60)
    try:
        for line in process.stdout:
            if "loadPage q=swift page 1" in line:
                break
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()

    resumed = start_demo(journal, library, latency=0.05)
    output, _ = resumed.communicate(timeout=60)
    assert resumed.returncode == 0, output
    assert "resume" in output and "1 effect(s) to start again" in output, output
    assert "start    #" in output and "loadPage q=swift page 1" in output, output
    assert "items=10 loading=no" in output, output
