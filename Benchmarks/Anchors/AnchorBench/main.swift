// The anchors of the benchmarks: the cookbook's Counter and Playcatch run by a plain loop
// over their reducers (the floor) and by a feedback loop on OpenCombine, beside
// corelogic's System<F>.
//
//   AnchorBench PATH N                 runs one path N times (N increments, N round trips)
//                                      and prints its number of events: make
//                                      bench-instructions runs it under callgrind with two
//                                      values of N and divides the difference.
//   AnchorBench time [EVENTS [ROUNDS]] times every path, EVENTS events a run, in ROUNDS
//                                      interleaved rounds, and prints the median ns per
//                                      event and corelogic's over each: ratios from one run.
//
// Every run checks its result and exits non-zero when it is wrong.
import Glibc

struct Path {
    let name: String
    let label: String
    /// Runs n increments or n round trips.
    let run: (Int) -> Run
}

/// Per feature: the floor, corelogic, the OpenCombine loop (the order of the table).
let groups: [(title: String, roundTrip: Bool, paths: [Path])] = [
    ("counter: .increment", false, [
        Path(name: "plain-counter", label: "plain loop: Counter.reduce per event", run: plainCounter),
        Path(name: "corelogic-counter", label: "corelogic: System<Counter>.send(.increment)", run: corelogicCounter),
        Path(name: "combine-counter", label: "feedback loop on OpenCombine", run: combineCounter),
    ]),
    ("playcatch effect round trip: humanThrows, the timer's machineThrows", true, [
        Path(name: "plain-playcatch", label: "plain loop: reduce, query, answer by hand", run: plainPlaycatch),
        Path(name: "corelogic-playcatch", label: "corelogic: System<Playcatch> send + deliver", run: corelogicPlaycatch),
        Path(name: "combine-playcatch", label: "feedback loop on OpenCombine", run: combinePlaycatch),
    ]),
]

func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let rounded = Int((value * Double(scale)).rounded())
    guard decimals > 0 else { return String(rounded) }
    var fraction = String(rounded % scale)
    while fraction.count < decimals { fraction = "0" + fraction }
    return "\(rounded / scale).\(fraction)"
}

func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? fill + text : text + fill
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Every path once per round, in the table's order, so that the load of other processes
/// falls on all of them alike; one round first as a warm-up.
func time(events: Int, rounds: Int) {
    var samples: [String: [Double]] = [:]
    for round in 0...rounds {
        for group in groups {
            for path in group.paths {
                let run = path.run(group.roundTrip ? events / 2 : events)
                if round > 0 { samples[path.name, default: []].append(Double(run.nanoseconds) / Double(run.events)) }
            }
        }
    }
    print("ns per event, median of \(rounds) interleaved rounds of \(events) events each")
    print(padded("path", 66) + padded("ns/event", 10, left: true) + padded("corelogic/this", 16, left: true))
    for group in groups {
        print(group.title)
        let perEvent = group.paths.map { median(samples[$0.name]!) }
        let corelogic = perEvent[1]
        for (path, cost) in zip(group.paths, perEvent) {
            print(padded("  " + path.label, 66) + padded(fixed(cost, 1), 10, left: true)
                  + padded(fixed(corelogic / cost, 3), 16, left: true))
        }
    }
}

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "time" {
    let events = arguments.count > 2 ? Int(arguments[2]) : 200_000
    let rounds = arguments.count > 3 ? Int(arguments[3]) : 9
    guard let events, let rounds, events >= 2, rounds >= 1, arguments.count <= 4 else {
        print("usage: AnchorBench time [EVENTS [ROUNDS]]")
        exit(2)
    }
    time(events: events, rounds: rounds)
} else {
    guard arguments.count == 3, let n = Int(arguments[2]), n >= 0 else {
        print("usage: AnchorBench PATH N | AnchorBench time [EVENTS [ROUNDS]]")
        exit(2)
    }
    guard let path = groups.flatMap(\.paths).first(where: { $0.name == arguments[1] }) else {
        print("AnchorBench: unknown path \(arguments[1]); paths: "
              + groups.flatMap(\.paths).map(\.name).joined(separator: ", "))
        exit(2)
    }
    print("\(path.run(n).events) events")
}
