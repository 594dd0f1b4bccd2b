/// The single error type of the JSON codec, for both parse and schema failures.
///
/// `message` is human readable and says what went wrong and where: syntax errors
/// carry a byte offset plus line and column, schema errors start with the JSON
/// path of the offending value (`$.items[3].name: expected a string, found null`).
public struct JSONError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is.
    public enum Kind: Sendable {
        /// Invalid JSON, invalid UTF-8, or input over a limit.
        case syntax
        /// Valid JSON of the wrong shape for the requested type (or a value that
        /// cannot be encoded, such as a non-finite number).
        case schema
    }

    /// Syntax or schema.
    public var kind: Kind
    /// Human-readable message including the location.
    public var message: String
    /// JSON path of the offending value (`$`, `$.items[3].name`); empty for syntax errors.
    public var path: String

    /// Creates an error; no validation is done on the fields.
    public init(kind: Kind, message: String, path: String) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    /// The message.
    public var description: String { message }

    static func schema(_ path: String, _ detail: String) -> JSONError {
        JSONError(kind: .schema, message: path + ": " + detail, path: path)
    }
}

/// A name taken from the input (a case, a key, a query name) as a message shows it: control
/// characters escaped as JSON writes them (`\u0000`). A C host reads a message as a C
/// string, which a raw NUL would cut short (the list of valid names after it lost).
func _printableName(_ name: String) -> String {
    guard name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return name }
    var shown = ""
    for scalar in name.unicodeScalars {
        if scalar.value < 0x20 || scalar.value == 0x7F {
            let hex = String(scalar.value, radix: 16, uppercase: false)
            shown += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
            shown.unicodeScalars.append(scalar)
        }
    }
    return shown
}

/// One step of a JSON path.
enum JSONPathComponent {
    case key(String)
    case index(Int)
}

enum JSONPath {
    /// Renders components as `$`, `$.a.b[2]`; keys that are not plain identifiers
    /// are written in bracket form, `$["a b"]`.
    static func render<C: Collection>(_ components: C) -> String where C.Element == JSONPathComponent {
        var s = "$"
        for c in components {
            switch c {
            case .key(let k):
                if isPlain(k) { s += "." + k } else { s += "[" + JSONWriter.string(.string(k)) + "]" }
            case .index(let i):
                s += "[" + String(i) + "]"
            }
        }
        return s
    }

    static func render(codingPath: [CodingKey]) -> String {
        render(codingPath.map { key -> JSONPathComponent in
            if let i = key.intValue, key.stringValue.hasPrefix("Index ") { return .index(i) }
            return .key(key.stringValue)
        })
    }

    private static func isPlain(_ k: String) -> Bool {
        if k.isEmpty { return false }
        for (n, b) in k.utf8.enumerated() {
            let alpha = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24
            let digit = b >= 0x30 && b <= 0x39
            if !(alpha || (digit && n > 0)) { return false }
        }
        return true
    }
}

/// A coding key for array positions and arbitrary strings, used in `codingPath`.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
    init(intValue: Int) { self.stringValue = "Index " + String(intValue); self.intValue = intValue }
    init(_ c: JSONPathComponent) {
        switch c {
        case .key(let k): self.init(stringValue: k)
        case .index(let i): self.init(intValue: i)
        }
    }
}
