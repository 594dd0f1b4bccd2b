"""make bench, hosts section: each host's counter against its own floor, side by side.

    python3 Benchmarks/hosts/compare.py COMMAND... [--passes 3] [--check]

Runs each host's program in turn, PASSES times (so machine noise hits every host alike).
Each program prints lines "HOST ROW: N ns/call", each the median of its own interleaved
rounds: the C program its round trip ("c full"); the Python, JVM and Node.js programs
their floor (the least a host of that kind does: one bare call through ctypes, JNI or
N-API with the batch, and the parse of the batch), the binding's full-mode send and its
patch-mode send with the state mirror kept up to date, then the same two on the search
state with an empty list ("searchfull", "searchpatch"). Reported per host: the median of
the passes, full mode over the floor and patch mode over full mode (targets: at most
1.3 each), and full mode over C. --check exits non-zero when a ratio misses its target.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys

LINE = re.compile(r"^(\w+) (\w+): ([0-9.]+) ns/call$")
TARGET = 1.3

WHAT = {
    "c": "C",
    "python": "Python (ctypes)",
    "jvm": "JVM (JNI)",
    "node": "Node.js (N-API)",
}


def measure(command: str) -> "dict[tuple[str, str], float]":
    output = subprocess.run(shlex.split(command), check=True, capture_output=True, text=True).stdout
    found = {}
    for line in output.splitlines():
        match = LINE.match(line.strip())
        if match:
            found[match.group(1), match.group(2)] = float(match.group(3))
    if not found:
        raise SystemExit(f"no 'host row: N ns/call' line from {command!r}: {output!r}")
    return found


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="+", help="one command per host")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="fail when a ratio misses its target")
    args = parser.parse_args(argv)

    figures: "dict[tuple[str, str], list[float]]" = {}
    for _ in range(args.passes):
        for command in args.commands:
            for key, ns in measure(command).items():
                figures.setdefault(key, []).append(ns)
    medians = {key: statistics.median(values) for key, values in figures.items()}
    hosts = list(dict.fromkeys(host for host, _ in medians))
    c = medians.get(("c", "full"))
    print(f"counter \"increment\" per host, ns per call: median of {args.passes} passes, each the median "
          f"of its own rounds")
    print("  floor: one bare call through the host's FFI with the batch, and its parse; full: the binding's "
          "send, the state read; patch: patch mode, the state mirror kept up to date")
    print(f"  {'host':<18} {'floor':>8} {'full':>8} {'patch':>8} {'full/floor':>11} {'patch/full':>11} {'full/C':>7}")
    missed = []
    for host in hosts:
        floor, full, patch = (medians.get((host, row)) for row in ("floor", "full", "patch"))
        cells = [f"{value:8.0f}" if value else f"{'':>8}" for value in (floor, full, patch)]
        ratios = []
        for name, top, bottom in (("full/floor", full, floor), ("patch/full", patch, full)):
            if top and bottom:
                ratio = top / bottom
                ratios.append(f"{ratio:10.2f}{'*' if ratio > TARGET else ' '}")
                if ratio > TARGET:
                    missed.append(f"{WHAT.get(host, host)}: {name} {ratio:.2f} > {TARGET}")
            else:
                ratios.append(f"{'':>11}")
        versus_c = f"{full / c:7.2f}" if full and c else f"{'':>7}"
        print(f"  {WHAT.get(host, host):<18} {' '.join(cells)} {' '.join(ratios)} {versus_c}")
    print(f"  targets: full/floor <= {TARGET}, patch/full <= {TARGET} (* marks a ratio over its target)")
    searched = [host for host in hosts if (host, "searchfull") in medians and (host, "searchpatch") in medians]
    if searched:
        print("search, empty list (about 100 bytes), loadFailed and retry in turn, ns per call: full (the state "
              "read) and patch mode (the mirror kept)")
        print(f"  {'host':<18} {'full':>8} {'patch':>8} {'patch/full':>11}")
        for host in searched:
            full, patch = medians[host, "searchfull"], medians[host, "searchpatch"]
            ratio = patch / full
            if ratio > TARGET:
                missed.append(f"{WHAT.get(host, host)}: search patch/full {ratio:.2f} > {TARGET}")
            print(f"  {WHAT.get(host, host):<18} {full:8.0f} {patch:8.0f} {ratio:10.2f}{'*' if ratio > TARGET else ' '}")
        print(f"  target: patch/full <= {TARGET}")
    if args.check and missed:
        print("targets missed:\n  " + "\n  ".join(missed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
