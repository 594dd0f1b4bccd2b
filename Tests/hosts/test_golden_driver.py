"""The golden driver itself can fail, and says so the same way through every adapter
that is built. Needs CORELOGIC_LIBRARY (make test-golden-c sets it)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parents[1]
LIBRARY = os.environ.get("CORELOGIC_LIBRARY", str(REPOSITORY / ".build" / "cookbook" / "release" / "libcookbook.so"))
BUILD = REPOSITORY / ".build"
ADAPTERS = {
    "python": [sys.executable, str(REPOSITORY / "bindings" / "python" / "tests" / "golden_adapter.py")],
    "c": [str(BUILD / "c" / "golden_adapter")],
    # The JVM and Node.js adapters when their bindings are built (make jvm, make node).
    "jvm": ["java", f"-Dcorelogic.jni.library={BUILD / 'jvm' / 'libcorelogic_jni.so'}",
            "-cp", f"{BUILD / 'jvm' / 'classes'}:{BUILD / 'jvm' / 'test-classes'}", "dev.corelogic.GoldenAdapter"],
    "node": ["node", str(REPOSITORY / "bindings" / "node" / "test" / "golden_adapter.mjs")],
    # The Swift adapter of the cookbook's features (make test-swift builds it).
    "swift": [str(BUILD / "cookbook" / "debug" / "CookbookGoldenAdapter")],
}
BUILT = {
    "python": True, "c": Path(ADAPTERS["c"][0]).exists(),
    "jvm": (BUILD / "jvm" / "test-classes.stamp").exists(), "node": (BUILD / "node" / "corelogic.node").exists(),
    "swift": Path(ADAPTERS["swift"][0]).exists(),
}

WRONG = {
    "feature": "counter", "description": "wrong on purpose", "state": None,
    "steps": [
        {"send": "increment", "expect": {"status": "ok", "state": {"count": 2}}},
        {"query": "isZero", "expect": {"status": "ok", "value": 0}},
        {"deliver": {"effect": 1, "event": "increment"}, "expect": {"status": "ok"}},
        {"sendRaw": "{", "expect": {"status": "error:json", "error": "no such words"}},
    ],
}


def drive(host, directory, *options, name=None):
    if not BUILT[host]:
        pytest.skip(f"the {host} adapter is not built")
    return subprocess.run([sys.executable, str(HERE / "golden_driver.py"), "--host", name or host, *options, str(directory),
                           LIBRARY, "--", *ADAPTERS[host]], capture_output=True, text=True)


def test_every_built_host_fails_the_edge_files_with_the_same_lines():
    """Tests/hosts/golden-edge, not in --edge mode: the FAIL lines themselves."""
    # Node's JSON.parse reads numbers as doubles (docs/golden-files.md, --inexact-integers).
    options = {"node": ["--inexact-integers"]}
    outputs = {host: drive(host, HERE / "golden-edge", *options.get(host, []), name="any").stdout
               for host in ADAPTERS if BUILT[host]}
    reference = outputs.pop("python")
    assert "FAIL counter/fails-duplicate-key.json" in reference
    for host, output in outputs.items():
        assert output == reference, host


@pytest.mark.parametrize("host", ["c", "python"])
def test_a_wrong_expectation_is_reported_line_by_line_in_both_modes(host, tmp_path):
    (tmp_path / "counter").mkdir()
    (tmp_path / "counter" / "wrong.json").write_text(json.dumps(WRONG))
    done = drive(host, tmp_path)
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("FAIL")]
    expected = [
        "step 1 (send): $.state.count: expected 2, got 1",
        "step 2 (query): $.value: expected 0, got false",
        "step 3 (deliver): status: expected \"ok\", got \"stale\"",
        "step 4 (sendRaw): error: expected a message containing \"no such words\", got \"",
    ]
    for mode in ("", " (patch mode)"):
        got = [line for line in lines if line.startswith(f"FAIL counter/wrong.json{mode}: ")]
        assert len(got) == len(expected), done.stdout
        for line, start in zip(got, expected):
            assert line.startswith(f"FAIL counter/wrong.json{mode}: {start}"), line
    assert f"golden-{host}: 0 passed, 1 failed" in done.stdout
    assert f"golden-{host}-patch: 0 passed, 1 failed" in done.stdout


@pytest.mark.parametrize("host", ["c", "python"])
def test_update_rewrites_the_expectations_and_keeps_error_substrings(host, tmp_path):
    (tmp_path / "counter").mkdir()
    path = tmp_path / "counter" / "wrong.json"
    path.write_text(json.dumps(WRONG))
    done = drive(host, tmp_path, "--update")
    assert "updated counter/wrong.json" in done.stdout, done.stdout + done.stderr
    steps = json.loads(path.read_text())["steps"]
    assert [step["expect"] for step in steps] == [
        {"status": "ok", "state": {"count": 1}, "effects": []},
        {"status": "ok", "value": False},
        {"status": "stale"},
        {"status": "error:json", "error": "no such words"},
    ]
    assert drive(host, tmp_path).returncode == 1  # the kept substring still fails
