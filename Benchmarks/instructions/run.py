"""make bench-instructions: instructions per event on each hot path, under callgrind.

Each driver runs one path N times. Every path is run twice, with N_SMALL and N_LARGE
repetitions, and the figure is (instructions(N_LARGE) - instructions(N_SMALL)) divided
by the difference in events: start-up, set-up and tear-down cancel out, and what is
left is the steady-state cost of one event. Callgrind counts the instructions the
process executes (user space, every thread), so the figure does not move with the
machine's load, unlike a time.

    python3 Benchmarks/instructions/run.py ABI_DRIVER SWIFT_DRIVER LIBRARY [--check]

--check exits non-zero when a path misses its target (the targets of issue 17).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
N_SMALL, N_LARGE = 200, 2200
PYTHON_SMALL, PYTHON_LARGE = 200, 1200

# (label, driver kind, path argument, target instructions per event or None)
ROWS = [
    ("C ABI counter \"increment\", with batch", "abi", "counter-batch", 1500),
    ("C ABI counter \"increment\", NULL batch", "abi", "counter-null", 600),
    ("C ABI counter {\"increment\":{}}, NULL batch", "abi", "counter-object-null", None),
    ("C ABI search loadFailed/retry, canonical, NULL batch", "abi", "search-canonical", 3000),
    ("C ABI search loadFailed/retry, short forms, NULL batch", "abi", "search-short", None),
    ("C ABI search loadFailed/retry, canonical, with batch", "abi", "search-canonical-batch", None),
    ("C ABI search cycle (query + 10-item page), batches", "abi", "search-cycle", None),
    ("C ABI playcatch effect round trip, batches", "abi", "playcatch", None),
    ("C ABI counter, journal (interval), NULL batch", "abi", "counter-journal", None),
    ("Swift System<Counter>.send(.increment)", "swift", "counter", 300),
    ("Swift System<Search> loadFailed/retry", "swift", "search", None),
    ("Python system.send(\"increment\") -> Batch", "python", "counter", None),
]

# Non-canonical forms must cost at most this much more than the canonical ones.
FORM_PAIRS = [("counter-object-null", "counter-null"), ("search-short", "search-canonical")]
FORM_RATIO = 1.2


def instructions(command: list[str], env: dict[str, str]) -> int:
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"bench-instructions: {' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    match = re.search(r"Collected : (\d+)", result.stderr)
    if not match:
        sys.exit(f"bench-instructions: no instruction count in callgrind's output:\n{result.stderr}")
    return int(match.group(1))


def events_in(command: list[str], env: dict[str, str]) -> int:
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout
    return int(out.split()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("abi_driver")
    parser.add_argument("swift_driver")
    parser.add_argument("library")
    parser.add_argument("--check", action="store_true", help="fail when a target is missed")
    parser.add_argument("--only", help="run only the paths whose argument contains this text")
    args = parser.parse_args()
    env = dict(os.environ)

    def command(kind: str, path: str, n: int) -> list[str]:
        if kind == "abi":
            return [args.abi_driver, path, str(n)]
        if kind == "swift":
            return [args.swift_driver, path, str(n)]
        return [sys.executable, str(HERE / "python_driver.py"), str(n), args.library]

    results: dict[str, float] = {}
    print(f"{'path (instructions per event)':<58} {'instructions':>12} {'target':>8}")
    missed = []
    for label, kind, path, target in ROWS:
        if args.only and args.only not in path:
            continue
        small, large = (PYTHON_SMALL, PYTHON_LARGE) if kind == "python" else (N_SMALL, N_LARGE)
        events = events_in(command(kind, path, large), env) - events_in(command(kind, path, small), env)
        cost = (instructions(command(kind, path, large), env) - instructions(command(kind, path, small), env)) / events
        results[path] = cost
        mark = ""
        if target is not None:
            mark = f"{target:>8,}"
            if cost > target:
                missed.append(f"{label}: {cost:,.0f} > {target:,}")
        print(f"{label:<58} {cost:>12,.0f} {mark}", flush=True)
    for other, canonical in FORM_PAIRS:
        if other in results and canonical in results:
            ratio = results[other] / results[canonical]
            print(f"ratio {other} / {canonical}: {ratio:.2f} (target <= {FORM_RATIO})")
            if ratio > FORM_RATIO:
                missed.append(f"{other} / {canonical}: {ratio:.2f} > {FORM_RATIO}")
    if args.check and missed:
        print("targets missed:\n  " + "\n  ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
