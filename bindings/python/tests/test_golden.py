"""Every golden file (Examples/Cookbook/golden, docs/golden-files.md) through the binding.

The Swift engine in-process and the C runner run the same files: the three
hosts must agree. A difference is reported as
``FAIL <file>: step <n> (<action>): <path>: expected …, got …``.

Every file also runs in patch mode (``output="patch"``, every query of the
feature watched): the expected states are compared with the binding's mirror,
each patch must continue from the previous revision, ``jsonpatch`` (an
independent RFC 6902 implementation) must turn the previous state into the
same mirror, and ``batch.queries`` must hold exactly the watched queries whose
value changed.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import jsonpatch
import pytest

import corelogic
from conftest import REPOSITORY

import os

# CORELOGIC_GOLDEN_DIR runs files kept elsewhere, as the Swift runner does.
GOLDEN = Path(os.environ.get("CORELOGIC_GOLDEN_DIR") or REPOSITORY / "Examples" / "Cookbook" / "golden")
FILES = sorted(path for path in GOLDEN.glob("*/*.json"))

# Filled as the files run; conftest prints the summary lines.
RESULTS = {"passed": 0, "failed": 0}
PATCH_RESULTS = {"passed": 0, "failed": 0}


def difference(expected: Any, actual: Any, path: str = "$") -> Optional[str]:
    """The first difference, semantically: objects by key, numbers by value,
    booleans never equal to numbers."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected.keys() | actual.keys():
            if key not in actual:
                return f"{path}.{key}: expected {json.dumps(expected[key])}, got nothing"
            if key not in expected:
                return f"{path}.{key}: expected nothing, got {json.dumps(actual[key])}"
            found = difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} elements, got {len(actual)}: {json.dumps(actual)}"
        for index, (left, right) in enumerate(zip(expected, actual)):
            found = difference(left, right, f"{path}[{index}]")
            if found:
                return found
        return None
    numbers = (int, float)
    if (
        isinstance(expected, numbers) and isinstance(actual, numbers)
        and not isinstance(expected, bool) and not isinstance(actual, bool)
    ):
        return None if expected == actual else f"{path}: expected {expected}, got {actual}"
    if type(expected) is type(actual) and expected == actual:
        return None
    return f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"


