"""make bench, hosts section: the counter round trip through each host, side by side.

    python3 Benchmarks/hosts/compare.py C_BINARY JVM_COMMAND NODE_COMMAND [--passes 3]

Runs the C, JVM and Node.js programs in turn, PASSES times (so machine noise hits each
host alike), each printing its median ns/call over its own rounds; reports, per host,
the median of its passes and its ratio to the C host measured in the same run.
"""

from __future__ import annotations

import argparse
import re
import shlex
import statistics
import subprocess
import sys

LINE = re.compile(r"^(\w+): ([0-9.]+) ns/call$")

WHAT = {
    "c": "C: send + batch + free",
    "jvm": "JVM: System.send -> Batch.state()",
    "node": "Node.js: System.send -> Batch",
}


def measure(command: str) -> "tuple[str, float]":
    output = subprocess.run(shlex.split(command), check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        match = LINE.match(line.strip())
        if match:
            return match.group(1), float(match.group(2))
    raise SystemExit(f"no 'host: N ns/call' line from {command!r}: {output!r}")


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="+", help="one command per host; the first is the C host")
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)

    figures: "dict[str, list[float]]" = {}
    for _ in range(args.passes):
        for command in args.commands:
            host, ns = measure(command)
            figures.setdefault(host, []).append(ns)
    medians = {host: statistics.median(values) for host, values in figures.items()}
    c = medians.get("c")
    print(f"counter round trip per host, median of {args.passes} passes (each the median of its own rounds)")
    for host, ns in medians.items():
        ratio = f"{ns / c:6.2f}x C" if c else ""
        print(f"  {WHAT.get(host, host):<38} {ns:8.0f} ns/call {1e9 / ns:12,.0f} calls/s  {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
