"""The explorer finds a planted bug, shrinks it, and writes a golden file that every
runner replays and fails on; the same file passes against the library whose feature is
right (make test-explore).

    test_planted_bug.py --planted LIBPLANTED --cookbook LIBCOOKBOOK --swift-adapter PATH

libplanted (Tests/explore/Sources) serves `search` with a bug in `retry` (an invariant
broken after an interleaving) and `lookup`, whose hand-written guard lets an answer for
another query through; libcookbook serves the real `search`. The explorer is run with the
documented command, twice with one seed for `search` (the same file both times), and the
files go through the golden driver with the C, Python, JVM, Node.js and Swift adapters:
both fail against the planted library, and `search`'s passes against the cookbook's."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
BUILD = REPOSITORY / ".build"
DRIVER = REPOSITORY / "Tests" / "hosts" / "golden_driver.py"
MAX_GOLDEN_STEPS = 4  # two sends (a failure, a retry) and the check


def adapters(swift: str):
    return {
        "c": [str(BUILD / "c" / "golden_adapter")],
        "python": [sys.executable, str(REPOSITORY / "bindings" / "python" / "tests" / "golden_adapter.py")],
        "jvm": ["java", f"-Dcorelogic.jni.library={BUILD / 'jvm' / 'libcorelogic_jni.so'}",
                "-cp", f"{BUILD / 'jvm' / 'classes'}:{BUILD / 'jvm' / 'test-classes'}", "dev.corelogic.GoldenAdapter"],
        "node": ["node", str(REPOSITORY / "bindings" / "node" / "test" / "golden_adapter.mjs")],
        "swift": [swift],
    }


def explore(planted: str, golden: Path, feature: str = "search") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY / "bindings" / "python"))
    return subprocess.run([sys.executable, "-m", "corelogic", "explore", feature, "--library", planted,
                           "--seed", "1", "--programs", "100", "--golden-dir", str(golden), "--case", "planted"],
                          capture_output=True, text=True, env=env, cwd=REPOSITORY)


def replay(host: str, command, golden: Path, library: str) -> subprocess.CompletedProcess:
    options = ["--inexact-integers"] if host == "node" else []
    return subprocess.run([sys.executable, str(DRIVER), "--host", host, *options, str(golden), library, "--", *command],
                          capture_output=True, text=True, cwd=REPOSITORY)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--planted", required=True)
    parser.add_argument("--cookbook", required=True)
    parser.add_argument("--swift-adapter", required=True)
    args = parser.parse_args()
    failures = []

    def check(condition: bool, what: str, detail: str = "") -> None:
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)
            if detail:
                print("     " + detail.replace("\n", "\n     "))

    with tempfile.TemporaryDirectory() as work:
        first, second = Path(work) / "first", Path(work) / "second"
        found = explore(args.planted, first)
        again = explore(args.planted, second)
        print(found.stdout.splitlines()[0] if found.stdout else found.stderr)
        check(found.returncode == 1, "the explorer exits 1 on the planted bug", found.stdout + found.stderr)
        check("invariant 'loadsOnlyWithNextPage' broke" in found.stdout, "it names the broken invariant", found.stdout)
        check("State before the step:" in found.stdout and "replay:" in found.stdout,
              "it explains the failure and prints the command that replays it", found.stdout)
        file = first / "search" / "planted.json"
        check(file.exists(), f"it writes the golden file {file.name}", found.stdout)
        if not file.exists():
            return 1
        golden = json.loads(file.read_text(encoding="utf-8"))
        steps = len(golden["steps"])
        print(f"     shrunk to {steps} golden steps: " + json.dumps([next(iter(s)) for s in golden["steps"]]))
        check(steps <= MAX_GOLDEN_STEPS, f"the program is shrunk to at most {MAX_GOLDEN_STEPS} golden steps")
        check(golden["steps"][-1] == {"check": {}, "expect": {"status": "ok", "value": []}},
              "the file ends with a check that the invariants hold")
        check((second / "search" / "planted.json").read_bytes() == file.read_bytes(),
              "the same seed writes the same file", again.stdout)
        for host, command in adapters(args.swift_adapter).items():
            broken = replay(host, command, first, args.planted)
            check(broken.returncode == 1 and "broken invariants: loadsOnlyWithNextPage" in broken.stdout
                  and f"golden-{host}: 0 passed, 1 failed" in broken.stdout
                  and f"golden-{host}-patch: 0 passed, 1 failed" in broken.stdout,
                  f"{host}: the file fails against the planted bug, in both modes", broken.stdout + broken.stderr)
            fixed = replay(host, command, first, args.cookbook)
            check(fixed.returncode == 0 and f"golden-{host}: 1 passed, 0 failed" in fixed.stdout,
                  f"{host}: the file passes against the right feature", fixed.stdout + fixed.stderr)

        lookup = Path(work) / "lookup"
        found = explore(args.planted, lookup, "lookup")
        print(found.stdout.splitlines()[0] if found.stdout else found.stderr)
        check(found.returncode == 1 and "invariant 'resultIsForTheQuery' broke" in found.stdout,
              "lookup: the explorer finds the answer that slips through the guard", found.stdout + found.stderr)
        file = lookup / "lookup" / "planted.json"
        golden = json.loads(file.read_text(encoding="utf-8")) if file.exists() else {"steps": []}
        print(f"     shrunk to {len(golden['steps'])} golden steps: " + json.dumps(golden["steps"]))
        check(0 < len(golden["steps"]) <= 3, "lookup: shrunk to an answer for another query and the check")
        for host, command in adapters(args.swift_adapter).items():
            broken = replay(host, command, lookup, args.planted)
            check(broken.returncode == 1 and "broken invariants: resultIsForTheQuery" in broken.stdout,
                  f"{host}: the lookup file fails against the planted bug", broken.stdout + broken.stderr)
    print(f"planted bug: {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
