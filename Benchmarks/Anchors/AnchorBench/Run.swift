// What every path shares: its result, the clock around its loop, and the way out when a
// check fails.
import Glibc

/// One run of a path: the events it handled and the nanoseconds its loop took (set-up,
/// tear-down and checks are outside).
struct Run {
    var events: Int
    var nanoseconds: UInt64
}

/// The monotonic clock, in nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// Fails loudly: a path that went wrong would measure something else.
@inline(never)
func fail(_ what: String) -> Never {
    print("AnchorBench: \(what)")
    exit(1)
}
