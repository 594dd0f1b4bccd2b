// The direct reader's part that only the WebAssembly build has (docs/web.md): there it is
// the only reader, with no tape decoder to fall back on, so it keeps the path and what it
// expects for the tape decoder's schema errors, skips unknown members and finds members
// that are not in declaration order. Its stored properties are in `JSONInput`.
#if hasFeature(Embedded)

extension JSONInput {
    /// The schema error at the reader's position, in the tape decoder's words: within
    /// `JSONInput`, `_DirectMismatch()` is this (the WebAssembly build's only reader).
    func _DirectMismatch() -> JSONError {
        var shown = path
        if case .key("")? = shown.last { shown.removeLast() }  // an object whose first key is not read yet
        return JSONError.schema(JSONPath.render(shown), "expected \(expecting), found \(foundHere())")
    }

    mutating func skipUnknownMembers() throws(JSONFailure) {
        while true {
            parser.skipWhitespace()
            let c = parser.byte(parser.i)
            if c == UInt8(ascii: "}") { return }
            if needComma {
                guard c == UInt8(ascii: ",") else { return }
                parser.i += 1
                parser.skipWhitespace()
            }
            guard parser.byte(parser.i) == UInt8(ascii: "\"") else { return }
            _ = try parser.parseString()
            parser.skipWhitespace()
            guard parser.byte(parser.i) == UInt8(ascii: ":") else { return }
            parser.i += 1
            parser.skipWhitespace()
            try skipValue()
            needComma = true
            skippedMembers = true
        }
    }

    /// Reads past one JSON value, checking its grammar as the lexer does, and builds
    /// nothing (an unknown member's value).
    mutating func skipValue() throws(JSONFailure) {
        var containers: [UInt8] = []  // the closing byte of each open container
        var expectingValue = true
        while true {
            parser.skipWhitespace()
            let b = parser.byte(parser.i)
            if expectingValue {
                switch b {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if containers.count >= parser.maxDepth {
                        throw parser.fail("nesting deeper than the limit of \(parser.maxDepth)", at: parser.i)
                    }
                    parser.i += 1
                    parser.skipWhitespace()
                    let close = b == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if parser.byte(parser.i) == close { parser.i += 1; expectingValue = false; break }
                    containers.append(close)
                    if close == UInt8(ascii: "}") { try skipKey() }
                    continue
                case UInt8(ascii: "\""): _ = try parser.parseString()
                case UInt8(ascii: "t"): try parser.expectLiteral("true")
                case UInt8(ascii: "f"): try parser.expectLiteral("false")
                case UInt8(ascii: "n"): try parser.expectLiteral("null")
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parser.parseNumber()
                default: throw parser.fail("expected a value, found \(parser.describeHere())", at: parser.i)
                }
                expectingValue = false
            }
            guard let close = containers.last else { return }
            parser.skipWhitespace()
            let c = parser.byte(parser.i)
            if c == UInt8(ascii: ",") {
                parser.i += 1
                if close == UInt8(ascii: "}") { try skipKey() }
                expectingValue = true
            } else if c == close {
                parser.i += 1
                containers.removeLast()
            } else {
                throw parser.fail("expected ',' or '\(Character(Unicode.Scalar(close)))', found \(parser.describeHere())", at: parser.i)
            }
        }
    }

    /// Reads a member's key and its colon, and returns the key.
    @discardableResult
    private mutating func skipKey() throws(JSONFailure) -> String {
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: "\"") else {
            throw parser.fail("expected a string key, found \(parser.describeHere())", at: parser.i)
        }
        let key = try parser.parseString()
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: ":") else {
            throw parser.fail("expected ':', found \(parser.describeHere())", at: parser.i)
        }
        parser.i += 1
        return key
    }

    func missingKey(_ name: StaticString) -> JSONError {
        // The object's path: its last component is the member read last, or none yet.
        var shown = path
        if case .key? = shown.last { shown.removeLast() }
        return JSONError.schema(JSONPath.render(shown), "missing key '\(_string(name))'")
    }

    /// ``beginCase()``; with the enum's case names, an object whose members are the case
    /// and unknown ones is read as the tape decoder reads it: the unknown members are
    /// ignored, and two cases are a schema error.
    mutating func beginCase(among names: () -> [String]?) throws(JSONFailure) -> String {
        if let name = try bareCaseName() { return name }
        try beginObject()
        try moveToCase(among: names)
        return try caseKey()
    }

    /// In the object just opened, moves to the key of its one member named in `names`
    /// when other members stand beside it (then the object is read past whole at its
    /// end); throws when two members are cases. Otherwise (one member, the usual case,
    /// or no names) leaves the position where it is.
    private mutating func moveToCase(among names: () -> [String]?) throws(JSONFailure) {
        guard let object = objects.last else { return }
        defer { if !objects[objects.count - 1].reordered { parser.i = object.start + 1 } }
        parser.skipWhitespace()
        let first = parser.i
        // Past the first member without decoding its key: most objects end there.
        guard parser.byte(first) == UInt8(ascii: "\"") else { return }
        _ = try parser.scanString()
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: ":") else { return }
        parser.i += 1
        try skipValue()
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: ","), let names = names() else { return }
        parser.i = first
        var members: [(key: String, at: Int)] = []
        while true {
            parser.skipWhitespace()
            let at = parser.i
            members.append((try skipKey(), at))
            try skipValue()
            parser.skipWhitespace()
            guard parser.byte(parser.i) == UInt8(ascii: ",") else { break }
            parser.i += 1
        }
        let cases = members.filter { member in names.contains { $0.utf8.elementsEqual(member.key.utf8) } }
        if cases.count > 1 {
            var shown = path
            if case .key? = shown.last { shown.removeLast() }
            throw JSONError.schema(JSONPath.render(shown), "expected exactly one of: " + names.joined(separator: ", ")
                                   + "; found \(cases.count) keys: " + cases.map { _printableName($0.key) }.joined(separator: ", "))
        }
        guard let only = cases.first else { return }
        objects[objects.count - 1].reordered = true
        skippedMembers = true
        parser.i = only.at
    }

    /// Finds the member `name` anywhere in the object being read and moves past its key
    /// and colon; false, the position unchanged, when the object has no such member.
    mutating func findMember(_ name: StaticString) throws(JSONFailure) -> Bool {
        guard let object = objects.last else { return false }
        let saved = parser.i
        let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        parser.i = object.start + 1
        parser.skipWhitespace()
        if parser.byte(parser.i) == UInt8(ascii: "}") { parser.i = saved; return false }
        while true {
            // Compared byte for byte, as the tape decoder compares keys (`String` equality
            // would also match other spellings of the same characters).
            if try skipKey().utf8.elementsEqual(wanted) {
                objects[objects.count - 1].reordered = true
                skippedMembers = true
                return true
            }
            try skipValue()
            parser.skipWhitespace()
            guard parser.byte(parser.i) == UInt8(ascii: ",") else { break }
            parser.i += 1
        }
        parser.i = saved
        return false
    }

    func _string(_ name: StaticString) -> String {
        String(decoding: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), as: UTF8.self)
    }

    /// What the value at the reader's position is: "a number", "an object", ...
    func foundHere() -> String {
        var i = parser.i
        while i < parser.end, parser.p[i] == 0x20 || parser.p[i] == 0x0A || parser.p[i] == 0x0D || parser.p[i] == 0x09 { i += 1 }
        guard i < parser.end else { return "the end of the input" }
        switch parser.p[i] {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }
}

#endif
