import CoreLogic

extension JSONWriter {
    /// Indented JSON text of `value` for human-read files such as golden files: one member
    /// or element per line, `"key": value`, keys in the object's order, empty containers as
    /// `[]` and `{}`, scalars and strings as the compact writer writes them, no trailing
    /// newline. Parsing it gives `value` back.
    public static func prettyString(_ value: JSONValue, indent: Int = 2) -> String {
        var out = ""
        writePretty(value, indent: max(0, indent), level: 0, into: &out)
        return out
    }

    private static func writePretty(_ value: JSONValue, indent: Int, level: Int, into out: inout String) {
        func newline(_ level: Int) {
            out += "\n" + String(repeating: " ", count: indent * level)
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                writePretty(element, indent: indent, level: level + 1, into: &out)
            }
            newline(level)
            out += "]"
        case .object(let members) where !members.isEmpty:
            out += "{"
            for (index, (key, member)) in members.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                out += JSONWriter.string(.string(key)) + ": "
                writePretty(member, indent: indent, level: level + 1, into: &out)
            }
            newline(level)
            out += "}"
        default:
            out += JSONWriter.string(value)
        }
    }
}
