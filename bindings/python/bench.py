"""What the Python binding costs, measured side by side in one run.

    python3 bindings/python/bench.py [--rounds 7] [--calls 50000]

Three loops, interleaved round by round, each reported as the median over the
rounds:

1. binding:   ``system.send("increment")``, returning a parsed ``Batch``;
2. no-op:     a bare ctypes call of ``corelogic_abi_version()`` (the floor of
              any ctypes call);
3. bare send: a bare ctypes ``corelogic_system_send`` + ``json.loads`` of the
              same batch + ``corelogic_free`` (what any hand-written binding
              must do at least).

Two more loops show the library's own share: a bare ``corelogic_system_send``
with ``out_batch`` NULL (the step alone), and with a batch that is only freed
(the step plus encoding the batch).

The ratio binding / bare send is the binding's own overhead; the targets are
>= 250,000 round trips/s and a ratio <= 3.

Then a scaling table (``--no-scaling`` skips it): a search state of N = 0,
1,000, 10,000 and 100,000 items, full mode against patch mode
(``System(..., output="patch")``, which keeps the state as a mirror updated
from patches), for an event that does not touch the items (``loadFailed`` /
``retry`` alternating) and for a 10-item page delivered to the running load.
Each cell is the median over the rounds of the time per event through the
binding (each round's appends start from a fresh system of N items; full mode
runs fewer events at large N to keep the run short; an append row is the median
of the appends after a system's first, and the first has a row of its own) (a ``Batch`` with the whole state as a ``dict``), with its ratio to
N = 0. Targets in patch mode, N = 100,000 against N = 0: <= 2x for the event
that does not touch the items, <= 3x for the append.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corelogic  # noqa: E402

TARGET_RATE = 250_000
TARGET_RATIO = 3.0


def binding_round(system: corelogic.System, calls: int) -> float:
    send = system.send
    started = time.perf_counter()
    for _ in range(calls):
        send("increment")
    return time.perf_counter() - started


def noop_round(library: corelogic.Library, calls: int) -> float:
    abi_version = library.corelogic_abi_version
    started = time.perf_counter()
    for _ in range(calls):
        abi_version()
    return time.perf_counter() - started


def bare_send_round(library: corelogic.Library, handle: int, calls: int) -> float:
    send = library.corelogic_system_send
    free = library.corelogic_free
    string_at = ctypes.string_at
    loads = json.loads
    out = ctypes.c_void_p()
    ref = ctypes.byref(out)
    event = b'"increment"'
    started = time.perf_counter()
    for _ in range(calls):
        if send(handle, event, ref):
            raise RuntimeError("send failed")
        pointer = out.value
        loads(string_at(pointer))
        free(pointer)
    return time.perf_counter() - started


def library_floor_round(library: corelogic.Library, handle: int, calls: int) -> float:
    send = library.corelogic_system_send
    event = b'"increment"'
    started = time.perf_counter()
    for _ in range(calls):
        if send(handle, event, None):
            raise RuntimeError("send failed")
    return time.perf_counter() - started


# The same loop as bare_send_round without json.loads, written out again on purpose: a
# shared loop would time a branch or a call that neither measurement should pay.
def batch_only_round(library: corelogic.Library, handle: int, calls: int) -> float:
    send = library.corelogic_system_send
    free = library.corelogic_free
    out = ctypes.c_void_p()
    ref = ctypes.byref(out)
    event = b'"increment"'
    started = time.perf_counter()
    for _ in range(calls):
        if send(handle, event, ref):
            raise RuntimeError("send failed")
        free(out.value)
    return time.perf_counter() - started


SIZES = (0, 1_000, 10_000, 100_000)
APPENDS = 51
PAGE = {"pageLoaded": {
    "items": [{"id": 1_000_000 + i, "name": f"owner/page-item-{i}", "stars": i} for i in range(10)],
    "nextURL": "/search/repositories?q=swift&page=3",
}}


def search_state(n: int) -> bytes:
    """A search state of ``n`` items, as JSON bytes."""
    items = [{"id": i + 1, "name": f"owner{i % 97}/repository{i}", "stars": (i * 7919) % 100_000} for i in range(n)]
    state = {"query": "swift", "items": items, "nextURL": "/search/repositories?q=swift&page=2",
             "shouldLoadNextPage": False}
    return json.dumps(state, separators=(",", ":")).encode()


def untouched_round(system: corelogic.System, events: int) -> float:
    send = system.send
    failed = {"loadFailed": {"error": "offline"}}
    started = time.perf_counter()
    for i in range(events):
        send("retry" if i & 1 else failed)
    return (time.perf_counter() - started) / events


def append_round(library: corelogic.Library, state: bytes, output: str, appends: int) -> "tuple[float, float]":
    """Seconds per delivered page on a fresh system of the given state: the
    median of the appends after the first, and the first (a system's first
    change to a list it was created with may pay once for what later changes
    do not)."""
    with corelogic.System("search", state, library=library, output=output) as system:
        each = []
        for _ in range(appends):
            effect = system.send("reachedBottom").started[0]["id"]
            started = time.perf_counter()
            system.deliver(effect, PAGE)
            each.append(time.perf_counter() - started)
        return statistics.median(each[1:]), each[0]


def scaling(library: corelogic.Library, rounds: int) -> None:
    states = {n: search_state(n) for n in SIZES}
    modes = ("full", "patch")
    systems = {(n, mode): corelogic.System("search", states[n], library=library, output=mode)
               for n in SIZES for mode in modes}
    # Full mode costs grow with N: fewer events keep the run short.
    events = {(n, mode): max(5, 400_000 // (n + 1_000)) if mode == "full" else 2_000 for n in SIZES for mode in modes}
    appends = {(n, mode): max(3, APPENDS * 1_000 // (n + 1_000)) if mode == "full" else APPENDS
               for n in SIZES for mode in modes}
    times: "dict[tuple[str, str, int], list[float]]" = {}
    for _ in range(rounds):
        for n in SIZES:
            for mode in modes:
                times.setdefault(("untouched", mode, n), []).append(untouched_round(systems[n, mode], events[n, mode]))
                later, first = append_round(library, states[n], mode, appends[n, mode])
                times.setdefault(("append", mode, n), []).append(later)
                times.setdefault(("first", mode, n), []).append(first)
    for system in systems.values():
        system.close()
    print(f"\nscaling with the state: search state of N items, microseconds per event through the binding "
          f"(median of {rounds} rounds) and the ratio to N = 0")
    print(f"  {'event, output mode':<44}" + "".join(f"{'N = ' + str(n):>20}" for n in SIZES))
    labels = {"untouched": "loadFailed/retry (items untouched)", "append": "10-item page appended",
              "first": "first append of a new system"}
    for which in ("untouched", "append", "first"):
        for mode in modes:
            medians = [statistics.median(times[which, mode, n]) for n in SIZES]
            cells = "".join(f"{f'{m * 1e6:.2f} ({m / medians[0]:.1f}x)':>20}" for m in medians)
            print(f"  {labels[which] + ', ' + mode:<44}{cells}")
    print("  appends: the median of a round's appends after its first; the first is shown on its own")
    print("  targets (patch mode, N = 100000 vs N = 0): items untouched <= 2x, 10-item append <= 3x")


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=50_000, help="calls per round")
    parser.add_argument("--library", help="path to libcorelogic (default: the usual search)")
    parser.add_argument("--no-scaling", action="store_true", help="skip the state-size scaling table")
    args = parser.parse_args(argv)

    library = corelogic.load_library(args.library)
    binding_system = corelogic.System("counter", library=library)
    bare_system = corelogic.System("counter", library=library)
    bare_handle = bare_system._handle  # the raw handle, as a bare ctypes user holds it

    # Warm up caches (the encoded-event cache, the thread's out-parameter).
    binding_round(binding_system, 1000)
    noop_round(library, 1000)
    bare_send_round(library, bare_handle, 1000)

    floor_system = corelogic.System("counter", library=library)
    floor_handle = floor_system._handle
    library_floor_round(library, floor_handle, 1000)
    batch_system = corelogic.System("counter", library=library)
    batch_handle = batch_system._handle
    batch_only_round(library, batch_handle, 1000)

    times: "dict[str, list[float]]" = {"binding": [], "noop": [], "bare": [], "floor": [], "batch": []}
    for _ in range(args.rounds):
        times["binding"].append(binding_round(binding_system, args.calls) / args.calls)
        times["noop"].append(noop_round(library, args.calls) / args.calls)
        times["bare"].append(bare_send_round(library, bare_handle, args.calls) / args.calls)
        times["floor"].append(library_floor_round(library, floor_handle, args.calls) / args.calls)
        times["batch"].append(batch_only_round(library, batch_handle, args.calls) / args.calls)

    # Both systems counted every increment exactly once.
    expected = 1000 + args.rounds * args.calls
    assert binding_system.state == {"count": expected}, binding_system.state
    assert bare_system.state == {"count": expected}, bare_system.state
    assert floor_system.state == {"count": expected}, floor_system.state
    assert batch_system.state == {"count": expected}, batch_system.state
    batch_system.close()
    binding_system.close()
    bare_system.close()
    floor_system.close()

    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"corelogic {library.version()} (ABI {library.abi_version()}), Python {sys.version.split()[0]}, "
          f"{args.rounds} rounds x {args.calls:,} calls, medians")
    rows = [
        ("binding: system.send('increment') -> Batch", median["binding"]),
        ("bare ctypes: corelogic_abi_version()", median["noop"]),
        ("bare ctypes: system_send + json.loads + free", median["bare"]),
        ("bare ctypes: system_send + free, batch unread", median["batch"]),
        ("bare ctypes: system_send, out_batch NULL", median["floor"]),
    ]
    for label, seconds in rows:
        print(f"  {label:<46} {seconds * 1e9:8.0f} ns/call {1 / seconds:12,.0f} calls/s")
    rate = 1 / median["binding"]
    ratio = median["binding"] / median["bare"]
    print(f"  counter round trips/s through the binding: {rate:,.0f} "
          f"(target >= {TARGET_RATE:,}: {'met' if rate >= TARGET_RATE else 'NOT met'})")
    print(f"  ratio binding / (bare ctypes + json.loads): {ratio:.2f} "
          f"(target <= {TARGET_RATIO:g}: {'met' if ratio <= TARGET_RATIO else 'NOT met'})")
    if not args.no_scaling:
        scaling(library, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
