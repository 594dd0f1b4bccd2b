"""Persistence on the demo's own flow: a demo killed while a page loads resumes that load."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import corelogic
from conftest import REPOSITORY

DEMO = REPOSITORY / "Examples" / "python" / "demo.py"


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


def run_until(process, predicate, timeout=60):
    """Reads the demo's output until a line satisfies ``predicate``; returns the lines."""
    lines = []
    deadline = time.monotonic() + timeout
    for line in process.stdout:
        lines.append(line)
        if predicate(line, lines):
            return lines
        assert time.monotonic() < deadline, "".join(lines)
    raise AssertionError("the demo ended first:\n" + "".join(lines))


def pages_arrived(count):
    """After the ``count``-th time a page was applied and the demo showed the settled
    state (the tour then scrolls on at once, so the next load is under way)."""
    def arrived(line, lines):
        return sum(" state " in seen and "items=0 " not in seen and "loading=no" in seen for seen in lines) >= count
    return arrived


def resume_and_finish(journal, library):
    resumed = start_demo(journal, library, latency=0.05)
    output, _ = resumed.communicate(timeout=90)
    assert resumed.returncode == 0, output
    assert "resume" in output and "error=-" in output.splitlines()[-1], output
    return output


@pytest.mark.parametrize("pages", [1, 2])
def test_killed_after_a_page_arrived_the_demo_resumes_on_a_new_server(tmp_path, library, pages):
    # The natural moment to kill it: after a page arrived. The next run has a server
    # on another port, so nothing in the journaled state may name the old one.
    journal = tmp_path / "journal"
    process = start_demo(journal, library, latency=0.3)
    try:
        lines = run_until(process, pages_arrived(pages))
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert sum("-> pageLoaded" in line for line in lines) >= pages, "".join(lines)

    with corelogic.System.restore("search", journal, library=library) as restored:
        state = restored.state
        assert state["query"] in ("swift", "rust"), state
        assert state.get("nextURL", "/").startswith("/"), state
        for started in restored.initial_batch.started:
            if started["feedback"] == "loadPage":
                assert started["request"]["url"].startswith("/"), started

    output = resume_and_finish(journal, library)
    # Resumed and settled: no load failed against the new server.
    assert "loadFailed" not in output, output
    assert "loading=no" in output.splitlines()[-1], output


def test_ctrl_c_says_how_to_resume_and_the_resume_works(tmp_path, library):
    journal = tmp_path / "journal"
    process = start_demo(journal, library, latency=0.3)
    try:
        run_until(process, pages_arrived(1))
        process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, output
    assert f"resume with: python3 {DEMO} --journal {journal}" in output, output
    resume_and_finish(journal, library)
