import XCTest
@testable import CoreLogic

/// The payload-less event table stands in for the decoder only where both agree.
final class PayloadlessEventsTests: XCTestCase {
    private func viaTable<E: Codable>(_ type: E.Type, _ text: String) -> E? {
        PayloadlessEvents<E>().match(text)
    }

    func testTableAgreesWithTheDecoderForEveryPayloadlessCaseOfEveryEventType() throws {
        func check<E: Codable>(_ type: E.Type) throws {
            for name in JSONCoding.caseNames(of: E.self) ?? [] {
                for text in ["\"\(name)\"", "{\"\(name)\":{}}", " { \"\(name)\" : { } } ", "\n\"\(name)\"\t"] {
                    let decoded = try? JSONCoding.decode(E.self, from: text)
                    let table = viaTable(E.self, text)
                    XCTAssertEqual(table.map { try? JSONCoding.encodeToString($0) },
                                   decoded.map { try? JSONCoding.encodeToString($0) }, "\(E.self) \(text)")
                }
            }
        }
        try check(Counter.Event.self)
        try check(Search.Event.self)
        try check(Downloads.Event.self)
        try check(Probe.Event.self)
    }

    func testCasesWithRequiredPayloadAreNotInTheTable() {
        XCTAssertNil(viaTable(Search.Event.self, "\"queryChanged\""))
        XCTAssertNotNil(viaTable(Search.Event.self, "\"reachedBottom\""))
    }

    func testOtherFormsFallThroughToTheDecoder() {
        for text in ["{\"increment\":{},\"x\":1}", "{\"increment\":{\"a\":1}}", "\"incr\\u0065ment\"",
                     "\"increment\" x", "\"incrementx\"", "\"increment", "", "{}"] {
            XCTAssertNil(viaTable(Counter.Event.self, text), text)
        }
    }
}

final class PayloadlessLimitTests: XCTestCase {
    /// The shortcut enforces the decoder's size limit: over it, the table never answers.
    func testInputOverTheSizeLimitNeverMatches() {
        let table = PayloadlessEvents<Counter.Event>()
        var bytes = Array("\"increment\"".utf8)
        bytes += [UInt8](repeating: 0x20, count: JSONLimits.default.maxBytes - bytes.count)
        XCTAssertNotNil(bytes.withUnsafeBytes { table.match($0) })
        bytes.append(0x20)
        XCTAssertNil(bytes.withUnsafeBytes { table.match($0) })
        XCTAssertThrowsError(try JSONCoding.decode(Counter.Event.self, from: bytes))
    }
}

extension PayloadlessEvents {
    func match(_ text: String) -> Event? {
        Array(text.utf8).withUnsafeBytes { match($0) }
    }
}
