/// Strict RFC 8259 parser producing `JSONValue`.
///
/// Rejects everything RFC 8259 rejects (trailing commas, leading zeros, `+1`, `.5`, `1.`,
/// NaN, single quotes, comments, raw control characters, invalid or unpaired surrogate
/// escapes, trailing garbage, empty input), invalid UTF-8 anywhere, duplicate keys,
/// numbers beyond `Double`, and input deeper or larger than `limits`. Every failure is a
/// `.syntax` `JSONError` naming the byte offset, line and column. Top-level scalars are
/// allowed. It is the tape decoder's lexer (`buildTape`), then the tape turned into
/// values: both iterative, so hostile nesting cannot overflow the call stack.
public enum JSONParser {
    /// Parses one JSON document from raw UTF-8 bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws(JSONFailure) -> JSONValue {
        var p = _Parser(base: try _Parser.checked(bytes, limits), count: bytes.count, maxDepth: limits.maxDepth)
        return p.value(of: try p.buildTape())
    }

    #if !hasFeature(Embedded)  // the WebAssembly build parses buffers only
    /// Parses one JSON document from UTF-8 bytes.
    public static func parse(_ bytes: [UInt8], limits: JSONLimits = .default) throws(JSONFailure) -> JSONValue {
        try bytes.withUnsafeBytes { try parse($0, limits: limits) }
    }

    /// Parses one JSON document from a string (its UTF-8 form).
    public static func parse(_ text: String, limits: JSONLimits = .default) throws(JSONFailure) -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(UnsafeRawBufferPointer($0), limits: limits) }
    }
    #endif
}

