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
    public static func write(_ value: JSONValue, into out: inout [UInt8]) { write(value, to: &out) }

    /// Appends the compact JSON text of `value` to any byte sink.
    static func write<S: _ByteSink>(_ value: JSONValue, to out: inout S) {
        switch value {
        case .null: appendASCII("null", &out)
        case .bool(let b): appendASCII(b ? "true" : "false", &out)
        case .int(let i): writeInt(i, into: &out)
        case .uint(let u): out.appendDecimal(u)
        case .double(let d): writeDouble(d, into: &out)
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
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always) static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 &+ v : 0x57 &+ v }

    @inline(__always) static func appendASCII<S: _ByteSink>(_ s: StaticString, _ out: inout S) {
        out.appendBytes(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends `s` as a JSON string literal (with quotes and escapes) to `out`.
    @inline(__always) static func writeString<S: _ByteSink>(_ s: String, into out: inout S) {
        var s = s
        s.withUTF8 { out.appendJSONString(utf8: $0) }
    }

    static func writeInt<S: _ByteSink>(_ v: Int64, into out: inout S) {
        if v < 0 {
            out.append(UInt8(ascii: "-"))
            out.appendDecimal(v.magnitude)
        } else {
            out.appendDecimal(UInt64(v))
        }
    }

    /// Writes a finite double in shortest round-trip form; non-finite as `null`.
    static func writeDouble<S: _ByteSink>(_ d: Double, into out: inout S) {
        guard d.isFinite else { appendASCII("null", &out); return }
        if abs(d) < 1e15 && isIntegral(d) {
            // Integral and exactly representable: "12.0" (same as description).
            let i = Int64(d)
            do {
                if i == 0 && d.sign == .minus { appendASCII("-0.0", &out); return }
                writeInt(i, into: &out)
                out.append(UInt8(ascii: ".")); out.append(UInt8(ascii: "0"))
                return
            }
        }
        var text = d.description
        text.withUTF8 { out.appendBytes($0) }
    }

    /// True for finite doubles without a fractional part (no libm needed).
    static func isIntegral(_ d: Double) -> Bool {
        guard d.isFinite else { return false }
        if abs(d) >= 4503599627370496 { return true }   // 2^52: no fraction bits left
        return Double(Int64(d)) == d
    }

    static func writeFloat<S: _ByteSink>(_ f: Float, into out: inout S) {
        guard f.isFinite else { appendASCII("null", &out); return }
        var text = f.description
        text.withUTF8 { out.appendBytes($0) }
    }
}
