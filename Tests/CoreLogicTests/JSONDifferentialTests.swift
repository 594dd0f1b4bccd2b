import Foundation
import XCTest
@testable import CoreLogic

// Realistic feature types: a search screen's state, its events and errors.
struct DiffRepo: Codable, Equatable { var id: Int; var name: String; var stars: Int; var tags: [String]; var score: Double? }

enum DiffError: Codable, Equatable {
    case offline
    case rateLimited(retryAfter: Double)
    case server(code: Int, message: String?)
}

enum DiffSort: String, Codable, Equatable { case stars, updated }

struct DiffState: Codable, Equatable {
    var query: String
    var items: [DiffRepo]
    var nextURL: String?
    var shouldLoadNextPage: Bool
    var lastError: DiffError?
    var sort: DiffSort
    var counts: [String: Int]
    var page: UInt8
    var small: Int16?
    var big: UInt64
}

enum DiffEvent: Codable, Equatable {
    case queryChanged(text: String)
    case reachedBottom
    case pageLoaded(items: [DiffRepo], next: String?)
    case failed(error: DiffError)

    enum CodingKeys: String, CodingKey, CaseIterable { case queryChanged, reachedBottom, pageLoaded, failed }
}

/// Deterministic pseudo-random numbers (64-bit LCG).
struct LCG {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 11
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func bool() -> Bool { next() & 1 == 1 }
    mutating func string() -> String {
        let alphabet: [String] = ["a", "b", "z", "Q", " ", "0", "\"", "\\", "/", "\n", "\t", "\u{1}", "é", "日", "😀", "-", "_"]
        return (0..<int(12)).map { _ in alphabet[int(alphabet.count)] }.joined()
    }
    mutating func double() -> Double {
        switch int(5) {
        case 0: return Double(int(1000))
        case 1: return Double(int(1_000_000)) / 1000
        case 2: return Double(bitPattern: next() & 0x7FEF_FFFF_FFFF_FFFF)   // finite, any magnitude
        case 3: return -Double(int(100)) / 7
        default: return 0.1 * Double(int(50))
        }
    }
    mutating func repo() -> DiffRepo {
        DiffRepo(id: int(2) == 0 ? int(100_000) : Int(bitPattern: UInt(next() << 11)), name: string(), stars: int(50_000) - 100,
                 tags: (0..<int(3)).map { _ in string() }, score: bool() ? double() : nil)
    }
    mutating func error() -> DiffError {
        switch int(3) {
        case 0: return .offline
        case 1: return .rateLimited(retryAfter: double())
        default: return .server(code: int(600), message: bool() ? string() : nil)
        }
    }
    mutating func searchState() -> DiffState {
        var counts: [String: Int] = [:]
        for _ in 0..<int(4) { counts[string()] = int(100) }
        return DiffState(query: string(), items: (0..<int(5)).map { _ in repo() }, nextURL: bool() ? "https://x.test/?q=" + string() : nil,
                         shouldLoadNextPage: bool(), lastError: bool() ? error() : nil, sort: bool() ? .stars : .updated,
                         counts: counts, page: UInt8(int(256)), small: bool() ? Int16(int(60000) - 30000) : nil, big: next() << 11)
    }
    mutating func event() -> DiffEvent {
        switch int(4) {
        case 0: return .queryChanged(text: string())
        case 1: return .reachedBottom
        case 2: return .pageLoaded(items: (0..<int(3)).map { _ in repo() }, next: bool() ? string() : nil)
        default: return .failed(error: error())
        }
    }
}

/// Sorts object keys and compares numbers by value, so outputs of different
/// encoders (Foundation writes 1.0 as 1) can be compared.
func normalized(_ v: JSONValue) -> JSONValue {
    switch v {
    case .int(let i): return .double(Double(i))
    case .uint(let u): return .double(Double(u))
    case .double(let d): return .double(d)
    case .array(let a): return .array(a.map(normalized))
    case .object(let o): return .object(o.map { ($0.0, normalized($0.1)) }.sorted { $0.0 < $1.0 })
    default: return v
    }
}

final class JSONDifferentialTests: XCTestCase {
    let foundationEncoder = JSONEncoder()
    let foundationDecoder = JSONDecoder()

