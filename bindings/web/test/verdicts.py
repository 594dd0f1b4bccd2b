#!/usr/bin/env python3
"""Runs the golden driver (Tests/hosts/golden_driver.py) with the arguments given and checks
that the files it fails are exactly those known-differences.txt lists for that run
("golden" or "edge"): the WebAssembly module's verdicts are the native hosts' verdicts
but for those. Prints the driver's output; exits 1 on any other difference.

    verdicts.py golden|edge DRIVER ARGUMENTS...
"""
import re
import subprocess
import sys
from pathlib import Path

kind, command = sys.argv[1], sys.argv[2:]
known = set()
for line in (Path(__file__).parent / "known-differences.txt").read_text(encoding="utf-8").splitlines():
    if line.strip() and not line.startswith("#"):
        run, name = line.split(maxsplit=1)
        if run == kind:
            known.add(name)
result = subprocess.run(command, capture_output=True, text=True)
print(result.stdout, end="")
print(result.stderr, end="", file=sys.stderr)
failed = set(re.findall(r"^FAIL (\S+\.json)", result.stdout, re.MULTILINE))
if not re.search(r"^(golden|edge)-\S+: \d+ passed", result.stdout, re.MULTILINE):
    print("verdicts: the driver reported no summary")
    sys.exit(1)
unexpected, resolved = sorted(failed - known), sorted(known - failed)
for name in unexpected:
    print(f"verdicts: {name} differs from the native hosts and is not a known difference")
for name in resolved:
    print(f"verdicts: {name} no longer differs: remove it from known-differences.txt")
print(f"verdicts-{kind}: {len(failed & known)} known differences, {len(unexpected) + len(resolved)} unexpected")
sys.exit(1 if unexpected or resolved else 0)
