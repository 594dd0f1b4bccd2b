/// A parsed JSON document.
///
/// Objects keep their key order as an array of pairs; a parsed object never holds
/// the same key twice (duplicates are a parse error). Numbers keep their kind:
/// an integer literal (no fraction, no exponent) that fits `Int64` is `.int`, one
/// above `Int64.max` that fits `UInt64` is `.uint`, anything else is `.double`.
/// The literal `-0` parses as `.double(-0.0)`, so a `Double` field keeps its sign (an
/// integer field still reads it as 0).
///
/// Equality is structural and strict: `.int(1)` is not equal to `.double(1)`, and
/// objects compare their pairs in order.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer literal within `Int64`.
    case int(Int64)
    /// An integer literal above `Int64.max` within `UInt64`.
    case uint(UInt64)
    /// A number with a fraction or exponent, or an integer outside 64 bits.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: its members in document order, keys unique when parsed.
    case object([(String, JSONValue)])

    /// Structural equality; objects are equal when their pairs are equal in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.uint(a), .uint(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for i in 0..<a.count where a[i].0 != b[i].0 || a[i].1 != b[i].1 { return false }
            return true
        default: return false
        }
    }

    /// The value stored under `key` when this is an object (first match), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        for (k, v) in pairs where k == key { return v }
        return nil
    }

    /// A short description of the value's kind for error messages,
    /// e.g. `a number`, `a string "x"`, `null`.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double: return "a number"
        case .string(let s):
            var shown = s
            if s.unicodeScalars.count > 40 { shown = String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) + "..." }
            return "a string " + JSONWriter.string(.string(shown))
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
