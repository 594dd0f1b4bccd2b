import XCTest
@testable import CoreLogic
@testable import Cookbook

/// The payload-less event table stands in for the decoder only where both agree.
final class PayloadlessEventsTests: XCTestCase {
    private func viaTable<E: Codable>(_ type: E.Type, _ text: String) -> E? {
        PayloadlessCases<E>().match(text)
    }

    /// The two forms hosts write are answered as the decoder answers them; any other
    /// spelling (whitespace around or inside) is left to the decoder.
    func testTableAgreesWithTheDecoderForEveryPayloadlessCaseOfEveryEventType() throws {
        func check<E: Codable>(_ type: E.Type) throws {
            for name in JSONCoding.caseNames(of: E.self) ?? [] {
                for text in ["\"\(name)\"", "{\"\(name)\":{}}"] {
                    let decoded = try? JSONCoding.decode(E.self, from: text)
                    let table = viaTable(E.self, text)
                    XCTAssertEqual(table.map { try? JSONCoding.encodeToString($0) },
                                   decoded.map { try? JSONCoding.encodeToString($0) }, "\(E.self) \(text)")
                }
                for text in [" { \"\(name)\" : { } } ", "\n\"\(name)\"\t", "{ \"\(name)\":{}}", "{\"\(name)\":{} }"] {
                    XCTAssertNil(viaTable(E.self, text), "\(E.self) \(text)")
                }
            }
        }
        try check(Counter.Event.self)
        try check(Search.Event.self)
        try check(Downloads.Event.self)
    }

    func testCasesWithRequiredPayloadAreNotInTheTable() {
        XCTAssertNil(viaTable(Search.Event.self, "\"queryChanged\""))
        XCTAssertNotNil(viaTable(Search.Event.self, "\"reachedBottom\""))
    }

    func testOtherFormsFallThroughToTheDecoder() {
        for text in ["{\"increment\":{},\"x\":1}", "{\"increment\":{\"a\":1}}", "\"incr\\u0065ment\"",
                     "\"increment\" x", "\"incrementx\"", "\"increment", "", "{}",
                     // Quoted at both ends but not one name: the bare-name shortcut declines.
                     "\"increment\" \"increment\"", "\"incr\"ement\"", "\"increment\"\""] {
            XCTAssertNil(viaTable(Counter.Event.self, text), text)
        }
    }

    /// The name is compared in place with the known names of its length: only a whole
    /// name matches, whatever its length (shorter and longer than a word).
    func testOnlyWholeClosedNamesMatch() {
        XCTAssertEqual(viaTable(Counter.Event.self, "\"decrement\""), .decrement)
        XCTAssertEqual(viaTable(Search.Event.self, "{\"reachedBottom\":{}}"), .reachedBottom)
        XCTAssertEqual(viaTable(Search.Event.self, "\"retry\""), .retry)
        for text in ["\"incremen\"", "\"incrementt\"", "\"decrement", "\"decrement\\\"", "{\"increment\"",
                     "{\"increment\":{}", "\"\"", "\"", "\"INCREMENT\"", "\"retr\"", "\"reachedBottomm\""] {
            XCTAssertNil(viaTable(Counter.Event.self, text), text)
            XCTAssertNil(viaTable(Search.Event.self, text), text)
        }
    }

    /// A case whose name JSON must escape is left to the decoder: its raw bytes never
    /// match, escaped or not.
    func testNamesThatNeedEscapingAreLeftToTheDecoder() throws {
        XCTAssertNil(viaTable(Quoted.self, #""a\"b""#))
        XCTAssertNil(viaTable(Quoted.self, "\"a\"b\""))
        XCTAssertEqual(viaTable(Quoted.self, #""plain""#), .plain)
        XCTAssertEqual(try JSONCoding.decode(Quoted.self, from: #""a\"b""#), .quoted)
    }
}

/// An event type with a case name that holds a quote.
private enum Quoted: Codable, Equatable {
    case quoted, plain
    enum CodingKeys: String, CodingKey, CaseIterable {
        case quoted = "a\"b", plain
    }
}

final class PayloadlessLimitTests: XCTestCase {
    /// Padded to the size limit, a case name is no longer the table's: the decoder reads
    /// it, and rejects it one byte over the limit.
    func testPaddedInputGoesToTheDecoderAndItsLimit() throws {
        let table = PayloadlessCases<Counter.Event>()
        var bytes = Array("\"increment\"".utf8)
        bytes += [UInt8](repeating: 0x20, count: JSONLimits.default.maxBytes - bytes.count)
        XCTAssertNil(bytes.withUnsafeBytes { table.match($0) })
        XCTAssertEqual(try JSONCoding.decode(Counter.Event.self, from: bytes), .increment)
        bytes.append(0x20)
        XCTAssertNil(bytes.withUnsafeBytes { table.match($0) })
        XCTAssertThrowsError(try JSONCoding.decode(Counter.Event.self, from: bytes))
    }
}

extension PayloadlessCases {
    func match(_ text: String) -> Value? {
        Array(text.utf8).withUnsafeBytes { match($0) }
    }
}
