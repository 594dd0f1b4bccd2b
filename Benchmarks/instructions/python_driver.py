"""make bench-instructions, Python side: `system.send("increment")` through the binding,
N times, for callgrind (run.py takes the difference between two values of N)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))

import corelogic  # noqa: E402

n = int(sys.argv[1])
library = corelogic.load_library(sys.argv[2] if len(sys.argv) > 2 else None)
system = corelogic.System("counter", library=library)
send = system.send
for _ in range(n):
    send("increment")
assert system.state == {"count": n}, system.state
system.close()
print(f"{n} events")