struct _Parser {
    let p: UnsafePointer<UInt8>
    let end: Int
    let maxDepth: Int
    var i = 0
    var scratch: [UInt8] = []

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.p = base
        self.end = count
        self.maxDepth = maxDepth
    }

    /// The start of `bytes` once they pass the checks made before any parse: the size
    /// limit, then empty input.
    @inline(__always) static func checked(_ bytes: UnsafeRawBufferPointer, _ limits: JSONLimits) throws(JSONFailure) -> UnsafePointer<UInt8> {
        guard bytes.count <= limits.maxBytes else {
            throw JSONError(kind: .syntax, message: "input of \(bytes.count) bytes exceeds the limit of \(limits.maxBytes) bytes", path: "")
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(kind: .syntax, message: "empty input at byte 0 (line 1, column 1)", path: "")
        }
        return base.assumingMemoryBound(to: UInt8.self)
    }

    @inline(__always) func byte(_ at: Int) -> UInt8 { at < end ? p[at] : 0 }

    func fail(_ what: String, at offset: Int) -> JSONError {
        var line = 1, col = 1
        var k = 0
        let stop = min(offset, end)
        while k < stop {
            let b = p[k]
            if b == 0x0A { line += 1; col = 1 } else if b & 0xC0 != 0x80 { col += 1 }
            k += 1
        }
        return JSONError(kind: .syntax, message: "\(what) at byte \(offset) (line \(line), column \(col))", path: "")
    }

    func describeHere() -> String {
        if i >= end { return "end of input" }
        let b = p[i]
        if b >= 0x20 && b < 0x7F { return "'" + String(UnicodeScalar(b)) + "'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    @inline(__always) mutating func skipWhitespace() {
        while i < end {
            let b = p[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONFailure) {
        let n = word.utf8CodeUnitCount
        let w = word.utf8Start
        for k in 0..<n where byte(i + k) != w[k] {
            throw fail("invalid literal, expected '\(word)'", at: i)
        }
        i += n
    }

    // MARK: Strings

    /// Parses a string literal starting at the opening quote.
    mutating func parseString() throws(JSONFailure) -> String {
        i += 1
        let start = i
        if skipPlain() {
            let s = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
            i += 1
            return s
        }
        // Escapes, non-ASCII bytes, errors.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: p + start, count: i - start))
        while true {
            guard i < end else { throw fail("unterminated string", at: i) }
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                try parseEscape()
            } else if b < 0x20 {
                throw fail("unescaped control character 0x\(String(b, radix: 16, uppercase: true)) in string", at: i)
            } else if b < 0x80 {
                scratch.append(b); i += 1
            } else {
                let n = try utf8SequenceLength(at: i)
                scratch.append(contentsOf: UnsafeBufferPointer(start: p + i, count: n))
                i += n
            }
        }
    }

    /// Moves over printable ASCII without escapes; true when it stopped at the closing quote.
    @inline(__always) mutating func skipPlain() -> Bool {
        while i < end {
            let b = p[i]
            if b == UInt8(ascii: "\"") { return true }
            if b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return false }
            i += 1
        }
        return false
    }

    /// Validates one multi-byte UTF-8 sequence at `at` and returns its length.
    func utf8SequenceLength(at: Int) throws(JSONFailure) -> Int {
        let b0 = p[at]
        @inline(__always) func cont(_ k: Int) -> Bool { at + k < end && p[at + k] & 0xC0 == 0x80 }
        if b0 >= 0xC2 && b0 <= 0xDF {
            if cont(1) { return 2 }
        } else if b0 >= 0xE0 && b0 <= 0xEF {
            if cont(1) && cont(2) {
                let b1 = p[at + 1]
                if b0 == 0xE0 && b1 < 0xA0 { throw fail("invalid UTF-8 (overlong encoding)", at: at) }
                if b0 == 0xED && b1 >= 0xA0 { throw fail("invalid UTF-8 (encoded surrogate)", at: at) }
                return 3
            }
        } else if b0 >= 0xF0 && b0 <= 0xF4 {
            if cont(1) && cont(2) && cont(3) {
                let b1 = p[at + 1]
                if b0 == 0xF0 && b1 < 0x90 { throw fail("invalid UTF-8 (overlong encoding)", at: at) }
                if b0 == 0xF4 && b1 >= 0x90 { throw fail("invalid UTF-8 (code point above U+10FFFF)", at: at) }
                return 4
            }
        } else {
            throw fail("invalid UTF-8 byte 0x\(String(b0, radix: 16, uppercase: true))", at: at)
        }
        throw fail("invalid UTF-8 (truncated sequence)", at: at)
    }

    mutating func parseEscape() throws(JSONFailure) {
        let at = i
        let e = byte(i + 1)
        i += 2
        switch e {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(at: at)
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard byte(i) == UInt8(ascii: "\\"), byte(i + 1) == UInt8(ascii: "u") else {
                    throw fail("unpaired high surrogate escape", at: at)
                }
                let lowAt = i
                i += 2
                let low = try hex4(at: lowAt)
                guard low >= 0xDC00 && low <= 0xDFFF else { throw fail("unpaired high surrogate escape", at: at) }
                scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
            } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                throw fail("unpaired low surrogate escape", at: at)
            }
            // A scalar: surrogates were paired above, or refused.
            if let scalar = Unicode.Scalar(scalar) { UTF8.encode(scalar) { scratch.append($0) } }
        default:
            throw fail("invalid escape", at: at)
        }
    }

    /// Reads 4 hex digits at `i` (just after `\u`); `at` is the escape's offset for errors.
    mutating func hex4(at: Int) throws(JSONFailure) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = byte(i)
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c &- 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c &- 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c &- 0x37
            default: throw fail("invalid \\u escape", at: at)
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    // MARK: Numbers

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    mutating func parseNumber() throws(JSONFailure) -> JSONValue {
        let start = i
        var negative = false
        if byte(i) == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var overflow = false
        let first = byte(i)
        if first == UInt8(ascii: "0") {
            i += 1
            if _Parser.isDigit(byte(i)) { throw fail("leading zeros are not allowed", at: start) }
        } else if _Parser.isDigit(first) {
            while _Parser.isDigit(byte(i)) {
                let (m1, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(UInt64(byte(i) &- 0x30))
                if o1 || o2 { overflow = true }
                mantissa = m2
                i += 1
            }
        } else {
            throw fail("invalid number", at: start)
        }
        var fracDigits = 0
        var isInteger = true
        if byte(i) == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            let fs = i
            while _Parser.isDigit(byte(i)) {
                if !overflow {
                    let (m1, o1) = mantissa.multipliedReportingOverflow(by: 10)
                    let (m2, o2) = m1.addingReportingOverflow(UInt64(byte(i) &- 0x30))
                    if o1 || o2 { overflow = true } else { mantissa = m2 }
                }
                i += 1
            }
            fracDigits = i - fs
            if fracDigits == 0 { throw fail("expected a digit after '.'", at: i) }
        }
        var exponent = 0
        if byte(i) | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            var expNegative = false
            if byte(i) == UInt8(ascii: "+") { i += 1 } else if byte(i) == UInt8(ascii: "-") { expNegative = true; i += 1 }
            guard _Parser.isDigit(byte(i)) else { throw fail("expected a digit in the exponent", at: i) }
            while _Parser.isDigit(byte(i)) {
                if exponent < 100_000 { exponent = exponent &* 10 &+ Int(byte(i) &- 0x30) }
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        if isInteger && !overflow {
            if negative {
                // `-0` keeps its sign for a Double field; integer fields read it as 0.
                if mantissa == 0 { return .double(-0.0) }
                if mantissa <= UInt64(Int64.max) { return .int(-Int64(mantissa)) }
                if mantissa == UInt64(Int64.max) + 1 { return .int(Int64.min) }
            } else {
                if mantissa <= UInt64(Int64.max) { return .int(Int64(mantissa)) }
                return .uint(mantissa)
            }
        }
        // Exact fast path: mantissa and power of ten are both exact doubles.
        if !overflow && mantissa < (1 << 53) {
            let e10 = exponent - fracDigits
            if e10 >= -22 && e10 <= 22 {
                var d = Double(mantissa)
                if e10 < 0 { d /= _Parser.pow10[-e10] } else { d *= _Parser.pow10[e10] }
                return .double(negative ? -d : d)
            }
        }
        let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw fail("number out of range", at: start)
        }
        return .double(d)
    }

    static let pow10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
