import XCTest
@testable import CoreLogic
import CoreLogicTesting

/// Accepts any JSON value without looking at it: decoding into it exercises only
/// the byte-level validation of the decode path.
private struct Skip: Decodable {
    init(from decoder: Decoder) throws {}
}

final class JSONParserTests: XCTestCase {
    /// Both entry points (tree parser and the decoder's tape) must agree.
    private func assertRejects(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertRejects(Array(text.utf8), file: file, line: line)
    }

    private func assertRejects(_ bytes: [UInt8], limits: JSONLimits = .default, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let v = try JSONParser.parse(bytes, limits: limits)
            XCTFail("accepted \(bytes) as \(v)", file: file, line: line)
        } catch let e as JSONError {
            XCTAssertEqual(e.kind, .syntax, file: file, line: line)
            XCTAssertEqual(e.path, "", file: file, line: line)
            XCTAssertTrue(e.message.contains("at byte") || e.message.contains("exceeds"), e.message, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        do {
            _ = try JSONCoding.decode(Skip.self, from: bytes, limits: limits)
            XCTFail("decode accepted \(bytes)", file: file, line: line)
        } catch let e as JSONError {
            XCTAssertEqual(e.kind, .syntax, file: file, line: line)
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
    }

    private func assertAccepts(_ text: String, _ expected: JSONValue, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(try JSONParser.parse(text), expected, text, file: file, line: line)
        XCTAssertNoThrow(try JSONCoding.decode(Skip.self, from: text), text, file: file, line: line)
    }

    func testAcceptsRFC8259Values() {
        assertAccepts("null", .null)
        assertAccepts(" true ", .bool(true))
        assertAccepts("false", .bool(false))
        assertAccepts("0", .int(0))
        assertAccepts("-0", .double(-0.0))
        assertAccepts("-0.0", .double(-0.0))
        assertAccepts("12", .int(12))
        assertAccepts("1.5", .double(1.5))
        assertAccepts("1e2", .double(100))
        assertAccepts("1E+2", .double(100))
        assertAccepts("2.5e-3", .double(0.0025))
        assertAccepts("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", .string("a\"b\\c/d\u{8}\u{c}\n\r\t"))
        assertAccepts("\"\\u00e9\\uD83D\\uDE00\"", .string("é😀"))
        assertAccepts("\"é😀\"", .string("é😀"))
        assertAccepts("[]", .array([]))
        assertAccepts("{}", .object([]))
        assertAccepts(" [1, \"x\", {\"a\": [null]}] \n", .array([.int(1), .string("x"), .object([("a", .array([.null]))])]))
        assertAccepts("{\"b\":1,\"a\":2}", .object([("b", .int(1)), ("a", .int(2))]))
    }

    func testRejectsEverythingRFC8259Rejects() {
        let bad = [
            "", " ", "[1,]", "{\"a\":1,}", "[,1]", "01", "-01", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-",
            "NaN", "Infinity", "-Infinity", "'a'", "['a']", "// c\n1", "/* c */ 1", "[1] // c",
            "\"a\u{01}b\"", "\"tab\tin\"", "\"\\x\"", "\"\\u12\"", "\"\\uZZZZ\"", "\"\\ud800\"", "\"\\ud800\\u0041\"",
            "\"\\udc00\"", "\"abc", "[1", "{\"a\"", "{\"a\":", "{\"a\" 1}", "{1:1}", "[1 2]", "{\"a\":1 \"b\":2}",
            "tru", "nul", "True", "1 2", "[] x", "{}}", "[]]", "\"a\" \"b\"",
        ]
        for text in bad { assertRejects(text) }
    }

    func testRejectsDuplicateObjectKeys() {
        assertRejects("{\"a\":1,\"a\":2}")
        assertRejects("{\"a\":1,\"\\u0061\":2}")
        assertRejects("{\"x\":{\"k\":1,\"j\":2,\"k\":3}}")
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        assertRejects("{" + many + ",\"k7\":0}")
        XCTAssertNoThrow(try JSONParser.parse("{" + many + "}"))
        XCTAssertNoThrow(try JSONParser.parse("[{\"a\":1},{\"a\":2}]"))
    }

    func testRejectsInvalidUTF8() {
        let cases: [[UInt8]] = [
            [0x22, 0xC0, 0xAF, 0x22],             // overlong '/'
            [0x22, 0xE0, 0x80, 0xAF, 0x22],       // overlong 3-byte
            [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], // overlong 4-byte
            [0x22, 0xED, 0xA0, 0x80, 0x22],       // UTF-8 encoded surrogate U+D800
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // above U+10FFFF
            [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], // invalid lead byte
            [0x22, 0xC3, 0x22],                   // truncated 2-byte
            [0x22, 0xE2, 0x82, 0x22],             // truncated 3-byte
            [0x22, 0x80, 0x22],                   // lone continuation byte
            [0x22, 0xFF, 0x22],
            [0xEF, 0xBB, 0xBF, 0x31],             // BOM is not JSON whitespace
            [0x5B, 0xC3, 0xA9, 0x5D],             // non-ASCII outside strings
            [0x22, 0x61, 0xC3],                   // truncated at end of input
        ]
        for c in cases { assertRejects(c) }
        XCTAssertEqual(try JSONParser.parse([0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]), .string("\u{10FFFF}"))
        XCTAssertEqual(try JSONParser.parse([0x22, 0xEF, 0xBF, 0xBF, 0x22]), .string("\u{FFFF}"))
    }

    func testDepthLimitIsAnErrorNotACrash() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        assertRejects(deep)
        let deepObjects = Array(String(repeating: "{\"a\":", count: 100_000).utf8)
        assertRejects(deepObjects)
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        XCTAssertNoThrow(try JSONParser.parse(ok))
        let tooDeep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        assertRejects(tooDeep)
        XCTAssertNoThrow(try JSONParser.parse(tooDeep, limits: JSONLimits(maxDepth: 200)))
        assertRejects(Array("[[1]]".utf8), limits: JSONLimits(maxDepth: 1))
    }

    func testSizeLimitIsAnError() {
        let big = Array(("[" + String(repeating: "1,", count: 100) + "1]").utf8)
        assertRejects(big, limits: JSONLimits(maxBytes: 100))
        XCTAssertNoThrow(try JSONParser.parse("[1,2]", limits: JSONLimits(maxBytes: 5)))
        XCTAssertThrowsError(try JSONParser.parse("[1,2] ", limits: JSONLimits(maxBytes: 5)))
    }

    func testNumbersAtSixtyFourBitBoundaries() throws {
        XCTAssertEqual(try JSONParser.parse("9223372036854775807"), .int(Int64.max))
        XCTAssertEqual(try JSONParser.parse("-9223372036854775808"), .int(Int64.min))
        XCTAssertEqual(try JSONParser.parse("9223372036854775808"), .uint(9_223_372_036_854_775_808))
        XCTAssertEqual(try JSONParser.parse("18446744073709551615"), .uint(UInt64.max))
        XCTAssertEqual(try JSONParser.parse("18446744073709551616"), .double(18446744073709551616.0))
        XCTAssertEqual(try JSONParser.parse("-9223372036854775809"), .double(-9223372036854775809.0))
        XCTAssertEqual(try JSONParser.parse("1.7976931348623157e308"), .double(Double.greatestFiniteMagnitude))
        XCTAssertEqual(try JSONParser.parse("5e-324"), .double(Double.leastNonzeroMagnitude))
        XCTAssertEqual(try JSONParser.parse("1e-400"), .double(0))
        XCTAssertEqual(try JSONParser.parse("0.1"), .double(0.1))
        XCTAssertEqual(try JSONParser.parse("123456789012345678901234567890"), .double(1.2345678901234568e29))
        XCTAssertEqual(try JSONParser.parse("0.30000000000000004"), .double(0.30000000000000004))
        XCTAssertEqual(try JSONParser.parse("1.00000000000000011102230246251565404236316680908203125"), .double(1.0))   // exact tie: to even
        XCTAssertEqual(try JSONParser.parse("1.00000000000000011102230246251565404236316680908203126"), .double(1.0000000000000002))
        assertRejects("1e400")
        assertRejects("-1e400")
    }

    func testSyntaxErrorsGiveByteLineAndColumn() {
        XCTAssertThrowsError(try JSONParser.parse("{\"a\":1 \"b\":2}")) { e in
            XCTAssertEqual((e as? JSONError)?.message, "expected ',' or '}', found '\"' at byte 7 (line 1, column 8)")
        }
        XCTAssertThrowsError(try JSONParser.parse("[\n  1,\n  ]")) { e in
            XCTAssertEqual((e as? JSONError)?.message, "expected a value, found ']' at byte 9 (line 3, column 3)")
        }
        XCTAssertThrowsError(try JSONParser.parse("{\"a\":1,\"a\":2}")) { e in
            XCTAssertEqual((e as? JSONError)?.message, "duplicate key \"a\" at byte 7 (line 1, column 8)")
        }
        XCTAssertThrowsError(try JSONCoding.decode(Skip.self, from: "{\"a\":1,\"a\":2}")) { e in
            XCTAssertEqual((e as? JSONError)?.message, "duplicate key \"a\" at byte 7 (line 1, column 8)")
        }
        XCTAssertThrowsError(try JSONParser.parse("")) { e in
            XCTAssertEqual((e as? JSONError)?.message, "empty input at byte 0 (line 1, column 1)")
        }
    }

    func testRoundTripParseWriteParse() throws {
        let docs = [
            "{\"query\":\"swift\",\"items\":[{\"id\":1,\"name\":\"a\\nb\",\"stars\":-3}],\"next\":null,\"ok\":true,\"r\":1.5}",
            "[1e-05,1.0,-0.0,12345678901234567890,-9223372036854775808,\"\\u0000\\u001f\\\"\\\\/é😀\"]",
            "\"\"", "[[],{},[{}]]", "0.1", "1e300",
        ]
        for d in docs {
            let v = try JSONParser.parse(d)
            let text = JSONWriter.string(v)
            XCTAssertEqual(try JSONParser.parse(text), v, text)
            XCTAssertEqual(JSONWriter.string(try JSONParser.parse(text)), text)
            XCTAssertEqual(try JSONParser.parse(JSONWriter.prettyString(v)), v)
        }
    }

    func testParsesFromStringsBytesAndBuffers() throws {
        let text = "{\"a\":[1,2]}"
        let bytes = Array(text.utf8)
        let expected = JSONValue.object([("a", .array([.int(1), .int(2)]))])
        XCTAssertEqual(try JSONParser.parse(text), expected)
        XCTAssertEqual(try JSONParser.parse(bytes), expected)
        XCTAssertEqual(try bytes.withUnsafeBytes { try JSONParser.parse($0) }, expected)
        XCTAssertThrowsError(try JSONParser.parse(UnsafeRawBufferPointer(start: nil, count: 0)))
    }
}