    private func assertSameEncoding<T: Encodable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        let ours = try JSONCoding.encode(value)
        let theirs = try foundationEncoder.encode(value)
        XCTAssertEqual(normalized(try JSONParser.parse(ours)), normalized(try JSONParser.parse(Array(theirs))),
                       String(decoding: ours, as: UTF8.self), file: file, line: line)
    }

    /// Both decoders accept or both reject; accepted values are equal.
    private func assertSameDecoding<T: Decodable & Equatable>(_ type: T.Type, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let ours = Result { try JSONCoding.decode(type, from: text) }
        let theirs = Result { try foundationDecoder.decode(type, from: Data(text.utf8)) }
        switch (ours, theirs) {
        case let (.success(a), .success(b)): XCTAssertEqual(a, b, text, file: file, line: line)
        case (.failure(let e), .failure):
            XCTAssertTrue(e is JSONError, "\(e)", file: file, line: line)
        default: XCTFail("accept/reject differs for \(text): ours \(ours), Foundation \(theirs)", file: file, line: line)
        }
    }

    func testEncodingMatchesFoundationForGeneratedStatesAndEvents() throws {
        var rng = LCG(state: 42)
        for _ in 0..<500 {
            try assertSameEncoding(rng.searchState())
            try assertSameEncoding(rng.event())
        }
    }

    func testDecodingMatchesFoundationForGeneratedStatesAndEvents() throws {
        var rng = LCG(state: 7)
        for _ in 0..<500 {
            let s = rng.searchState()
            let text = try JSONCoding.encodeToString(s)
            XCTAssertEqual(try JSONCoding.decode(DiffState.self, from: text), s)
            assertSameDecoding(DiffState.self, text)
            let e = rng.event()
            assertSameDecoding(DiffEvent.self, try JSONCoding.encodeToString(e))
            assertSameDecoding(DiffEvent.self, String(decoding: try foundationEncoder.encode(e), as: UTF8.self))
        }
    }

    func testDecodingMatchesFoundationOnEdgeInputs() {
        let repo = "{\"id\":1,\"name\":\"n\",\"stars\":2,\"tags\":[]}"
        let state = { (patch: String) -> String in
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5\(patch)}"
        }
        let stateInputs = [
            state(""), state(",\"nextURL\":null"), state(",\"lastError\":null"), state(",\"extra\":[1,{}]"),
            state(",\"lastError\":{\"offline\":{}}"), state(",\"lastError\":{\"rateLimited\":{\"retryAfter\":2}}"),
            state(",\"lastError\":{\"server\":{\"code\":500}}"), state(",\"lastError\":{\"server\":{\"code\":500,\"message\":null}}"),
            state(",\"lastError\":{\"nope\":{}}"), state(",\"lastError\":{}"), state(",\"lastError\":{\"offline\":{},\"server\":{\"code\":1}}"),
            state(",\"lastError\":{\"offline\":[]}"), state(",\"lastError\":{\"server\":{\"code\":1.5}}"),
            state(",\"small\":32767"), state(",\"small\":32768"), state(",\"small\":-32769"), state(",\"small\":1.0"), state(",\"small\":1e2"),
            state(",\"small\":\"1\""), state(",\"small\":true"),
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":256,\"big\":5}",
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":-1,\"big\":5}",
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":18446744073709551615}",
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":18446744073709551616}",
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":true,\"sort\":\"other\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"query\":\"q\",\"items\":[\(repo)],\"shouldLoadNextPage\":1,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"query\":null,\"items\":[],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"items\":[],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"query\":\"q\",\"items\":[{\"id\":1}],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"query\":\"q\",\"items\":{},\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "{\"query\":\"q\",\"items\":[],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{\"a\":1,\"b\":2},\"page\":1,\"big\":5}",
            "{\"query\":\"q\",\"items\":[],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{\"a\":\"x\"},\"page\":1,\"big\":5}",
            "{\"query\":\"\\u00e9\\ud83d\\ude00\",\"items\":[],\"shouldLoadNextPage\":true,\"sort\":\"stars\",\"counts\":{},\"page\":1,\"big\":5}",
            "[]", "null", "\"x\"", "{}",
        ]
        for s in stateInputs { assertSameDecoding(DiffState.self, s) }
        let eventInputs = [
            "{\"reachedBottom\":{}}", "{\"queryChanged\":{\"text\":\"s\"}}", "{\"queryChanged\":{}}", "{\"queryChanged\":{\"text\":1}}",
            "{\"unknown\":{}}", "{}", "[]", "{\"reachedBottom\":null}", "{\"reachedBottom\":{\"x\":1}}",
            "{\"failed\":{\"error\":{\"offline\":{}}}}", "{\"failed\":{\"error\":{\"rateLimited\":{\"retryAfter\":0.25}}}}",
            "{\"pageLoaded\":{\"items\":[]}}", "{\"pageLoaded\":{\"items\":[],\"next\":\"n\"}}",
        ]
        for s in eventInputs { assertSameDecoding(DiffEvent.self, s) }
        for s in ["1", "1.0", "-0", "1e2", "1.5", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "\"1\"", "null"] {
            assertSameDecoding(Int.self, s)
            assertSameDecoding(Int8.self, s)
            assertSameDecoding(UInt64.self, s)
            assertSameDecoding(Double.self, s)
        }
    }

    /// The one intended difference: a payload-less case sent as a bare string.
    func testBareStringCaseIsAcceptedWhereFoundationRejectsIt() {
        XCTAssertEqual(try JSONCoding.decode(DiffEvent.self, from: "\"reachedBottom\""), .reachedBottom)
        XCTAssertThrowsError(try foundationDecoder.decode(DiffEvent.self, from: Data("\"reachedBottom\"".utf8)))
    }

    func testFoundationAgreesOnIntegralDoublesForIntegers() {
        XCTAssertEqual(try JSONCoding.decode(Int.self, from: "1e2"), 100)
        XCTAssertEqual(try foundationDecoder.decode(Int.self, from: Data("1e2".utf8)), 100)
    }
}