COMPARISONS = json.loads((REPOSITORY / "Examples" / "Cookbook" / "golden" / "comparisons.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", COMPARISONS, ids=[case["rule"] for case in COMPARISONS])
def test_the_comparator_follows_the_shared_cases(case):
    """Examples/Cookbook/golden/comparisons.json: the cases every host's comparator must agree on."""
    found = difference(case["expected"], case["actual"])
    assert (found is None) == case["equal"], found
    if "path" in case:
        assert found is not None and found.startswith(case["path"] + ":"), found


def status_of(exc: Optional[corelogic.CorelogicError], result: Any) -> str:
    if exc is not None:
        return "error:" + exc.status_name.replace("CORELOGIC_ERR_", "").lower()
    return "stale" if result is corelogic.STALE else "ok"


def check_patch(system: corelogic.System, batch: corelogic.Batch, previous: Dict[str, Any], where: str) -> List[str]:
    """Patch mode: what one OK batch must satisfy beyond the file's expectations.
    ``previous`` holds the revision, a copy of the state and the query values
    before the step; it is updated."""
    failures = []
    if batch.revision != previous["revision"] + batch.steps:
        failures.append(f"{where}: revision {batch.revision} after {batch.steps} steps from {previous['revision']}")
    independent = jsonpatch.apply_patch(previous["state"], batch.patch)
    if independent != batch.state:
        failures.append(f"{where}: jsonpatch gives {json.dumps(independent)}, the mirror is {json.dumps(batch.state)}")
    current = {name: system.query(name) for name in previous["queries"]}
    changed = {name: value for name, value in current.items() if difference(previous["queries"][name], value)}
    if batch.queries != changed:
        failures.append(f"{where}: queries: expected the changed ones {json.dumps(changed)}, got {json.dumps(batch.queries)}")
    previous.update(revision=batch.revision, state=copy.deepcopy(batch.state), queries=current)
    return failures


def run_file(path: Path, library: corelogic.Library, output: str = "full") -> List[str]:
    """Run one golden file; return its FAIL lines (none when it passes)."""
    name = path.relative_to(GOLDEN)
    scenario = json.loads(path.read_text(encoding="utf-8"))
    failures: List[str] = []
    initial = scenario.get("state")
    with corelogic.System(scenario["feature"], initial, library=library, output=output) as system:
        previous: Dict[str, Any] = {}
        if output == "patch":
            names = next(f["queries"] for f in corelogic.features(library) if f["name"] == scenario["feature"])
            previous = {"revision": system.revision, "state": copy.deepcopy(system.resync()), "queries": system.watch(*names)}
            if previous["revision"] != 0:
                failures.append(f"FAIL {name}: revision {previous['revision']} right after creation")
        expect_initial = scenario.get("expectInitial", {})
        for key in ("state", "effects"):
            if key in expect_initial:
                found = difference(expect_initial[key], getattr(system.initial_batch, key), f"$.{key}")
                if found:
                    failures.append(f"FAIL {name}: expectInitial: {found}")
        for number, step in enumerate(scenario["steps"], start=1):
            action = next(iter(step))
            argument, expect = step[action], step["expect"]
            before = system.state_json
            exc: Optional[corelogic.CorelogicError] = None
            result: Any = None
            try:
                if action == "send":
                    result = system.send(argument)
                elif action == "sendRaw":
                    result = system.send(argument.encode("utf-8", "surrogatepass"))
                elif action == "deliver":
                    event = argument["raw"].encode("utf-8", "surrogatepass") if "raw" in argument else argument["event"]
                    result = system.deliver(argument["effect"], event)
                elif action == "complete":
                    result = system.complete(argument["effect"])
                elif action == "query":
                    result = system.query(argument)
                else:
                    failures.append(f"FAIL {name}: step {number}: unknown action {action!r}")
                    continue
            except corelogic.CorelogicError as error:
                exc = error
            where = f"FAIL {name}: step {number} ({action})"
            status = status_of(exc, result)
            if status != expect["status"]:
                detail = f": {exc.message}" if exc is not None else ""
                failures.append(f"{where}: status: expected {expect['status']}, got {status}{detail}")
                continue
            if exc is not None and "error" in expect and expect["error"] not in exc.message:
                failures.append(f"{where}: error: expected a message containing {expect['error']!r}, got {exc.message!r}")
            if status != "ok":
                # Whatever the file says: a stale or failing input changes nothing.
                if system.state_json != before:
                    failures.append(f"{where}: the state changed on a {status} step")
                continue
            if action == "query":
                if "value" in expect:
                    found = difference(expect["value"], result, "$.value")
                    if found:
                        failures.append(f"{where}: {found}")
                continue
            for key in ("state", "effects", "steps"):
                if key in expect:
                    found = difference(expect[key], getattr(result, key), f"$.{key}")
                    if found:
                        failures.append(f"{where}: {found}")
            if output == "patch":
                failures.extend(check_patch(system, result, previous, where))
        if output == "patch" and previous["state"] != system.state:
            failures.append(f"FAIL {name}: at the end the mirror differs from the state")
    return failures


def test_there_are_golden_files_for_every_feature(library):
    features = {feature["name"] for feature in corelogic.features(library)}
    covered = {path.parent.name for path in FILES}
    assert features <= covered, f"features without golden files: {sorted(features - covered)}"


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(GOLDEN)) for path in FILES])
def test_golden_file(path, library):
    failures = run_file(path, library)
    RESULTS["failed" if failures else "passed"] += 1
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(GOLDEN)) for path in FILES])
def test_golden_file_in_patch_mode(path, library):
    failures = run_file(path, library, output="patch")
    PATCH_RESULTS["failed" if failures else "passed"] += 1
    assert not failures, "\n".join(failures)


def test_the_runner_reports_a_wrong_expectation(library, tmp_path):
    # The runner itself must be able to fail: a file with a wrong count.
    wrong = tmp_path / "counter" / "wrong.json"
    wrong.parent.mkdir()
    wrong.write_text(json.dumps({
        "feature": "counter", "description": "wrong on purpose", "state": None,
        "steps": [
            {"send": "increment", "expect": {"status": "ok", "state": {"count": 2}}},
            {"query": "isZero", "expect": {"status": "ok", "value": 0}},
            {"deliver": {"effect": 1, "event": "increment"}, "expect": {"status": "ok"}},
        ],
    }))
    global GOLDEN
    saved, GOLDEN = GOLDEN, tmp_path
    try:
        failures = run_file(wrong, library)
    finally:
        GOLDEN = saved
    assert failures == [
        "FAIL counter/wrong.json: step 1 (send): $.state.count: expected 2, got 1",
        "FAIL counter/wrong.json: step 2 (query): $.value: expected 0, got false",
        "FAIL counter/wrong.json: step 3 (deliver): status: expected ok, got stale",
    ]
