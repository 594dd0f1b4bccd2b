// corelogic's in-process rows, for the time mode: the loops of
// Benchmarks/InstructionBench/main.swift (which make bench-instructions counts), timed in
// the same process as the anchors so that the figures are ratios from one run.
import CoreLogic
import Cookbook

/// Fails loudly: a path that went wrong would measure something else.
func expectApplied<F>(_ outcome: System<F>.Outcome, _ what: String) {
    guard case .applied = outcome else { fail("\(what) was not applied") }
}

/// `System<Counter>.send(.increment)`, n times.
@inline(never)
func corelogicCounter(_ n: Int) -> Run {
    let system = System<Counter>()
    let start = now()
    do {
        for _ in 0..<n {
            expectApplied(try system.send(.increment), "increment")
        }
    } catch {
        fail("corelogic counter: \(error)")
    }
    let end = now()
    guard system.state.count == n else { fail("corelogic counter: count \(system.state.count) after \(n) increments") }
    return Run(events: n, nanoseconds: end - start)
}

/// The playcatch round trip, n times: the human throws (the timer effect starts), the
/// timer's answer is delivered (the finished timer is cancelled).
@inline(never)
func corelogicPlaycatch(_ n: Int) -> Run {
    let system = System<Playcatch>()
    var timer: UInt64 = 1
    let start = now()
    do {
        for _ in 0..<n {
            expectApplied(try system.send(.humanThrows), "humanThrows")
            expectApplied(try system.deliver(timer, .machineThrows), "machineThrows")
            timer += 1
        }
    } catch {
        fail("corelogic playcatch: \(error)")
    }
    let end = now()
    guard system.state.throwCount == 2 * n else {
        fail("corelogic playcatch: \(system.state.throwCount) throws after \(n) round trips")
    }
    return Run(events: 2 * n, nanoseconds: end - start)
}
