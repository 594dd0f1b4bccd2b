// make bench-instructions, Swift side: the in-process API (`System<F>`, no JSON) run N
// times for callgrind. `InstructionBench PATH N` runs N events; run.py runs it with two
// values of N and divides the difference in instructions by the difference in events.
import CoreLogic
import Cookbook

/// Fails loudly: a path that went wrong would measure something else.
func expectApplied<F>(_ outcome: System<F>.Outcome, _ what: String) {
    guard case .applied = outcome else {
        print("InstructionBench: \(what) was not applied")
        exit(1)
    }
}

func exit(_ code: Int32) -> Never {
    // No Foundation: leave through the C library's exit.
    cExit(code)
}

@_silgen_name("exit") func cExit(_ code: Int32) -> Never

/// `System<Counter>.send(.increment)`, nothing else.
@inline(never)
func counterSend(_ n: Int) throws -> Int {
    let system = System<Counter>()
    for _ in 0..<n {
        expectApplied(try system.send(.increment), "increment")
    }
    guard system.state.count == n else { exit(1) }
    return n
}

/// The search failure loop of the C driver, in process: loadFailed delivered to the
/// load (its effect is cancelled, the retry timer starts), retry delivered to the timer.
@inline(never)
func searchFailureLoop(_ n: Int) throws -> Int {
    let system = System<Search>()
    expectApplied(try system.send(.queryChanged(text: "swift")), "queryChanged")
    var load: UInt64 = 1
    for _ in 0..<n {
        expectApplied(try system.deliver(load, .loadFailed(error: .offline)), "loadFailed")
        expectApplied(try system.deliver(load + 1, .retry), "retry")
        load += 2
    }
    return 2 * n
}

/// The playcatch round trip of the C driver, in process: the human throws (the timer
/// effect starts), the timer's answer is delivered (the finished timer is cancelled).
@inline(never)
func playcatchRoundTrip(_ n: Int) throws -> Int {
    let system = System<Playcatch>()
    var timer: UInt64 = 1
    for _ in 0..<n {
        expectApplied(try system.send(.humanThrows), "humanThrows")
        expectApplied(try system.deliver(timer, .machineThrows), "machineThrows")
        timer += 1
    }
    guard system.state.throwCount == 2 * n else { exit(1) }
    return 2 * n
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let n = Int(arguments[2]) else {
    print("usage: InstructionBench PATH N")
    exit(2)
}
let events: Int
switch arguments[1] {
case "counter": events = try counterSend(n)
case "search": events = try searchFailureLoop(n)
case "playcatch": events = try playcatchRoundTrip(n)
default:
    print("InstructionBench: unknown path \(arguments[1])")
    exit(2)
}
print("\(events) events")
