// Codec benchmark: our JSON codec against Foundation's JSONEncoder/JSONDecoder
// on a search-like state. Prints medians over rounds of N iterations.
import CoreLogic
import Foundation

struct Repo: Codable, Equatable { var id: Int; var name: String; var stars: Int }

enum SearchError: Codable, Equatable {
    case offline
    case rateLimited(retryAfter: Double)
}

struct SearchState: Codable, Equatable {
    var query: String
    var items: [Repo]
    var nextURL: String?
    var shouldLoadNextPage: Bool
    var lastError: SearchError?
}

enum CounterEvent: Codable, Equatable {
    case increment
    case decrement
    case reset
}

let state = SearchState(
    query: "swift",
    items: (0..<20).map { Repo(id: 1000 + $0 * 37, name: "repository-\($0)", stars: $0 * 113 % 5000) },
    nextURL: "https://api.github.com/search/repositories?q=swift&page=2",
    shouldLoadNextPage: true,
    lastError: .rateLimited(retryAfter: 1.5))

let foundationEncoder = JSONEncoder()
let foundationDecoder = JSONDecoder()
let stateBytes = try JSONCoding.encode(state)
let stateData = Data(stateBytes)
let stateValue = try JSONParser.parse(stateBytes)
let eventBytes: [UInt8] = Array(#"{"increment":{}}"#.utf8)
let eventData = Data(eventBytes)

// Sanity: both codecs agree before we time them.
let ourState = try JSONCoding.decode(SearchState.self, from: stateBytes)
let theirState = try foundationDecoder.decode(SearchState.self, from: stateData)
let ourEvent = try JSONCoding.decode(CounterEvent.self, from: eventBytes)
precondition(ourState == state && theirState == state && ourEvent == .increment)

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

func nowNS() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Median ns/op over `rounds` rounds of `n` iterations.
func measure(rounds: Int = 15, n: Int, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<max(1, n / 10) { try body() }   // warm-up
    var samples: [Double] = []
    for _ in 0..<rounds {
        let t0 = nowNS()
        for _ in 0..<n { try body() }
        let t1 = nowNS()
        samples.append(Double(t1 - t0) / Double(n))
    }
    samples.sort()
    return samples[samples.count / 2]
}

// `CodecBench profile <op>` loops one of our operations, for a profiler.
if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "profile" {
    let op = CommandLine.arguments[2]
    for _ in 0..<300_000 {
        switch op {
        case "encode": blackHole(try JSONCoding.encode(state))
        case "decode": blackHole(try JSONCoding.decode(SearchState.self, from: stateBytes))
        case "decodevalue": blackHole(try JSONCoding.decode(SearchState.self, from: stateValue))
        case "event": blackHole(try JSONCoding.decode(CounterEvent.self, from: eventBytes))
        default: blackHole(try JSONParser.parse(stateBytes))
        }
    }
    exit(0)
}

struct Row { var op: String; var ours: Double; var foundation: Double }
var rows: [Row] = []

rows.append(Row(op: "encode state",
    ours: try measure(n: 20_000) { blackHole(try JSONCoding.encode(state)) },
    foundation: try measure(n: 2_000) { blackHole(try foundationEncoder.encode(state)) }))
rows.append(Row(op: "decode state",
    ours: try measure(n: 20_000) { blackHole(try JSONCoding.decode(SearchState.self, from: stateBytes)) },
    foundation: try measure(n: 2_000) { blackHole(try foundationDecoder.decode(SearchState.self, from: stateData)) }))
rows.append(Row(op: "decode event {\"increment\":{}}",
    ours: try measure(n: 200_000) { blackHole(try JSONCoding.decode(CounterEvent.self, from: eventBytes)) },
    foundation: try measure(n: 20_000) { blackHole(try foundationDecoder.decode(CounterEvent.self, from: eventData)) }))
rows.append(Row(op: "parse state to JSONValue",
    ours: try measure(n: 20_000) { blackHole(try JSONParser.parse(stateBytes)) },
    foundation: try measure(n: 2_000) { blackHole(try JSONSerialization.jsonObject(with: stateData)) }))

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func fmt(_ x: Double) -> String { String(format: "%.0f", x) }

print("state: \(stateBytes.count) bytes, 15 rounds, median ns/op")
print(pad("operation", 32) + pad("ours ns/op", 14) + pad("Foundation ns/op", 18) + "ratio")
for r in rows {
    print(pad(r.op, 32) + pad(fmt(r.ours), 14) + pad(fmt(r.foundation), 18) + String(format: "%.1fx", r.foundation / r.ours))
}
