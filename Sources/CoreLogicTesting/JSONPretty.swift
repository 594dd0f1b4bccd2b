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
        /// `open`, each of `items` on a line of its own, `close` on the last line.
        func container<Items: Collection>(_ open: String, _ close: String, _ items: Items, _ write: (Items.Element) -> Void) {
            out += open
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                newline(level + 1)
                write(item)
            }
            newline(level)
            out += close
        }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            container("[", "]", elements) { writePretty($0, indent: indent, level: level + 1, into: &out) }
        case .object(let members) where !members.isEmpty:
            container("{", "}", members) { member in
                out += JSONWriter.string(.string(member.0)) + ": "
                writePretty(member.1, indent: indent, level: level + 1, into: &out)
            }
        default:
            out += JSONWriter.string(value)
        }
    }
}
