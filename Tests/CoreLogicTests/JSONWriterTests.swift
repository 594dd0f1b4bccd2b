import XCTest
@testable import CoreLogic
import CoreLogicTesting

final class JSONWriterTests: XCTestCase {
    func testStringsEscapeQuotesBackslashesAndControlCharactersOnly() {
        XCTAssertEqual(JSONWriter.string(.string("a\"b\\c/d")), "\"a\\\"b\\\\c/d\"")
        XCTAssertEqual(JSONWriter.string(.string("\n\t\r\u{8}\u{c}\u{0}\u{1f}\u{7f}")), "\"\\n\\t\\r\\b\\f\\u0000\\u001f\u{7f}\"")
        XCTAssertEqual(JSONWriter.string(.string("é😀")), "\"é😀\"")
        var out = _ByteBuffer(capacity: 1)
        defer { out.release() }
        JSONWriter.writeString("x\u{1}", into: &out)
        XCTAssertEqual(String(decoding: out.buffer, as: UTF8.self), "\"x\\u0001\"")
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

    /// One integer writer for every width: the sign of a narrow type kept, a type wider than
    /// 64 bits written whole (never truncated).
    func testIntegersOfEveryWidthAreWrittenWhole() {
        var buffer = _ByteBuffer(capacity: 1)
        defer { buffer.release() }
        buffer.appendInteger(Int8.min)
        buffer.append(UInt8(ascii: " "))
        buffer.appendInteger(UInt16.max)
        buffer.append(UInt8(ascii: " "))
        buffer.appendInteger(Int64.min)
        buffer.append(UInt8(ascii: " "))
        buffer.appendInteger(Int128.min)
        XCTAssertEqual(String(decoding: buffer.buffer, as: UTF8.self),
                       "-128 65535 -9223372036854775808 -170141183460469231731687303715884105728")
    }

    /// The escapers copy eight bytes (or four) at a time while no byte needs an escape:
    /// every length from 0 to 24, with each byte that must be escaped (and bytes that must
    /// not, from 0x80 up, next to ones that must) at every position, against a reference
    /// that escapes byte by byte.
    func testEscapersAgreeWithByteByByteEscapingAtEveryPosition() {
        func referenceString(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x22]
            for b in bytes {
                switch b {
                case 0x22: out += [0x5C, 0x22]
                case 0x5C: out += [0x5C, 0x5C]
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x08: out += Array(#"\b"#.utf8)
                case 0x0C: out += Array(#"\f"#.utf8)
                case 0..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
                default: out.append(b)
                }
            }
            return out + [0x22]
        }
        func referenceToken(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "/")]
            for b in bytes {
                switch b {
                case UInt8(ascii: "~"): out += Array("~0".utf8)
                case UInt8(ascii: "/"): out += Array("~1".utf8)
                default: out.append(b)
                }
            }
            return out
        }
        let special: [UInt8] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1F, 0x22, 0x2F, 0x5C, 0x7E]
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7D, 0x7F, 0x80, 0xA2, 0xDC, 0xFE, 0xFF]
        var cases: [[UInt8]] = []
        for length in 0...24 {
            let plain = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
            cases.append(plain)
            for position in 0..<length {
                for b in special + neighbours {
                    var bytes = plain
                    bytes[position] = b
                    cases.append(bytes)
                    // A byte that needs an escape right after one from 0x80 up (borrows).
                    if position > 0 { bytes[position - 1] = 0x80 }
                    cases.append(bytes)
                }
            }
        }
        for bytes in cases {
            var buffer = _ByteBuffer(capacity: 1)
            defer { buffer.release() }
            bytes.withUnsafeBufferPointer { buffer.appendJSONString(utf8: $0) }
            XCTAssertEqual(Array(buffer.buffer), referenceString(bytes), "string \(bytes)")
            buffer.truncate(to: 0)
            bytes.withUnsafeBufferPointer { buffer.appendPointerToken(utf8: $0) }
            XCTAssertEqual(Array(buffer.buffer), referenceToken(bytes), "token \(bytes)")
        }
    }

    /// The decimal writer at every change in the number of digits.
    func testDecimalsAtEveryNumberOfDigits() {
        var values: [UInt64] = [0, .max, .max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        for value in values {
            var buffer = _ByteBuffer(capacity: 1)
            defer { buffer.release() }
            buffer.appendDecimal(value)
            XCTAssertEqual(String(decoding: buffer.buffer, as: UTF8.self), String(value))
        }
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
