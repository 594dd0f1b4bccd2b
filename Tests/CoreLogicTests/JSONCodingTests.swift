import XCTest
@testable import CoreLogic

enum CounterEvent: Codable, Equatable {
    case increment
    case decrement
    case search(query: String)
    case pageLoaded(items: [SearchRepo], next: String?)

    enum CodingKeys: String, CodingKey, CaseIterable { case increment, decrement, search, pageLoaded }
}

struct SearchRepo: Codable, Equatable { var id: Int; var name: String; var stars: Int }

enum PlainEvent: Codable, Equatable { case tick, tock(count: Int) }

struct Wrapper: Codable, Equatable {
    var event: CounterEvent
    var events: [CounterEvent]
}

struct Numbers: Codable, Equatable {
    var i8: Int8; var u8: UInt8; var i16: Int16; var u16: UInt16; var i32: Int32; var u32: UInt32
    var i64: Int64; var u64: UInt64; var i: Int; var u: UInt; var f: Float; var d: Double
}

struct WithDictionary: Codable, Equatable {
    var counts: [String: Int]
    var byID: [Int: String]
}

struct Scalars: Codable, Equatable { var d: Double? }

class Base: Codable {
    var a = 1
    init() {}
}

final class Derived: Base {
    var b = 2
    enum CodingKeys: String, CodingKey { case b }
    override init() { super.init() }
    required init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        b = try c.decode(Int.self, forKey: .b)
        try super.init(from: c.superDecoder())
    }
    override func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(b, forKey: .b)
        try super.encode(to: c.superEncoder())
    }
}

final class JSONCodingTests: XCTestCase {
    /// Decodes from the bytes and from the already parsed JSONValue (which is written
    /// back to bytes for the one decoder) and checks both give the value or the error message.
    private func decodeBoth<T: Decodable & Equatable>(_ type: T.Type, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let viaTape = Result { try JSONCoding.decode(type, from: text) }
        let viaTree = Result { try JSONCoding.decode(type, from: try JSONParser.parse(text)) }
        switch (viaTape, viaTree) {
        case let (.success(a), .success(b)):
            XCTAssertEqual(a, b, file: file, line: line)
            return a
        case let (.failure(a), .failure(b)):
            XCTAssertEqual("\(a)", "\(b)", "decoders disagree", file: file, line: line)
            throw a
        default:
            XCTFail("decoders disagree: \(viaTape) vs \(viaTree)", file: file, line: line)
            throw JSONError(kind: .schema, message: "disagree", path: "")
        }
    }

