@testable import CoreLogic
@testable import Cookbook
import CoreLogicTesting
import XCTest

/// `JSONDirectCodable`: the direct path writes and reads exactly what `Codable` does,
/// and anything it does not handle falls back to `Codable` with the same result.
final class JSONDirectTests: XCTestCase {
    typealias Repo = Search.Repository

    static let repos = [
        Repo(id: 1, name: "apple/swift", stars: 67000),
        Repo(id: Int64.max, name: "quote \" backslash \\ tab \t nul \u{0}", stars: -5),
        Repo(id: Int64.min, name: "ünïcödé 🎉 日本", stars: 0),
    ]

    static let states: [Search.State] = [
        Search.State(),
        Search.State(query: "swift", items: repos, nextURL: "/search/repositories?q=swift&page=2", shouldLoadNextPage: true, lastError: nil),
        Search.State(query: "", items: [repos[0]], nextURL: nil, shouldLoadNextPage: false, lastError: .offline),
        Search.State(query: "é", items: [], nextURL: "x", shouldLoadNextPage: false, lastError: .rateLimited(retryAfter: 1.5)),
        Search.State(lastError: .rateLimited(retryAfter: 0.1)),
        Search.State(lastError: .rateLimited(retryAfter: 1e-7)),
        Search.State(lastError: .rateLimited(retryAfter: 1e300)),
        Search.State(lastError: .rateLimited(retryAfter: -0.0)),
        Search.State(lastError: .rateLimited(retryAfter: 3)),
    ]

    static let events: [Search.Event] = [
        .queryChanged(text: "swift"),
        .queryChanged(text: "\u{1F600} \"q\""),
        .reachedBottom,
        .pageLoaded(items: repos, nextURL: "/next"),
        .pageLoaded(items: [], nextURL: nil),
        .loadFailed(error: .offline),
        .loadFailed(error: .rateLimited(retryAfter: 60)),
        .retry,
    ]

    func testSearchStateDirectAgreesWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements(Self.states, extraInputs: [
            #"{"query":"a","items":[],"shouldLoadNextPage":false}"#,
            #"{"query":"a","items":[],"nextURL":null,"shouldLoadNextPage":false,"lastError":null}"#,
            #"{"query":"a","items":[{"id":1.0,"name":"n","stars":1e2}],"shouldLoadNextPage":false}"#,
            #"{"query":"a","items":[{"id":9223372036854775808,"name":"n","stars":1}],"shouldLoadNextPage":false}"#,
            #"{"\u0071uery":"a","items":[],"shouldLoadNextPage":false}"#,
            #"{"query":"a","items":[],"shouldLoadNextPage":false,"lastError":"offline"}"#,
            #"{"query":"a","items":[],"shouldLoadNextPage":false,"lastError":{"rateLimited":{"retryAfter":2}}}"#,
            #"{"query":"a","items":[],"shouldLoadNextPage":false,"lastError":{"flooded":{}}}"#,
            #"{"query":"a","query":"b","items":[],"shouldLoadNextPage":false}"#,
            "{\"query\":\"\u{FF}\",\"items\":[],\"shouldLoadNextPage\":false}",
        ]), [])
    }

    func testSearchEventDirectAgreesWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements(Self.events, extraInputs: [
            #""reachedBottom""#, #""retry""#, #""queryChanged""#, #"{"retry":{"extra":1}}"#,
            #"{"pageLoaded":{"items":[]}}"#, #"{"pageLoaded":{"items":[],"nextURL":null}}"#,
            #"{"queryChanged":{"text":"a"},"retry":{}}"#, #"{}"#, #"[]"#, "null",
        ]), [])
    }

    /// A payload-less case sent bare (`"offline"`) is read directly, as `Codable` reads it
    /// (the case with an empty payload), at any depth; a bare case that needs a payload
    /// falls back to `Codable` and its error.
    func testBareCasesAreReadDirectly() throws {
        func direct<T: JSONDirectCodable>(_: T.Type, _ text: String) -> T? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { b in
                b.baseAddress.flatMap { _Direct.decode(T.self, base: $0, count: b.count, maxDepth: 8) }
            }
        }
        XCTAssertEqual(direct(Search.Event.self, #"{"loadFailed":{"error":"offline"}}"#), .loadFailed(error: .offline))
        XCTAssertEqual(direct(Search.Event.self, #" { "loadFailed" : { "error" : "offline" } } "#), .loadFailed(error: .offline))
        XCTAssertEqual(direct(Search.Event.self, #""retry""#), .retry)
        XCTAssertEqual(direct(Counter.Event.self, #""decrement""#), .decrement)
        XCTAssertNil(direct(Search.Event.self, #"{"loadFailed":{"error":"rateLimited"}}"#))
        XCTAssertThrowsError(try JSONCoding.decode(Search.Event.self, from: #"{"loadFailed":{"error":"rateLimited"}}"#)) { error in
            XCTAssertEqual("\(error)", "$.loadFailed.error.rateLimited: missing key 'retryAfter'")
        }
        XCTAssertEqual(JSONDirectCheck.disagreements([Search.LoadError.offline, .rateLimited(retryAfter: 2)], extraInputs: [
            #""offline""#, #""rateLimited""#, #""flooded""#, #""offline" "#, #""off\u006cine""#, #""offline"}"#,
        ]), [])
    }

    func testCounterDirectAgreesWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements([Counter.State(count: 0), Counter.State(count: .max), Counter.State(count: .min)],
                                                     extraInputs: [#"{"count":1.0}"#, #"{}"#, #"{"count":"1"}"#, #"{"count":1,"extra":2}"#]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([Counter.Event.increment, .decrement], extraInputs: [
            #""increment""#, #""decrement""#, #""reset""#, #"{"increment":{"by":1}}"#, #"{"increment":null}"#,
            #"{"increment":{},"decrement":{}}"#, #"{}"#, "0",
        ]), [])
    }

    func testPlaycatchDirectAgreesWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements([Playcatch.State(), Playcatch.State(ball: .machine, throwCount: 7)],
                                                     extraInputs: [#"{"ball":"nobody","throwCount":0}"#, #"{"ball":"hum\u0061n","throwCount":0}"#, #"{"ball":1,"throwCount":0}"#]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([Playcatch.Event.humanThrows, .machineThrows], extraInputs: [
            #""humanThrows""#, #""machineThrows""#, #""catch""#,
        ]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([Playcatch.TimerRequest(seconds: 1)], extraInputs: [#"{"seconds":1.5}"#]), [])
    }

    func testSearchRequestsDirectAgreeWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements([Search.PageRequest(url: "/search?q=a%20b")], extraInputs: [#"{"url":null}"#]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([Search.RetryRequest(seconds: 1), Search.RetryRequest(seconds: 0.25)],
                                                     extraInputs: [#"{"seconds":"1"}"#]), [])
    }

    func testStandardTypesDirectAgreeWithCodable() {
        XCTAssertEqual(JSONDirectCheck.disagreements(["", "a\"b", "\u{7F}\u{80}"], extraInputs: ["1", #""\ud800""#]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([0, 1, -1, Int.max, Int.min], extraInputs: ["1.0", "1e2", "-0", "18446744073709551616"]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([Int32.max, Int32.min], extraInputs: ["2147483648"]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([UInt64.max, 0], extraInputs: ["-1"]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([true, false], extraInputs: ["tru", "0"]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([0.5, -2, 1e21, 5e-324, .greatestFiniteMagnitude], extraInputs: ["1e400"]), [])
        XCTAssertEqual(JSONDirectCheck.disagreements([[1, 2], [Int]()], extraInputs: ["[1,]", "[,1]", "[1 2]"]), [])
    }

    /// An integer type wider than 64 bits gets the default conformance but declines to
    /// write (the writer is 64-bit): nothing is truncated, `Codable` answers.
    func testWideIntegersDeclineToWrite() {
        let big = Int128(Int64.max) * 4
        var out = _ByteBuffer(capacity: 16)
        defer { out.release() }
        out.append(UInt8(ascii: "["))
        XCTAssertFalse(_Direct.encode(big, into: &out))
        XCTAssertEqual(Array(out.buffer), [UInt8(ascii: "[")])
        XCTAssertEqual(JSONDirectCheck.disagreements([big]), [])
    }

    /// A non-finite double declines the direct path; the error is `Codable`'s, path and all.
    func testNonFiniteDoubleGivesTheCodableError() throws {
        let state = Search.State(lastError: .rateLimited(retryAfter: .infinity))
        XCTAssertThrowsError(try JSONCoding.encode(state)) { error in
            XCTAssertEqual("\(error)", #"$.lastError.rateLimited.retryAfter: cannot encode non-finite number inf"#)
        }
        XCTAssertEqual(JSONDirectCheck.disagreements([state, Search.State(lastError: .rateLimited(retryAfter: .nan))]), [])
    }

    /// The checker itself finds a wrong conformance: a writer that drops a member,
    /// a reader that accepts a shape `Codable` rejects (found through `extraInputs`), and
    /// a reader that never reads.
    func testCheckerCatchesWrongConformances() {
        XCTAssertFalse(JSONDirectCheck.disagreements([DropsMember(a: 1, b: 2)]).isEmpty)
        XCTAssertEqual(JSONDirectCheck.disagreements([TooLoose(a: 1)]), [], "no derived input has a string for a number")
        XCTAssertFalse(JSONDirectCheck.disagreements([TooLoose(a: 1)], extraInputs: [#"{"a":"7"}"#]).isEmpty)
        XCTAssertFalse(JSONDirectCheck.disagreements([NeverReads(a: 1)]).isEmpty)
        XCTAssertEqual(JSONDirectCheck.disagreements([MisnamesCases.on]),
                       [#"jsonCaseNames ["off", "on"], the coding keys' ["on", "off"]"#])
    }

    /// Case names are matched byte for byte: a Kelvin sign (U+212A) is canonically
    /// equivalent to "K", so `String` equality would take it for the case `Kelvin`,
    /// which `Codable` (matching bytes) does not; the direct reader leaves it to `Codable`.
    func testCaseNamesMatchByteForByte() {
        XCTAssertEqual("\u{212A}elvin", "Kelvin", "the premise: String equality is canonical")
        XCTAssertEqual(JSONDirectCheck.disagreements([Scale.kelvin, .celsius], extraInputs: [
            "{\"\u{212A}elvin\":{}}", #"{"\u004Belvin":{}}"#, #"{"Kelvin":{}}"#,
        ]), [])
        let kelvinSign = Array("{\"\u{212A}elvin\":{}}".utf8)
        let direct = kelvinSign.withUnsafeBufferPointer { b in
            b.baseAddress.flatMap { _Direct.decode(Scale.self, base: $0, count: b.count, maxDepth: 8) }
        }
        XCTAssertNil(direct, "the direct reader must decline a non-ASCII case name")
    }

    /// A key that JSON must escape never matches raw input: the direct reader declines
    /// even the canonical form, and `Codable` decides every input.
    func testKeysThatNeedEscapingGoToCodable() {
        let found = JSONDirectCheck.disagreements([Quoted(a: 1)], extraInputs: [
            #"{"a"b":1}"#, #"{"a\"b":1}"#, #"{"a\u0022b":1}"#,
        ])
        XCTAssertEqual(found.filter { !$0.contains("the direct reader declined") }, [])
        XCTAssertEqual(found.count, 2, "declines the compact and the pretty-printed form")
    }

    /// Errors keep the `Codable` path's wording and JSON path.
    func testErrorsComeFromTheCodablePath() {
        XCTAssertThrowsError(try JSONCoding.decode(Search.Event.self, from: #"{"pageLoaded":{"items":[{"id":1,"name":"n","stars":"many"}]}}"#)) { error in
            XCTAssertEqual("\(error)", "$.pageLoaded.items[0].stars: expected an integer, found a string \"many\"")
        }
        XCTAssertThrowsError(try JSONCoding.decode(Search.Event.self, from: #"{"flood":{}}"#)) { error in
            XCTAssertEqual("\(error)", "$: unknown case 'flood'; valid cases: queryChanged, reachedBottom, pageLoaded, loadFailed, retry")
        }
    }
}

extension Int128: JSONDirectCodable {}

/// Reads and writes like `Codable`, but lists its cases out of order.
private enum MisnamesCases: JSONDirectCodable {
    case on, off
    enum CodingKeys: String, CodingKey, CaseIterable { case on, off }
    static var jsonCaseNames: [String]? { ["off", "on"] }
    func writeJSON(to out: inout JSONOutput) throws {
        out.payloadlessCase(self == .on ? "on" : "off")
    }
    static func readJSON(from input: inout JSONInput) throws -> MisnamesCases {
        let value: MisnamesCases
        switch try input.beginCase() {
        case "on": value = .on
        case "off": value = .off
        default: throw input.mismatch()
        }
        try input.endCase()
        return value
    }
}

private enum Scale: JSONDirectCodable {
    case kelvin, celsius
    enum CodingKeys: String, CodingKey { case kelvin = "Kelvin", celsius = "Celsius" }
    func writeJSON(to out: inout JSONOutput) throws {
        switch self {
        case .kelvin: out.payloadlessCase("Kelvin")
        case .celsius: out.payloadlessCase("Celsius")
        }
    }
    static func readJSON(from input: inout JSONInput) throws -> Scale {
        let scale: Scale
        switch try input.beginCase() {
        case "Kelvin": scale = .kelvin
        case "Celsius": scale = .celsius
        default: throw input.mismatch()
        }
        try input.endCase()
        return scale
    }
}

/// A member whose name holds a quote.
private struct Quoted: JSONDirectCodable {
    var a: Int
    enum CodingKeys: String, CodingKey { case a = "a\"b" }
    func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject(); try out.field("a\"b", a); out.endObject()
    }
    static func readJSON(from input: inout JSONInput) throws -> Quoted {
        try input.beginObject()
        let v = Quoted(a: try input.field("a\"b"))
        try input.endObject()
        return v
    }
}

private struct DropsMember: JSONDirectCodable {
    var a: Int, b: Int
    func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject(); try out.field("a", a); out.endObject()
    }
    static func readJSON(from input: inout JSONInput) throws -> DropsMember {
        try input.beginObject()
        let v = DropsMember(a: try input.field("a"), b: try input.field("b"))
        try input.endObject()
        return v
    }
}

/// Reads `a` as a string too: looser than `Codable`.
private struct TooLoose: JSONDirectCodable {
    var a: Int
    func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject(); try out.field("a", a); out.endObject()
    }
    static func readJSON(from input: inout JSONInput) throws -> TooLoose {
        try input.beginObject()
        try input.key("a")
        let v: Int
        if let s = try? String.readJSON(from: &input) { v = Int(s) ?? 0 } else { v = try Int.readJSON(from: &input) }
        try input.endObject()
        return TooLoose(a: v)
    }
}

private struct NeverReads: JSONDirectCodable {
    var a: Int
    func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject(); try out.field("a", a); out.endObject()
    }
    static func readJSON(from input: inout JSONInput) throws -> NeverReads { throw input.mismatch() }
}
