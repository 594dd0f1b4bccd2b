// Codec benchmark: our JSON codec against Foundation's JSONEncoder/JSONDecoder
// on a search-like state. Prints medians over rounds of N iterations.
import CoreLogic
import Cookbook
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

// The same state as the search feature's own type, which has a direct JSON
// conformance (`JSONDirectCodable`): what the engine encodes in every batch.
let searchState = Search.State(
    query: state.query,
    items: state.items.map { Search.Repository(id: Int64($0.id), name: $0.name, stars: $0.stars) },
    nextURL: state.nextURL,
    shouldLoadNextPage: state.shouldLoadNextPage,
    lastError: .rateLimited(retryAfter: 1.5))
let pageEvent = Search.Event.pageLoaded(items: Array(searchState.items.prefix(10)), nextURL: state.nextURL)

let foundationEncoder = JSONEncoder()
let foundationDecoder = JSONDecoder()
let stateBytes = try JSONCoding.encode(state)
let stateData = Data(stateBytes)
let stateValue = try JSONParser.parse(stateBytes)
let searchBytes = try JSONCoding.encode(searchState)
let searchData = Data(searchBytes)
let pageBytes = try JSONCoding.encode(pageEvent)
let pageData = Data(pageBytes)
let eventBytes: [UInt8] = Array(#"{"increment":{}}"#.utf8)
let eventData = Data(eventBytes)

// Sanity: both codecs agree before we time them.
let ourState = try JSONCoding.decode(SearchState.self, from: stateBytes)
let theirState = try foundationDecoder.decode(SearchState.self, from: stateData)
let ourEvent = try JSONCoding.decode(CounterEvent.self, from: eventBytes)
precondition(ourState == state && theirState == state && ourEvent == .increment)
precondition(searchBytes == stateBytes, "Search.State and the bench's Codable copy must have the same JSON")
let checks = (try JSONCoding.decode(Search.State.self, from: searchBytes) == searchState,
              try foundationDecoder.decode(Search.State.self, from: searchData) == searchState,
              try foundationDecoder.decode(Search.Event.self, from: pageData) == pageEvent,
              try JSONCoding.decode(Search.Event.self, from: pageBytes) == pageEvent)
precondition(checks == (true, true, true, true), "both codecs must agree on Search.State and pageLoaded")

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

func nowNS() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Median ns/op of `ours` and `theirs` over `rounds` rounds; each round runs
/// `n` iterations of ours then `n / ratio` of Foundation, interleaved so that
/// load from other processes hits both sides alike.
func measure(rounds: Int = 15, n: Int, ratio: Int = 10, ours: () throws -> Void, theirs: () throws -> Void) rethrows -> (Double, Double) {
    for _ in 0..<max(1, n / 10) { try ours() }   // warm-up
    for _ in 0..<max(1, n / ratio / 10) { try theirs() }
    var a: [Double] = [], b: [Double] = []
    let m = max(1, n / ratio)
    for _ in 0..<rounds {
        let t0 = nowNS()
        for _ in 0..<n { try ours() }
        let t1 = nowNS()
        for _ in 0..<m { try theirs() }
        let t2 = nowNS()
        a.append(Double(t1 - t0) / Double(n))
        b.append(Double(t2 - t1) / Double(m))
    }
    a.sort(); b.sort()
    return (a[a.count / 2], b[b.count / 2])
}

// `CodecBench profile <op>` loops one of our operations, for a profiler.
if CommandLine.arguments.count > 2 && CommandLine.arguments[1] == "profile" {
    let op = CommandLine.arguments[2]
    for _ in 0..<300_000 {
        switch op {
        case "encode": blackHole(try JSONCoding.encode(state))
        case "decode": blackHole(try JSONCoding.decode(SearchState.self, from: stateBytes))
        case "directencode": blackHole(try JSONCoding.encode(searchState))
        case "directdecode": blackHole(try JSONCoding.decode(Search.State.self, from: searchBytes))
        case "decodevalue": blackHole(try JSONCoding.decode(SearchState.self, from: stateValue))
        case "event": blackHole(try JSONCoding.decode(CounterEvent.self, from: eventBytes))
        case "floorencode": try? state.encode(to: NullEncoder())
        case "floordecode": blackHole(try? SearchState(from: NullDecoder()))
        case "foundationencode": blackHole(try foundationEncoder.encode(state))
        case "foundationdecode": blackHole(try foundationDecoder.decode(SearchState.self, from: stateData))
        case "nothing": break
        default: blackHole(try JSONParser.parse(stateBytes))
        }
    }
    exit(0)
}

struct Row { var op: String; var ours: Double; var foundation: Double }
var rows: [Row] = []

func row(_ op: String, _ r: (Double, Double)) { rows.append(Row(op: op, ours: r.0, foundation: r.1)) }

row("encode Search.State (direct)", try measure(n: 20_000, ratio: 20,
    ours: { blackHole(try JSONCoding.encode(searchState)) },
    theirs: { blackHole(try foundationEncoder.encode(searchState)) }))
row("decode Search.State (direct)", try measure(n: 20_000, ratio: 20,
    ours: { blackHole(try JSONCoding.decode(Search.State.self, from: searchBytes)) },
    theirs: { blackHole(try foundationDecoder.decode(Search.State.self, from: searchData)) }))
row("decode pageLoaded, 10 items (direct)", try measure(n: 20_000, ratio: 20,
    ours: { blackHole(try JSONCoding.decode(Search.Event.self, from: pageBytes)) },
    theirs: { blackHole(try foundationDecoder.decode(Search.Event.self, from: pageData)) }))
row("encode state (Codable path)", try measure(n: 20_000,
    ours: { blackHole(try JSONCoding.encode(state)) },
    theirs: { blackHole(try foundationEncoder.encode(state)) }))
row("decode state (Codable path)", try measure(n: 20_000,
    ours: { blackHole(try JSONCoding.decode(SearchState.self, from: stateBytes)) },
    theirs: { blackHole(try foundationDecoder.decode(SearchState.self, from: stateData)) }))
row("decode event {\"increment\":{}}", try measure(n: 200_000, ratio: 4,
    ours: { blackHole(try JSONCoding.decode(CounterEvent.self, from: eventBytes)) },
    theirs: { blackHole(try foundationDecoder.decode(CounterEvent.self, from: eventData)) }))
row("parse state to JSONValue", try measure(n: 20_000,
    ours: { blackHole(try JSONParser.parse(stateBytes)) },
    theirs: { blackHole(try JSONSerialization.jsonObject(with: stateData)) }))

// The cost of Swift's Codable protocol machinery alone for this state: coders
// that do no parsing, lookup or output. No codec can be faster than this.
let floorDecode = measure(n: 20_000, ours: { blackHole(try? SearchState(from: NullDecoder())) }, theirs: {}).0
let floorEncode = measure(n: 20_000, ours: { try? state.encode(to: NullEncoder()) }, theirs: {}).0

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
func fmt(_ x: Double) -> String { String(format: "%.0f", x) }

print("state: \(stateBytes.count) bytes, 15 rounds, median ns/op")
print(pad("operation", 38) + pad("ours ns/op", 14) + pad("Foundation ns/op", 18) + "ratio")
for r in rows {
    print(pad(r.op, 38) + pad(fmt(r.ours), 14) + pad(fmt(r.foundation), 18) + String(format: "%.1fx", r.foundation / r.ours))
}
print("Codable floor (no-op Decoder/Encoder, same containers): decode \(fmt(floorDecode)) ns, encode \(fmt(floorEncode)) ns")
