/// `Codable` to and from JSON in the shape of Swift's synthesized conformances.
///
/// Encoding writes compact JSON: keys in the order the encoder receives them, `nil`
/// optionals omitted, enums externally tagged (`{"search":{"query":"swift"}}`,
/// `{"increment":{}}`), `[String: V]` dictionaries with keys sorted. Decoding accepts the
/// same shapes plus a payload-less case sent as a bare string (`"increment"`); missing or
/// null optionals decode as `nil`, unknown keys are ignored, integers must be exact and in
/// range. Every error is a `JSONError`: `.syntax` for unparsable input, `.schema` (with the
/// JSON path) for the wrong shape or a non-finite number to encode.
///
/// A `JSONDirectCodable` type writes itself, and its canonical input is read directly
/// first. Everything else goes through the one `Codable` encoder (`_StreamEncoder`) and the
/// one general decoder (`_TapeDecoder`), which validates the whole input first (so syntax
/// errors win over schema errors) and owns every error message and JSON path.
public enum JSONCoding {
    /// Appends the compact JSON of `value` to `out`. On error `out` is unchanged.
    public static func encode<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
        try _ByteBuffer.appending(to: &out) { buffer in try encode(value, into: &buffer) }
    }

    /// `encode(_:into:)` into a byte buffer: a `JSONDirectCodable` value is written in the
    /// buffer's memory, any other through `Codable` and copied in. On error `out` is unchanged.
    /// Inlined so that a caller specialized for a direct type calls its writer itself (out
    /// of line, LLVM merges two types' specializations into one behind thunks: about 15
    /// instructions more per counter batch).
    @inline(__always)
    static func encode<T: Encodable>(_ value: T, into out: inout _ByteBuffer) throws {
        if _Direct.encode(value, into: &out) { return }
        try encodeWithCodable(value, into: &out)
    }

    /// `encode(_:into:)` into a byte buffer for a value whose type is known only at run
    /// time (an effect's request): whether it writes itself is remembered in `types`.
    static func encode<T: Encodable>(_ value: T, into out: inout _ByteBuffer, types: inout _DirectTypes) throws {
        if _Direct.encode(value, as: types.conformance(of: T.self), into: &out) { return }
        try encodeWithCodable(value, into: &out)
    }

    /// The `Codable` half of `encode(_:into:)` into a byte buffer, in the buffer's memory;
    /// kept out of line.
    @inline(never)
    static func encodeWithCodable<T: Encodable>(_ value: T, into out: inout _ByteBuffer) throws {
        let start = out.count
        let enc = _StreamEncoder(appendingTo: out)
        do {
            try enc.encodeRoot(value)
        } catch {
            out = enc.takeBuffer()
            out.truncate(to: start)
            throw asJSONError(error)
        }
        out = enc.takeBuffer()
    }

    /// `encode(_:into:)` through `Codable` only, even for a `JSONDirectCodable` type.
    /// For checking a direct conformance against `Codable` (CoreLogicTesting's
    /// `JSONDirectCheck`), not for hosts.
    @_spi(Testing) public static func encodeWithCodable<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
        try _ByteBuffer.appending(to: &out) { buffer in try encodeWithCodable(value, into: &buffer) }
    }

    /// The compact JSON of `value` as UTF-8 bytes.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        var out: [UInt8] = []
        try encode(value, into: &out)
        return out
    }

    /// The compact JSON of `value` as a string.
    public static func encodeToString<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// `value` as a `JSONValue` (what parsing its compact JSON would give).
    public static func encodeToValue<T: Encodable>(_ value: T) throws -> JSONValue {
        let bytes = try encode(value)
        return try JSONParser.parse(bytes, limits: JSONLimits(maxDepth: Int.max, maxBytes: Int.max))
    }

    /// Decodes a `T` from an already parsed value: its compact JSON is written and decoded,
    /// so a value and its bytes give the same result and the same errors. A value no parse
    /// gives (duplicate keys, a non-finite double, written `null`) fails as those bytes do.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes)
        return try decode(type, from: bytes, limits: JSONLimits(maxDepth: Int.max, maxBytes: Int.max))
    }

    /// Parses (with `limits`) and decodes a `T` from UTF-8 bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws -> T {
        let start = try _Parser.checked(bytes, limits)
        if let v = _Direct.decode(T.self, base: start, count: bytes.count, maxDepth: limits.maxDepth) { return v }
        return try decodeWithCodable(type, base: start, count: bytes.count, maxDepth: limits.maxDepth)
    }

    /// Decoding through `Codable` only (the tape decoder), even for a `JSONDirectCodable` type.
    @_spi(Testing) public static func decodeWithCodable<T: Decodable>(_ type: T.Type, base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) throws -> T {
        var parser = _Parser(base: base, count: count, maxDepth: maxDepth)
        let tape = try parser.buildTape()
        let dec = _TapeDecoder(parser: parser, tape: tape)
        do {
            return try dec.decodeValue(type, at: 0)
        } catch {
            throw asJSONError(error)
        }
    }

    /// Parses (with `limits`) and decodes a `T` from UTF-8 bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], limits: JSONLimits = .default) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, from: $0, limits: limits) }
    }

    /// Parses (with `limits`) and decodes a `T` from a string.
    public static func decode<T: Decodable>(_ type: T.Type, from text: String, limits: JSONLimits = .default) throws -> T {
        var text = text
        return try text.withUTF8 { try decode(type, from: UnsafeRawBufferPointer($0), limits: limits) }
    }

    /// The case names of an enum, in declaration order: those its direct JSON names
    /// (``JSONDirectCodable/jsonCaseNames``), else those of its `CodingKeys` when they are
    /// `CaseIterable`; nil for any other type.
    public static func caseNames<T: Decodable>(of type: T.Type) -> [String]? {
        if let direct = type as? any JSONDirectCodable.Type, let names = direct.jsonCaseNames { return names }
        return codingKeyCaseNames(of: type)
    }

    /// The case names of an enum whose `CodingKeys` is `CaseIterable`, found by running
    /// its `init(from:)`; nil for any other type.
    @_spi(Testing) public static func codingKeyCaseNames<T: Decodable>(of type: T.Type) -> [String]? {
        _KeyTypeProbe.keyType(of: type).flatMap(_caseNames)
    }

    static func asJSONError(_ error: Error) -> JSONError {
        if let e = error as? JSONError { return e }
        if let e = _schemaError(error) as? JSONError { return e }
        if let e = error as? EncodingError, case .invalidValue(_, let ctx) = e {
            return JSONError.schema(JSONPath.render(codingPath: ctx.codingPath), ctx.debugDescription)
        }
        return JSONError.schema("$", String(describing: error))
    }

    /// The direct writer alone (``JSONDirectCodable``): appends `value`'s JSON to `out`;
    /// false, with `out` unchanged, when `T` does not conform or its writer declined.
    @_spi(Testing) public static func encodeDirect<T>(_ value: T, into out: inout [UInt8]) -> Bool {
        var written = false
        _ByteBuffer.appending(to: &out) { buffer in written = _Direct.encode(value, into: &buffer) }
        return written
    }

    /// The direct reader alone: nil when `T` does not conform or the input is not its
    /// canonical shape (where `decode` falls back to `Codable`).
    @_spi(Testing) public static func decodeDirect<T>(_ type: T.Type, base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) -> T? {
        _Direct.decode(type, base: base, count: count, maxDepth: maxDepth)
    }
}