    private func assertSchemaError<T: Decodable & Equatable>(_ type: T.Type, _ text: String, _ message: String, path: String? = nil,
                                                          file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try decodeBoth(type, text, file: file, line: line), file: file, line: line) { e in
            guard let e = e as? JSONError else { return XCTFail("not a JSONError: \(e)", file: file, line: line) }
            XCTAssertEqual(e.kind, .schema, file: file, line: line)
            XCTAssertEqual(e.message, message, file: file, line: line)
            if let path = path { XCTAssertEqual(e.path, path, file: file, line: line) }
        }
    }

    func testEnumsAreExternallyTaggedWithLabelledPayloads() throws {
        XCTAssertEqual(try JSONCoding.encodeToString(CounterEvent.increment), "{\"increment\":{}}")
        XCTAssertEqual(try JSONCoding.encodeToString(CounterEvent.search(query: "swift")), "{\"search\":{\"query\":\"swift\"}}")
        XCTAssertEqual(try JSONCoding.encodeToString(CounterEvent.pageLoaded(items: [SearchRepo(id: 1, name: "a", stars: 2)], next: nil)),
                       "{\"pageLoaded\":{\"items\":[{\"id\":1,\"name\":\"a\",\"stars\":2}]}}")
        XCTAssertEqual(try decodeBoth(CounterEvent.self, "{\"search\":{\"query\":\"swift\"}}"), .search(query: "swift"))
        XCTAssertEqual(try decodeBoth(CounterEvent.self, "{\"increment\":{}}"), .increment)
    }

    func testPayloadlessCaseMayBeABareString() throws {
        XCTAssertEqual(try decodeBoth(CounterEvent.self, "\"increment\""), .increment)
        XCTAssertEqual(try decodeBoth(Wrapper.self, "{\"event\":\"decrement\",\"events\":[\"increment\",{\"decrement\":{}}]}"),
                       Wrapper(event: .decrement, events: [.increment, .decrement]))
        XCTAssertEqual(try decodeBoth(PlainEvent.self, "\"tick\""), .tick)
        assertSchemaError(CounterEvent.self, "\"search\"", "$.search: missing key 'query'", path: "$.search")
    }

    func testUnknownCaseNamesTheValidCases() {
        assertSchemaError(CounterEvent.self, "{\"foo\":{}}", "$: unknown case 'foo'; valid cases: increment, decrement, search, pageLoaded", path: "$")
        assertSchemaError(CounterEvent.self, "\"foo\"", "$: unknown case 'foo'; valid cases: increment, decrement, search, pageLoaded")
        assertSchemaError(Wrapper.self, "{\"event\":\"increment\",\"events\":[\"increment\",{\"bar\":{}}]}",
                          "$.events[1]: unknown case 'bar'; valid cases: increment, decrement, search, pageLoaded", path: "$.events[1]")
        assertSchemaError(CounterEvent.self, "{}", "$: expected exactly one of: increment, decrement, search, pageLoaded; found an empty object")
        assertSchemaError(CounterEvent.self, "{\"increment\":{},\"decrement\":{}}",
                          "$: expected exactly one of: increment, decrement, search, pageLoaded; found 2 keys: increment, decrement")
        assertSchemaError(PlainEvent.self, "{\"foo\":{}}", "$: unknown case 'foo'")
        assertSchemaError(PlainEvent.self, "\"foo\"", "$: expected an object, found a string \"foo\"")
    }

    func testSchemaErrorsNameThePath() {
        assertSchemaError(CounterEvent.self, "{\"search\":{\"query\":3}}", "$.search.query: expected a string, found a number", path: "$.search.query")
        assertSchemaError(CounterEvent.self, "{\"search\":{}}", "$.search: missing key 'query'")
        assertSchemaError(CounterEvent.self, "{\"pageLoaded\":{\"items\":[{\"id\":1,\"name\":\"a\",\"stars\":2},{\"id\":1,\"name\":\"a\",\"stars\":2},{\"id\":1,\"name\":\"a\",\"stars\":\"x\"}]}}",
                          "$.pageLoaded.items[2].stars: expected an integer, found a string \"x\"", path: "$.pageLoaded.items[2].stars")
        assertSchemaError(CounterEvent.self, "{\"pageLoaded\":{\"items\":{}}}", "$.pageLoaded.items: expected an array, found an object")
        assertSchemaError(CounterEvent.self, "[]", "$: expected an object, found an array")
        assertSchemaError(SearchRepo.self, "{\"id\":null,\"name\":\"a\",\"stars\":1}", "$.id: expected an integer, found null")
        assertSchemaError(SearchRepo.self, "{\"id\":1.5,\"name\":\"a\",\"stars\":1}", "$.id: expected an integer, found 1.5")
        assertSchemaError(SearchRepo.self, "{\"id\":true,\"name\":\"a\",\"stars\":1}", "$.id: expected an integer, found a boolean")
        assertSchemaError([Int].self, "[1,\"a\"]", "$[1]: expected an integer, found a string \"a\"")
    }

    func testMemberLookupDoesNotDependOnKeyOrder() throws {
        let expected = SearchRepo(id: 1, name: "a", stars: 2)
        XCTAssertEqual(try decodeBoth(SearchRepo.self, "{\"stars\":2,\"x\":[1],\"name\":\"a\",\"id\":1}"), expected)
        XCTAssertEqual(try decodeBoth(SearchRepo.self, "{\"name\":\"a\",\"id\":1,\"stars\":2}"), expected)
        XCTAssertEqual(try decodeBoth([SearchRepo].self, "[{\"id\":1,\"name\":\"a\",\"stars\":2},{\"stars\":2,\"name\":\"a\",\"id\":1}]"), [expected, expected])
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let dict = try decodeBoth([String: Int].self, "{" + many + "}")
        XCTAssertEqual(dict.count, 40)
        XCTAssertEqual(dict["k39"], 39)
        XCTAssertEqual(try decodeBoth(SearchRepo.self, "{\"n\\u0061me\":\"a\",\"id\":1,\"stars\":2}"), expected)
    }

    /// A value is decoded through its bytes, so one no parse gives fails as those bytes do.
    func testValuesAreDecodedThroughTheirBytes() {
        let duplicate = JSONValue.object([("id", .int(1)), ("id", .int(2)), ("name", .string("a")), ("stars", .int(3))])
        XCTAssertThrowsError(try JSONCoding.decode(SearchRepo.self, from: duplicate)) { e in
            XCTAssertEqual((e as? JSONError)?.kind, .syntax)
            XCTAssertEqual((e as? JSONError)?.message, "duplicate key \"id\" at byte 8 (line 1, column 9)")
        }
        // A non-finite double is written `null`, so an optional reads it as nil.
        XCTAssertEqual(try JSONCoding.decode(Scalars.self, from: .object([("d", .double(.nan))])), Scalars(d: nil))
        XCTAssertEqual(try JSONCoding.decode(Scalars.self, from: .object([("d", .null)])), Scalars(d: nil))
    }

    func testSyntaxErrorsFromDecodeAreSyntaxKind() {
        XCTAssertThrowsError(try JSONCoding.decode(CounterEvent.self, from: "{\"increment\":{}")) { e in
            XCTAssertEqual((e as? JSONError)?.kind, .syntax)
        }
    }

    func testOptionalsAreOmittedWhenNilAndMissingOrNullDecodeAsNil() throws {
        XCTAssertEqual(try JSONCoding.encodeToString(Scalars(d: nil)), "{}")
        XCTAssertEqual(try JSONCoding.encodeToString(Scalars(d: 2)), "{\"d\":2.0}")
        XCTAssertEqual(try decodeBoth(Scalars.self, "{}"), Scalars(d: nil))
        XCTAssertEqual(try decodeBoth(Scalars.self, "{\"d\":null}"), Scalars(d: nil))
        XCTAssertEqual(try decodeBoth(Scalars.self, "{\"d\":3,\"extra\":[1]}"), Scalars(d: 3))
        XCTAssertEqual(try JSONCoding.encodeToString([Int?.none, 1]), "[null,1]")
        XCTAssertEqual(try JSONCoding.encodeToString(Int?.none), "null")
    }

    func testIntegersMustBeExactAndInRange() throws {
        let ok = "{\"i8\":-128,\"u8\":255,\"i16\":-32768,\"u16\":65535,\"i32\":-2147483648,\"u32\":4294967295,\"i64\":-9223372036854775808,\"u64\":18446744073709551615,\"i\":9223372036854775807,\"u\":0,\"f\":0.5,\"d\":1e300}"
        let n = try decodeBoth(Numbers.self, ok)
        XCTAssertEqual(n.u64, UInt64.max)
        XCTAssertEqual(n.i64, Int64.min)
        XCTAssertEqual(try JSONCoding.encodeToString(n), ok.replacingOccurrences(of: "1e300", with: "1e+300"))
        assertSchemaError(UInt8.self, "300", "$: 300 does not fit in UInt8")
        assertSchemaError(UInt.self, "-1", "$: -1 does not fit in UInt")
        assertSchemaError(Int.self, "18446744073709551615", "$: 18446744073709551615 does not fit in Int")
        assertSchemaError(Int.self, "1.5", "$: expected an integer, found 1.5")
        assertSchemaError(Float.self, "1e300", "$: 1e+300 does not fit in Float")
        XCTAssertEqual(try decodeBoth(Int.self, "1.0"), 1)
        XCTAssertEqual(try decodeBoth(Double.self, "3"), 3)
    }

    /// A number written with a fraction or an exponent, or beyond 64 bits, is read from
    /// its digits: the double it rounds to never brings it into range or changes it.
    func testIntegersAreReadFromTheirDigitsExactly() throws {
        func decode<I: FixedWidthInteger & Decodable>(_: I.Type, _ text: String) throws -> I {
            try JSONCoding.decode(I.self, from: text)
        }
        func refused<I: FixedWidthInteger & Decodable>(_: I.Type, _ text: String, _ message: String,
                                                      line: UInt = #line) {
            XCTAssertThrowsError(try decode(I.self, text), line: line) { e in
                XCTAssertEqual((e as? JSONError)?.kind, .schema, line: line)
                XCTAssertEqual((e as? JSONError)?.message, message, line: line)
            }
        }
        refused(Int64.self, "-9223372036854775809", "$: -9223372036854775809 does not fit in Int64")
        refused(Int64.self, "-9223372036854776832", "$: -9223372036854776832 does not fit in Int64")
        refused(Int64.self, "-9223372036854775809.0", "$: -9223372036854775809.0 does not fit in Int64")
        refused(Int.self, "-9.223372036854775809e18", "$: -9.223372036854775809e18 does not fit in Int")
        refused(Int.self, "9223372036854775808.0", "$: 9223372036854775808.0 does not fit in Int")
        refused(Int.self, "-9223372036854775807.5", "$: expected an integer, found -9.223372036854776e+18")
        refused(UInt64.self, "18446744073709551616", "$: 18446744073709551616 does not fit in UInt64")
        refused(UInt64.self, "18446744073709551615.5", "$: expected an integer, found 1.8446744073709552e+19")
        refused(UInt64.self, "1e20", "$: 1e20 does not fit in UInt64")
        refused(UInt8.self, "2.56e2", "$: 2.56e2 does not fit in UInt8")
        refused(Int8.self, "-1.29e2", "$: -1.29e2 does not fit in Int8")
        refused(UInt.self, "-1e0", "$: -1e0 does not fit in UInt")
        refused(Int.self, "1e-1", "$: expected an integer, found 0.1")
        XCTAssertEqual(try decode(Int64.self, "-9223372036854775808.0"), Int64.min)
        XCTAssertEqual(try decode(Int64.self, "-9.223372036854775808e18"), Int64.min)
        XCTAssertEqual(try decode(Int64.self, "-92233720368547758080e-1"), Int64.min)
        XCTAssertEqual(try decode(Int64.self, "9223372036854775807.000"), Int64.max)
        XCTAssertEqual(try decode(UInt64.self, "18446744073709551615.0"), UInt64.max)
        XCTAssertEqual(try decode(UInt64.self, "1.8446744073709551615E+19"), UInt64.max)
        XCTAssertEqual(try decode(Int.self, "9007199254740993.0"), 9007199254740993)
        XCTAssertEqual(try decode(Int8.self, "-1.28e2"), -128)
        XCTAssertEqual(try decode(UInt.self, "-0.0e5"), 0)
        XCTAssertEqual(try decode(Int.self, "0.00120e4"), 12)
        XCTAssertEqual(try decode(Int.self, "1200e-2"), 12)
        XCTAssertEqual(try decode(Int.self, "0e999999999"), 0)
    }

    func testNonFiniteDoublesCannotBeEncoded() {
        XCTAssertThrowsError(try JSONCoding.encode(Scalars(d: .nan))) { e in
            XCTAssertEqual((e as? JSONError)?.kind, .schema)
            XCTAssertEqual((e as? JSONError)?.path, "$.d")
            XCTAssertEqual((e as? JSONError)?.message, "$.d: cannot encode non-finite number nan")
        }
        XCTAssertThrowsError(try JSONCoding.encode([[1.0], [2.0, .infinity]])) { e in
            XCTAssertEqual((e as? JSONError)?.message, "$[1][1]: cannot encode non-finite number inf")
        }
        XCTAssertThrowsError(try JSONCoding.encode(Float.infinity)) { e in
            XCTAssertEqual((e as? JSONError)?.path, "$")
        }
        var out: [UInt8] = [1, 2]
        XCTAssertThrowsError(try JSONCoding.encode(Scalars(d: .nan), into: &out))
        XCTAssertEqual(out, [1, 2], "a failed encode leaves the buffer unchanged")
    }

    func testDictionariesAreWrittenWithSortedKeys() throws {
        var counts: [String: Int] = [:]
        for k in ["pear", "apple", "fig", "banana", "cherry", "date", "kiwi"] { counts[k] = k.count }
        let v = WithDictionary(counts: counts, byID: [3: "c", 1: "a", 20: "t"])
        let text = try JSONCoding.encodeToString(v)
        XCTAssertEqual(text, "{\"counts\":{\"apple\":5,\"banana\":6,\"cherry\":6,\"date\":4,\"fig\":3,\"kiwi\":4,\"pear\":4},\"byID\":{\"1\":\"a\",\"20\":\"t\",\"3\":\"c\"}}")
        XCTAssertEqual(try decodeBoth(WithDictionary.self, text), v)
        XCTAssertEqual(try JSONCoding.encodeToString(["b": ["y": 1, "x": 2], "a": [:]]), "{\"a\":{},\"b\":{\"x\":2,\"y\":1}}")
    }

    /// The `Codable` encoder writes in the caller's buffer after the bytes already there
    /// (a batch's), moving them when it outgrows the buffer; dictionaries sort among their
    /// own bytes only. A failure leaves the bytes before it as they were.
    func testTheCodableEncoderAppendsInTheCallersBuffer() throws {
        var counts: [String: Int] = [:]
        for k in ["pear", "apple", "fig"] { counts[k] = k.count }
        let value = WithDictionary(counts: counts, byID: [3: "c", 1: "a"])
        var buffer = _ByteBuffer(capacity: 16)
        defer { buffer.release() }
        buffer.append("{\"state\":")
        try JSONCoding.encodeWithCodable(value, into: &buffer)
        buffer.append(UInt8(ascii: "}"))
        let written = String(decoding: buffer.buffer, as: UTF8.self)
        XCTAssertEqual(written, "{\"state\":{\"counts\":{\"apple\":5,\"fig\":3,\"pear\":4},\"byID\":{\"1\":\"a\",\"3\":\"c\"}}}")
        let before = buffer.count
        struct LongThenNaN: Encodable { var text = String(repeating: "x", count: 300); var d = Double.nan }
        XCTAssertThrowsError(try JSONCoding.encodeWithCodable(LongThenNaN(), into: &buffer), "fails after outgrowing the buffer")
        XCTAssertEqual(buffer.count, before)
        XCTAssertEqual(String(decoding: buffer.buffer, as: UTF8.self), written)
    }

    func testSuperEncoderAndDecoderUseTheSuperKey() throws {
        let text = try JSONCoding.encodeToString(Derived())
        XCTAssertEqual(text, "{\"b\":2,\"super\":{\"a\":1}}")
        let d = try JSONCoding.decode(Derived.self, from: "{\"b\":5,\"super\":{\"a\":7}}")
        XCTAssertEqual(d.a, 7)
        XCTAssertEqual(d.b, 5)
        let t = try JSONCoding.decode(Derived.self, from: try JSONParser.parse("{\"b\":5,\"super\":{\"a\":7}}"))
        XCTAssertEqual(t.a, 7)
    }

    func testEncodeToValueMatchesParsedOutput() throws {
        let e = CounterEvent.search(query: "q")
        XCTAssertEqual(try JSONCoding.encodeToValue(e), .object([("search", .object([("query", .string("q"))]))]))
        var out: [UInt8] = Array("x".utf8)
        try JSONCoding.encode(1, into: &out)
        XCTAssertEqual(out, Array("x1".utf8))
        XCTAssertEqual(try JSONCoding.encodeToString("a\"b"), "\"a\\\"b\"")
    }

    func testCaseNamesListsDeclaredCaseKeys() {
        XCTAssertEqual(JSONCoding.caseNames(of: CounterEvent.self), ["increment", "decrement", "search", "pageLoaded"])
        XCTAssertNil(JSONCoding.caseNames(of: PlainEvent.self))
        XCTAssertNil(JSONCoding.caseNames(of: Int.self))
    }

    func testHostileInputNeverCrashesTheDecoder() {
        let inputs = [
            String(repeating: "[", count: 100_000), "{\"event\":" + String(repeating: "{\"increment\":", count: 5000),
            "{\"search\":{\"query\":\"\\ud800\"}}", "[" + String(repeating: "\"increment\",", count: 1000) + "1]",
        ]
        for s in inputs {
            XCTAssertThrowsError(try JSONCoding.decode(Wrapper.self, from: s))
            XCTAssertThrowsError(try JSONCoding.decode([CounterEvent].self, from: s))
        }
    }

    /// An unkeyed container is a value: a copy peeks at the next element's kind, and the
    /// original still decodes that element (an array of mixed shapes read so).
    func testACopiedUnkeyedContainerMovesOnItsOwn() throws {
        let shapes = try JSONCoding.decode(Shapes.self, from: #"[{"kind":"dot","x":1},{"kind":"line","length":2}]"#)
        XCTAssertEqual(shapes.all, [.dot(x: 1), .line(length: 2)])
    }
}

/// Shapes told apart by a peek at each element's "kind" through a copy of the container.
private struct Shapes: Decodable {
    enum Shape: Equatable { case dot(x: Int), line(length: Int) }
    private enum Keys: String, CodingKey { case kind, x, length }
    var all: [Shape] = []

    init(from decoder: Decoder) throws {
        var elements = try decoder.unkeyedContainer()
        while !elements.isAtEnd {
            var peek = elements
            let kind = try peek.nestedContainer(keyedBy: Keys.self).decode(String.self, forKey: .kind)
            let element = try elements.nestedContainer(keyedBy: Keys.self)
            all.append(kind == "dot" ? .dot(x: try element.decode(Int.self, forKey: .x))
                                     : .line(length: try element.decode(Int.self, forKey: .length)))
        }
    }
}
