"""The explorer (corelogic.explore): programs as the engine's rules see them, golden
files made from what ran, reproducible rounds, the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import PACKAGE_ROOT

import corelogic
from corelogic.explore import Executed, Failure, explore, golden_file, run_program

PAGE = {"pageLoaded": {"items": [], "nextURL": None}}


def test_a_late_answer_to_a_cancelled_or_previous_life_effect_is_stale(library: corelogic.Library) -> None:
    program = [
        ("send", {"queryChanged": {"text": "a"}}),   # effect 1
        ("send", {"queryChanged": {"text": "b"}}),   # cancels 1, effect 2
        ("deliver", 0, PAGE),                        # the late answer to effect 1
        ("restore",),                                # effect 2 is restarted as effect 3
        ("deliver", 1, PAGE),                        # effect 2 belongs to the previous life
        ("output", "patch"),
        ("deliver", 2, PAGE),                        # the restored load answers
    ]
    failure, executed = run_program("search", program, library=library)
    assert failure is None
    ran = [(e.action, e.effect, e.status) for e in executed]
    assert ran == [("send", None, "ok"), ("send", None, "ok"), ("deliver", 1, "stale"), ("restore", None, "ok"),
                   ("deliver", 2, "stale"), ("output", None, "ok"), ("deliver", 3, "ok")]
    assert executed[3].first_effect_id == 3


def test_a_golden_file_starts_from_the_last_restore_with_ids_as_a_new_system_hands_them_out() -> None:
    restored = {"count": 2}
    executed = [
        Executed(1, "send", argument="increment", after={"count": 1}),
        Executed(2, "restore", before={"count": 1}, after=restored, first_effect_id=7, life=1),
        Executed(3, "deliver", argument="increment", effect=8, life=1),
        Executed(4, "deliver", argument="increment", effect=5, life=0),
        Executed(5, "output", argument="patch", life=1),
        Executed(6, "send", argument="increment", life=1),
        Executed(7, "send", argument="increment", life=1),
    ]
    failure = Failure("invariant", "small", "count is 5", step=6)
    golden = golden_file("counter", failure, executed, description="d")
    assert golden is not None
    assert golden["state"] == restored
    assert golden["steps"] == [
        {"deliver": {"effect": 2, "event": "increment"}, "expect": {}},
        {"deliver": {"effect": 0, "event": "increment"}, "expect": {}},
        {"send": "increment", "expect": {"status": "ok"}},
        {"check": {}, "expect": {"status": "ok", "value": []}},
    ]
    stale = golden_file("counter", Failure("engine", "stale", "reached the reducer", step=4), executed)
    assert stale is not None and stale["steps"][1]["expect"] == {"status": "stale"}
    assert golden_file("counter", Failure("engine", "restore", "lost", step=2), executed) is None


def test_the_same_seed_explores_the_same_programs(library: corelogic.Library) -> None:
    first = explore("playcatch", library=library, seed=5, programs=15)
    second = explore("playcatch", library=library, seed=5, programs=15)
    assert first.ok and second.ok
    assert (first.programs, first.steps) == (second.programs, second.steps)
    assert first.coverage.to_json() == second.coverage.to_json()


def test_coverage_names_what_was_reached_and_what_was_not(library: corelogic.Library) -> None:
    report = explore("playcatch", library=library, seed=1, programs=40, diagram="query:holder")
    assert set(report.coverage.events) <= {"humanThrows", "machineThrows"}
    assert "throwTimer: started" in report.coverage.outcomes
    assert report.coverage.diagram_values == ["human", "machine"]
    assert set(report.coverage.nodes) <= {"human", "machine"}
    text = report.coverage.text()
    assert "event cases never reached:" in text and "values never reached:" in text


def test_the_command_exits_zero_when_nothing_breaks(library: corelogic.Library, tmp_path) -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
    result = subprocess.run([sys.executable, "-m", "corelogic", "explore", "counter", "--library", library.path,
                             "--programs", "10", "--golden-dir", str(tmp_path), "--json", str(tmp_path / "r.json")],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broke no invariant and no rule of the engine" in result.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["failure"] is None and report["programs"] == 10
    assert not list(tmp_path.glob("*/*.json"))


def test_an_unknown_feature_is_a_usage_error(library: corelogic.Library) -> None:
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_ROOT))
    result = subprocess.run([sys.executable, "-m", "corelogic", "explore", "nope", "--library", library.path],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 2 and "no feature 'nope'" in result.stderr
