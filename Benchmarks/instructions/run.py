"""make bench-instructions: instructions per event on each hot path, under callgrind.

Each driver runs one path N times. Every path is run twice, with N_SMALL and N_LARGE
repetitions, and the figure is (instructions(N_LARGE) - instructions(N_SMALL)) divided
by the difference in events: start-up, set-up and tear-down cancel out, and what is
left is the steady-state cost of one event. Callgrind counts the instructions the
process executes (user space, every thread), so the figure does not move with the
machine's load, unlike a time.

    python3 Benchmarks/instructions/run.py ABI_DRIVER SWIFT_DRIVER LIBRARY [--check]
        [--anchor-driver ANCHOR_DRIVER] [--startup-driver STARTUP_DRIVER] [--only WORD]

--check exits non-zero when a path misses its target. With --anchor-driver
(Benchmarks/Anchors, built), the anchors are measured beside corelogic's rows on the same
features and events: the feature's reducer in a plain loop, the floor, and a feedback loop
on OpenCombine; after the paths, corelogic's cost over each anchor's. After the paths come
the derived figures, each with its target: patch output against full output on the same path; the
crossover (the fewest items at which a search batch in patch mode costs no more than in
full mode, on an event that leaves the items alone); patch mode from 0 to 100,000 items
(the cost at N over the cost at 0, untouched and with a 10-item page appended); and the
heap one system holds after its first batch over what it held once created, for a
10,000-item search state in full mode (measured with the C library's malloc counters,
outside callgrind); and the start-up, from dlopen to a new system's first batch.
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
    ("C ABI counter \"increment\", with batch, patch output", "abi", "counter-patch", None),
    ("C ABI counter \"increment\", NULL batch", "abi", "counter-null", 600),
    ("C ABI counter {\"increment\":{}}, NULL batch", "abi", "counter-object-null", None),
    ("C ABI search loadFailed/retry, canonical, NULL batch", "abi", "search-canonical", 3000),
    ("C ABI search loadFailed/retry, short forms, NULL batch", "abi", "search-short", None),
    ("C ABI search loadFailed/retry, canonical, with batch", "abi", "search-canonical-batch", None),
    ("C ABI search loadFailed/retry, canonical, with batch, patch output", "abi", "search-canonical-patch", None),
    ("C ABI search cycle (query + 10-item page), batches", "abi", "search-cycle", None),
    ("C ABI playcatch effect round trip, batches", "abi", "playcatch", 2500),
    ("C ABI counter, journal (interval), NULL batch", "abi", "counter-journal", None),
    ("Swift System<Counter>.send(.increment)", "swift", "counter", 300),
    ("  anchor: plain loop, Counter.reduce per event", "anchor", "anchor-plain-counter", None),
    ("  anchor: feedback loop on OpenCombine, .increment", "anchor", "anchor-combine-counter", None),
    ("Swift System<Search> loadFailed/retry", "swift", "search", None),
    ("Swift System<Playcatch> effect round trip (send + deliver)", "swift", "playcatch", 900),
    ("  anchor: plain loop, reduce + query, the answer by hand", "anchor", "anchor-plain-playcatch", None),
    ("  anchor: feedback loop on OpenCombine, the timer fired by hand", "anchor", "anchor-combine-playcatch", None),
    ("Python floor: bare ctypes send + json.loads + free", "python", "python-floor", None),
    ("Python system.send(\"increment\") -> Batch, state read", "python", "python-full", None),
    ("Python system.send(\"increment\"), patch output, mirror kept", "python", "python-patch", None),
    ("Python search loadFailed/retry, empty list, state read", "python", "python-search-full", None),
    ("Python search loadFailed/retry, empty list, patch output, mirror kept", "python", "python-search-patch", None),
]

# corelogic's rows beside the anchors on the same feature and events (the driver kind and
# path of corelogic's row, then the plain loop's path and the OpenCombine loop's): what
# corelogic costs over each. With --only, an anchor row brings the rows it is compared with.
ANCHOR_RATIOS = [
    ("in-process counter", ("swift", "counter"), "anchor-plain-counter", "anchor-combine-counter"),
    ("in-process playcatch round trip", ("swift", "playcatch"), "anchor-plain-playcatch", "anchor-combine-playcatch"),
    ("C ABI counter, with batch", ("abi", "counter-batch"), "anchor-plain-counter", "anchor-combine-counter"),
    ("C ABI playcatch round trip", ("abi", "playcatch"), "anchor-plain-playcatch", "anchor-combine-playcatch"),
]

# A host's full-mode send against its floor, and its patch-mode send against full mode.
HOST_PAIRS = [("python-full", "python-floor"), ("python-patch", "python-full"),
              ("python-search-patch", "python-search-full")]
HOST_RATIO = 1.3

# Non-canonical forms must cost at most this much more than the canonical ones.
FORM_PAIRS = [("counter-object-null", "counter-null"), ("search-short", "search-canonical")]
FORM_RATIO = 1.2

# Patch output must cost at most this much more than full output on the same path.
PATCH_PAIRS = [("counter-patch", "counter-batch"), ("search-canonical-patch", "search-canonical-batch")]
PATCH_RATIO = 1.3

# Search batches on a state of N items, loadFailed/retry (the items untouched), full
# output against patch output: where patches become the cheaper output.
CROSSOVER_ITEMS = [0, 1, 2, 5, 10, 20, 50]
CROSSOVER_TARGET = 5
# Patch output from 0 to 100,000 items: untouched, and a 10-item page appended
# (reachedBottom + pageLoaded). The cost at N over the cost at 0.
SCALING_ITEMS = [0, 1000, 10000, 100000]
SCALING_RATIO = 1.1
# Repetitions for the scaling rows, whose set-up (a state of up to 100,000 items) is slow
# under callgrind: fewer, since the difference is what counts.
SCALING_SMALL, SCALING_LARGE = 100, 600
# The appends measured are pages SMALL + 1 to LARGE of one system, so the list grows from
# N + 10 * SMALL to N + 10 * LARGE items while they are counted: few pages, close to N.
APPEND_SMALL, APPEND_LARGE = 1, 51
MEMORY_ITEMS = 10000
MEMORY_RATIO = 1.2
# Start-up: from dlopen to the first batch, for one feature, in a process that has loaded
# nothing of the library's (a C or Python host), and in one that already holds the C++
# runtime the Swift runtime links (the JVM and Node.js do).
STARTUP = [("counter", '"increment"'), ("search", '{"queryChanged":{"text":"swift"}}')]
STARTUP_TARGET = 3_000_000


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
    parser.add_argument("--startup-driver", help="Benchmarks/instructions/startup_driver, built")
    parser.add_argument("--anchor-driver", help="AnchorBench (Benchmarks/Anchors), built; "
                        "without it the anchor rows are left out")
    parser.add_argument("--only", help="run only the paths whose argument contains this text, "
                        "and the rows an anchor among them is compared with "
                        "(crossover, scaling, memory: those sections)")
    args = parser.parse_args()
    env = dict(os.environ)

    def command(kind: str, path: str, n: int) -> list[str]:
        if kind == "abi":
            return [args.abi_driver, path, str(n)]
        if kind == "swift":
            return [args.swift_driver, path, str(n)]
        if kind == "anchor":
            return [args.anchor_driver, path.removeprefix("anchor-"), str(n)]
        return [sys.executable, str(HERE / "python_driver.py"), str(n), args.library, path.split("-", 1)[1]]

    results: dict[str, float] = {}
    # The same costs by driver kind and path: a path names two rows (C ABI and Swift playcatch).
    costs: dict[tuple[str, str], float] = {}
    print(f"{'path (instructions per event)':<70} {'instructions':>12} {'target':>8}")
    missed = []

    def measure(kind: str, path: str, small: int, large: int) -> float:
        events = events_in(command(kind, path, large), env) - events_in(command(kind, path, small), env)
        return (instructions(command(kind, path, large), env) - instructions(command(kind, path, small), env)) / events

    def wanted(path: str) -> bool:
        return not args.only or args.only in path

    anchors = {path for _, kind, path, _ in ROWS if kind == "anchor" and args.anchor_driver and wanted(path)}
    compared = {row for _, row, plain, combine in ANCHOR_RATIOS if plain in anchors or combine in anchors}

    for label, kind, path, target in ROWS:
        if kind == "anchor":
            if path not in anchors:
                continue
        elif not wanted(path) and (kind, path) not in compared:
            continue
        small, large = (PYTHON_SMALL, PYTHON_LARGE) if kind == "python" else (N_SMALL, N_LARGE)
        cost = measure(kind, path, small, large)
        results[path] = cost
        costs[(kind, path)] = cost
        mark = ""
        if target is not None:
            mark = f"{target:>8,}"
            if cost > target:
                missed.append(f"{label}: {cost:,.0f} > {target:,}")
        print(f"{label:<70} {cost:>12,.0f} {mark}", flush=True)
    for other, canonical in FORM_PAIRS:
        if other in results and canonical in results:
            ratio = results[other] / results[canonical]
            print(f"ratio {other} / {canonical}: {ratio:.2f} (target <= {FORM_RATIO})")
            if ratio > FORM_RATIO:
                missed.append(f"{other} / {canonical}: {ratio:.2f} > {FORM_RATIO}")
    for patch, full in PATCH_PAIRS:
        if patch in results and full in results:
            ratio = results[patch] / results[full]
            print(f"ratio {patch} / {full}: {ratio:.2f} (target <= {PATCH_RATIO})")
            if ratio > PATCH_RATIO:
                missed.append(f"{patch} / {full}: {ratio:.2f} > {PATCH_RATIO}")

    for host, floor in HOST_PAIRS:
        if host in results and floor in results:
            ratio = results[host] / results[floor]
            print(f"ratio {host} / {floor}: {ratio:.2f} (target <= {HOST_RATIO})")
            if ratio > HOST_RATIO:
                missed.append(f"{host} / {floor}: {ratio:.2f} > {HOST_RATIO}")

    if wanted("untouched") or wanted("crossover"):
        print(f"\nsearch loadFailed/retry with batch, N items untouched (instructions per event)")
        print(f"{'N':>8} {'full':>10} {'patch':>10} {'patch/full':>10}")
        crossover = None
        for items in CROSSOVER_ITEMS:
            full = measure("abi", f"untouched-full:{items}", N_SMALL, N_LARGE)
            patch = measure("abi", f"untouched-patch:{items}", N_SMALL, N_LARGE)
            results[f"untouched-patch:{items}"] = patch
            if crossover is None and patch <= full:
                crossover = items
            print(f"{items:>8,} {full:>10,.0f} {patch:>10,.0f} {patch / full:>10.2f}", flush=True)
        shown = f"{crossover:,} items" if crossover is not None else f"more than {CROSSOVER_ITEMS[-1]:,} items"
        print(f"crossover (patch <= full): {shown} (target <= {CROSSOVER_TARGET})")
        if crossover is None or crossover > CROSSOVER_TARGET:
            missed.append(f"crossover: {shown} > {CROSSOVER_TARGET}")

    if wanted("scaling"):
        print(f"\npatch output, state of N items (instructions per event, ratio to N = 0); the appends "
              f"counted are pages {APPEND_SMALL + 1} to {APPEND_LARGE}, onto a list of N + {10 * APPEND_SMALL} "
              f"to N + {10 * APPEND_LARGE} items")
        print(f"{'N':>8} {'untouched':>10} {'ratio':>6} {'10-item append':>15} {'ratio':>6}")
        base: dict[str, float] = {}
        for items in SCALING_ITEMS:
            row = []
            for name in ("untouched-patch", "append-patch"):
                small, large = (APPEND_SMALL, APPEND_LARGE) if name == "append-patch" else (SCALING_SMALL, SCALING_LARGE)
                cost = measure("abi", f"{name}:{items}", small, large)
                base.setdefault(name, cost)
                row.append((cost, cost / base[name]))
                if cost / base[name] > SCALING_RATIO:
                    missed.append(f"{name} at {items:,} items: {cost / base[name]:.2f}x the cost at 0 > {SCALING_RATIO}")
            print(f"{items:>8,} {row[0][0]:>10,.0f} {row[0][1]:>6.2f} {row[1][0]:>15,.0f} {row[1][1]:>6.2f}", flush=True)

    if wanted("memory"):
        out = subprocess.run([args.abi_driver, f"memory:{MEMORY_ITEMS}", "1"], capture_output=True,
                             text=True, env=env, check=True).stdout.split()
        created, batched = int(out[0]), int(out[1])
        ratio = batched / created
        print(f"\nheap of one search system, {MEMORY_ITEMS:,} items, full output: {created:,} bytes created, "
              f"{batched:,} after the first batch: {ratio:.2f}x (target <= {MEMORY_RATIO})")
        if ratio > MEMORY_RATIO:
            missed.append(f"memory after the first batch: {ratio:.2f}x > {MEMORY_RATIO}")

    if wanted("startup") and args.startup_driver:
        print(f"\nstart-up, from dlopen to the first batch of a new system (instructions, once per process)")
        stdcxx = subprocess.run(["sh", "-c", "ldd " + args.library + " | awk '/libstdc\\+\\+/ {print $3}'"],
                                capture_output=True, text=True).stdout.strip()
        setups = [("nothing loaded before (a C or Python host)", {})]
        if stdcxx:
            setups.append(("the C++ runtime already loaded (the JVM, Node.js)", {"LD_PRELOAD": stdcxx}))
        for what, extra in setups:
            run_env = {**env, **extra}
            bare = instructions([args.startup_driver, args.library, "-", "-"], run_env)
            for feature, event in STARTUP:
                cost = instructions([args.startup_driver, args.library, feature, event], run_env) - bare
                print(f"  {feature:<8} {what:<52} {cost:>12,} (target <= {STARTUP_TARGET:,})", flush=True)
                if not extra and cost > STARTUP_TARGET:
                    missed.append(f"start-up of {feature}: {cost:,} > {STARTUP_TARGET:,}")

    if anchors:
        print(f"\ncorelogic over the anchors (instructions per event, corelogic's / the anchor's)")
        print(f"{'corelogic path':<36} {'/ plain loop':>14} {'/ OpenCombine loop':>20}")
        for what, row, plain, combine in ANCHOR_RATIOS:
            if row not in costs:
                continue
            over = [f"{costs[row] / costs[('anchor', anchor)]:.3f}" if ('anchor', anchor) in costs else "-"
                    for anchor in (plain, combine)]
            print(f"{what:<36} {over[0]:>14} {over[1]:>20}")

    if args.check and missed:
        print("targets missed:\n  " + "\n  ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
