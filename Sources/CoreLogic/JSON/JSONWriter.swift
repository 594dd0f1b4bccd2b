/// Serializes `JSONValue` to UTF-8 JSON text.
///
/// Output is compact (no whitespace; CoreLogicTesting's `prettyString` indents it for
/// golden files). Strings escape `"`, `\` and control characters (`\n \t \r \b \f`,
/// others as `\u00XX`); `/` and non-ASCII characters are written as-is (raw UTF-8).
/// Doubles use Swift's shortest round-trip form (`1.0`, `0.1`, `1e-05`); a non-finite
/// double, which no parsed value can hold, is written as `null`. Object keys keep their
/// order.
public enum JSONWriter {
    /// Appends the compact JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        _ByteBuffer.appending(to: &out) { buffer in write(value, to: &buffer) }
    }

    /// Appends the compact JSON text of `value` to a byte buffer.
    static func write(_ value: JSONValue, to out: inout _ByteBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .int(let i): out.appendInt(i)
        case .uint(let u): out.appendDecimal(u)
        case .double(let d): out.appendDouble(d)
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            var first = true
            for v in a {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(v, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (k, v) in pairs {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(k, into: &out)
                out.append(UInt8(ascii: ":"))
                write(v, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        _ByteBuffer.withTemporary(capacity: 256) { buffer in
            write(value, to: &buffer)
            return String(decoding: buffer.buffer, as: UTF8.self)
        }
    }

    @inline(__always) static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 &+ v : 0x57 &+ v }

    /// Appends `s` as a JSON string literal (with quotes and escapes) to `out`.
    @inline(__always) static func writeString(_ s: String, into out: inout _ByteBuffer) {
        var s = s
        s.withUTF8 { out.appendJSONString(utf8: $0) }
    }
}
