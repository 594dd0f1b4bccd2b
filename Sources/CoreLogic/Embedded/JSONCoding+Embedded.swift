// `JSONCoding` in the WebAssembly build (docs/web.md): every type there has direct JSON
// (CodableInEmbedded.swift), so encoding and decoding go through `JSONOutput` and
// `JSONInput` alone. Input the direct reader declines is parsed once more, so a syntax
// error is reported exactly as the native library reports it; valid JSON of another
// shape is a schema error with its JSON path, in the tape decoder's words
// (JSONInput's Embedded members). The native library compiles JSON/JSONCoding.swift instead.
#if hasFeature(Embedded)

public enum JSONCoding {
    /// Appends the compact JSON of `value` to `out`. On error `out` is unchanged.
    public static func encode<T: Encodable>(_ value: T, into out: inout [UInt8]) throws(JSONFailure) {
        var output = JSONOutput(capacity: 256)
        try value.writeJSON(to: &output)
        out.append(contentsOf: output.buf.buffer)
    }

    /// `encode(_:into:)` written in the buffer's own memory. On error `out` is unchanged.
    static func encode<T: Encodable>(_ value: T, into out: inout _ByteBuffer) throws(JSONFailure) {
        let start = out.count
        do {
            try JSONOutput.write(into: &out) { (output) throws(JSONFailure) in try value.writeJSON(to: &output) }
        } catch {
            out.truncate(to: start)
            throw error
        }
    }

    /// The compact JSON of `value` as UTF-8 bytes.
    public static func encode<T: Encodable>(_ value: T) throws(JSONFailure) -> [UInt8] {
        var out: [UInt8] = []
        try encode(value, into: &out)
        return out
    }

    /// Decodes a `T` from a tree the library wrote (no size limit).
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(JSONFailure) -> T {
        var bytes: [UInt8] = []
        JSONWriter.write(value, into: &bytes)
        return try decode(type, from: bytes, limits: JSONLimits(maxDepth: Int.max, maxBytes: Int.max))
    }

    /// Parses (with `limits`) and decodes a `T` from UTF-8 bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer,
                                            limits: JSONLimits = .default) throws(JSONFailure) -> T {
        guard bytes.count <= limits.maxBytes else {
            throw JSONError(kind: .syntax, message: "input of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes", path: "")
        }
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count < Int(Int32.max) else {
            throw JSONError(kind: .syntax, message: "empty input at byte 0 (line 1, column 1)", path: "")
        }
        var input = JSONInput(_Parser(base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: limits.maxDepth))
        do {
            let value = try T.readJSON(from: &input)
            try input.finish()
            // What was skipped was not read: checked now, as the native decoder checks all.
            if input.skippedMembers { _ = try JSONParser.parse(bytes, limits: limits) }
            return value
        } catch {
            // Syntax errors win over schema errors wherever they are, as in the native library.
            _ = try JSONParser.parse(bytes, limits: limits)
            throw error
        }
    }

    /// Parses (with `limits`) and decodes a `T` from UTF-8 bytes.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8],
                                            limits: JSONLimits = .default) throws(JSONFailure) -> T {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONFailure) -> T in try decode(type, from: raw, limits: limits) }
        }
        return try result.get()
    }

    /// Case names come from the generated reader (`jsonCaseNames`).
    public static func caseNames<T: Decodable>(of type: T.Type) -> [String]? { T.jsonCaseNames }
}

#endif
