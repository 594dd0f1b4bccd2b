import XCTest
@testable import CoreLogic

final class JSONWriterTests: XCTestCase {
    func testStringsEscapeQuotesBackslashesAndControlCharactersOnly() {
        XCTAssertEqual(JSONWriter.string(.string("a\"b\\c/d")), "\"a\\\"b\\\\c/d\"")
        XCTAssertEqual(JSONWriter.string(.string("\n\t\r\u{8}\u{c}\u{0}\u{1f}\u{7f}")), "\"\\n\\t\\r\\b\\f\\u0000\\u001f\u{7f}\"")
        XCTAssertEqual(JSONWriter.string(.string("é😀")), "\"é😀\"")
        var out: [UInt8] = []
        JSONWriter.writeString("x\u{1}", into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "\"x\\u0001\"")
    }

    /// The byte buffer's pointer token (RFC 6901 escapes) and small-number writers, at
    /// the edges of their fast paths and across a growth of the buffer.
    func testByteBufferPointerTokensAndDecimals() {
        var buffer = _ByteBuffer(capacity: 1)
        defer { buffer.release() }
        for token in ["count", "", "a/b", "~", "~1/", "é"] {
            Array(token.utf8).withUnsafeBufferPointer { buffer.appendPointerToken(utf8: $0) }
        }
        for value: UInt64 in [0, 9, 10, 99_999, 100_000, .max] {
            buffer.append(UInt8(ascii: " "))
            buffer.appendDecimal(value)
        }
        XCTAssertEqual(String(decoding: buffer.buffer, as: UTF8.self),
                       "/count//a~1b/~0/~01~1/é 0 9 10 99999 100000 18446744073709551615")
    }

    func testCompactOutputKeepsKeyOrder() {
        let v = JSONValue.object([("b", .int(1)), ("a", .array([.null, .bool(true), .uint(UInt64.max)])), ("c", .object([]))])
        XCTAssertEqual(JSONWriter.string(v), "{\"b\":1,\"a\":[null,true,18446744073709551615],\"c\":{}}")
    }

    func testDoublesAreShortestRoundTripAndValidJSON() throws {
        let cases: [(Double, String)] = [
            (1, "1.0"), (-0.0, "-0.0"), (0.1, "0.1"), (1.5, "1.5"), (1e-5, "1e-05"), (1e300, "1e+300"),
            (123456789.0, "123456789.0"), (0.30000000000000004, "0.30000000000000004"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (5e-324, "5e-324"), (1e16, "1e+16"),
        ]
        for (d, s) in cases {
            XCTAssertEqual(JSONWriter.string(.double(d)), s)
            XCTAssertEqual(try JSONParser.parse(s), .double(d))
        }
        XCTAssertEqual(JSONWriter.string(.double(.nan)), "null")
        XCTAssertEqual(JSONWriter.string(.double(.infinity)), "null")
    }

    func testPrettyStringIsStableAndIndented() {
        let v = JSONValue.object([("b", .array([.int(1), .int(2)])), ("a", .object([])), ("c", .array([]))])
        XCTAssertEqual(JSONWriter.prettyString(v), """
        {
          "b": [
            1,
            2
          ],
          "a": {},
          "c": []
        }
        """)
        XCTAssertEqual(JSONWriter.prettyString(.int(3), indent: 4), "3")
    }
}
