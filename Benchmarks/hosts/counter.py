"""make bench, hosts section: the Python binding's counter against its floor.

Three loops, interleaved round by round, each printed as the median of its rounds:

    python floor: <ns> ns/call   bare ctypes corelogic_system_send with a batch, the batch
                                 read as bytes, json.loads, corelogic_free: the least any
                                 ctypes host does
    python full: <ns> ns/call    System.send("increment"), the batch's state read
    python patch: <ns> ns/call   the same on a System(output="patch"): the binding keeps
                                 its state mirror up to date from each batch's patch
    python searchfull, python searchpatch: <ns> ns/call
                                 the search state with an empty list (about 100 bytes, so
                                 patch mode sends patches), loadFailed and retry in turn, in
                                 full mode and in patch mode, the state read

Every loop's system counts every increment, checked at the end.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))

import corelogic  # noqa: E402
from bench import bare_send_round  # noqa: E402  (the floor, as bindings/python/bench.py times it)

ROUNDS = 7
CALLS = 50_000


def binding_round(system: corelogic.System, calls: int) -> "tuple[float, int]":
    send = system.send
    sink = 0
    started = time.perf_counter()
    for _ in range(calls):
        sink += send("increment").state["count"]
    return (time.perf_counter() - started) / calls, sink


SEARCH = {"query": "swift", "items": [], "nextURL": "/search/repositories?q=swift", "shouldLoadNextPage": False}
FAILED = {"loadFailed": {"error": "offline"}}


def search_round(system: corelogic.System, calls: int) -> "tuple[float, int]":
    send = system.send
    sink = 0
    started = time.perf_counter()
    for i in range(calls):
        sink += "lastError" in send("retry" if i & 1 else FAILED).state
    return (time.perf_counter() - started) / calls, sink


def main() -> int:
    library = corelogic.load_library(None)
    floor_system = corelogic.System("counter", library=library)
    full = corelogic.System("counter", library=library)
    patch = corelogic.System("counter", library=library, output="patch")
    search_full = corelogic.System("search", SEARCH, library=library)
    search_patch = corelogic.System("search", SEARCH, library=library, output="patch")
    loops = {
        "floor": lambda calls: (bare_send_round(library, floor_system._handle, calls) / calls, calls),
        "full": lambda calls: binding_round(full, calls),
        "patch": lambda calls: binding_round(patch, calls),
        "searchfull": lambda calls: search_round(search_full, calls),
        "searchpatch": lambda calls: search_round(search_patch, calls),
    }
    for loop in loops.values():
        loop(CALLS // 10)  # warm-up
    times: "dict[str, list[float]]" = {name: [] for name in loops}
    for _ in range(ROUNDS):
        for name, loop in loops.items():
            seconds, sink = loop(CALLS)
            if sink == 0:
                raise SystemExit(f"{name}: no increment counted")
            times[name].append(seconds)
    expected = CALLS // 10 + ROUNDS * CALLS
    for system in (floor_system, full, patch):
        if system.state != {"count": expected}:
            raise SystemExit(f"counted {system.state}, expected {expected}")
        system.close()
    if search_patch.send("retry").state != search_patch.state:
        raise SystemExit("the search mirror is not the state")
    search_full.close()
    search_patch.close()
    for name, values in times.items():
        print(f"python {name}: {statistics.median(values) * 1e9:.1f} ns/call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
