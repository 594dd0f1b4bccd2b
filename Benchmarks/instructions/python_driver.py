"""make bench-instructions, Python side: one counter loop N times, for callgrind (run.py
takes the difference between two values of N).

    python3 python_driver.py N LIBRARY [floor|full|patch|search-full|search-patch]

floor: a bare ctypes corelogic_system_send with a batch, the batch read as bytes,
json.loads, corelogic_free (the least any ctypes host does); full: the binding's
system.send("increment") with the batch's state read; patch: the same on a system in
patch mode, whose state mirror the binding keeps up to date; search-full, search-patch:
the search state with an empty list, loadFailed and retry in turn, in either mode."""

import ctypes
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))

import corelogic  # noqa: E402

n = int(sys.argv[1])
library = corelogic.load_library(sys.argv[2] if len(sys.argv) > 2 else None)
mode = sys.argv[3] if len(sys.argv) > 3 else "full"
if mode.startswith("search-"):
    # The search state with an empty list, loadFailed and retry sent in turn (each
    # changes the state and starts or cancels effects), the batch's state read.
    state = b'{"query":"swift","items":[],"nextURL":"/search/repositories?q=swift","shouldLoadNextPage":false}'
    system = corelogic.System("search", state, library=library, output=mode.split("-")[1])
    send = system.send
    failed = {"loadFailed": {"error": "offline"}}
    errors = 0
    for i in range(n):
        errors += "lastError" in send("retry" if i & 1 else failed).state
    assert errors == (n + 1) // 2, errors
    system.close()
    print(f"{n} events")
    sys.exit(0)
system = corelogic.System("counter", library=library, output="patch" if mode == "patch" else "full")
sink = 0
if mode == "floor":
    send_fn, free, string_at, loads = library.corelogic_system_send, library.corelogic_free, ctypes.string_at, json.loads
    out = ctypes.c_void_p()
    ref = ctypes.byref(out)
    handle = system._handle
    for _ in range(n):
        if send_fn(handle, b'"increment"', ref):
            raise SystemExit("send failed")
        pointer = out.value
        sink += loads(string_at(pointer))["state"]["count"]
        free(pointer)
else:
    send = system.send
    for _ in range(n):
        sink += send("increment").state["count"]
assert sink == n * (n + 1) // 2, sink
assert system.state == {"count": n}, system.state
system.close()
print(f"{n} events")
