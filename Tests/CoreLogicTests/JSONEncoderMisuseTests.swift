import XCTest
@testable import CoreLogic

/// A hand-written `encode(to:)` may use the encoder in ways synthesized code never does. The
/// `Codable` encoder writes as it goes, so it accepts what it can write in order, and reports
/// the rest as a `.schema` error with the path of the value, leaving the caller's bytes as
/// they were.
final class JSONEncoderMisuseTests: XCTestCase {
    /// Runs `body` as a value's `encode(to:)`.
    struct Custom: Encodable {
        let body: (Encoder) throws -> Void
        func encode(to encoder: Encoder) throws { try body(encoder) }
    }

    private func encoded(_ body: @escaping (Encoder) throws -> Void) throws -> String {
        try JSONCoding.encodeToString(["v": Custom(body: body)])
    }

    private func assertRefused(_ message: String, line: UInt = #line, _ body: @escaping (Encoder) throws -> Void) {
        var out: [UInt8] = [7]
        XCTAssertThrowsError(try JSONCoding.encode(["v": Custom(body: body)], into: &out), line: line) { error in
            XCTAssertEqual((error as? JSONError)?.kind, .schema, line: line)
            XCTAssertEqual((error as? JSONError)?.message, "$.v: " + message, line: line)
        }
        XCTAssertEqual(out, [7], "a refused value leaves the bytes before it", line: line)
    }

    enum K: String, CodingKey { case a, b }

    func testAValueThatEncodesNothingIsAnEmptyObject() throws {
        XCTAssertEqual(try encoded { _ in }, #"{"v":{}}"#)
    }

    func testAskingTwiceForTheSameContainerGivesTheOneAlreadyOpen() throws {
        let text = try encoded { encoder in
            var first = encoder.container(keyedBy: K.self)
            try first.encode(1, forKey: .a)
            var second = encoder.container(keyedBy: K.self)
            try second.encode(2, forKey: .b)
        }
        XCTAssertEqual(text, #"{"v":{"a":1,"b":2}}"#)
    }

    func testMembersOfAnOuterContainerMayFollowANestedOne() throws {
        let text = try encoded { encoder in
            var outer = encoder.container(keyedBy: K.self)
            var inner = outer.nestedUnkeyedContainer(forKey: .a)
            try inner.encode(1)
            try outer.encode(2, forKey: .b)
        }
        XCTAssertEqual(text, #"{"v":{"a":[1],"b":2}}"#)
    }

    func testTwoSingleValuesAreRefused() {
        assertRefused("more than one value encoded into a single value container") { encoder in
            var single = encoder.singleValueContainer()
            try single.encode(1)
            try single.encode(2)
        }
    }

    func testAContainerAfterASingleValueIsRefused() {
        assertRefused("a container was requested after a single value was encoded") { encoder in
            var single = encoder.singleValueContainer()
            try single.encode(1)
            _ = encoder.container(keyedBy: K.self)
        }
    }

    func testAnArrayWhereAnObjectIsOpenIsRefused() {
        assertRefused("conflicting containers requested for one value") { encoder in
            _ = encoder.container(keyedBy: K.self)
            _ = encoder.unkeyedContainer()
        }
    }

    func testASuperEncoderKeptPastItsValueIsRefused() {
        final class Kept { var encoder: Encoder? }
        let kept = Kept()
        var out: [UInt8] = []
        let keep = Custom { encoder in
            var c = encoder.container(keyedBy: K.self)
            kept.encoder = c.superEncoder()
        }
        let useKept = Custom { _ in _ = kept.encoder?.container(keyedBy: K.self) }
        XCTAssertThrowsError(try JSONCoding.encode([keep, useKept], into: &out)) { error in
            XCTAssertEqual((error as? JSONError)?.message, "$[1]: a container was requested after its value was complete")
        }
        XCTAssertEqual(out, [])
        // After the encode, the kept encoder writes nowhere the caller can see.
        var buffer = _ByteBuffer(capacity: 64)
        defer { buffer.release() }
        buffer.append("[1]")
        try? JSONCoding.encodeWithCodable(keep, into: &buffer)
        var late = kept.encoder?.container(keyedBy: K.self)
        try? late?.encode(String(repeating: "x", count: 100), forKey: .a)
        XCTAssertEqual(String(decoding: buffer.buffer, as: UTF8.self), #"[1]{"super":{}}"#)
    }

    func testANestedContainerUsedAfterItsParentMovedOnIsRefused() {
        assertRefused("a container was used after it was complete") { encoder in
            var outer = encoder.container(keyedBy: K.self)
            var inner = outer.nestedUnkeyedContainer(forKey: .a)
            try outer.encode(2, forKey: .b)
            try inner.encode(1)
        }
    }
}
