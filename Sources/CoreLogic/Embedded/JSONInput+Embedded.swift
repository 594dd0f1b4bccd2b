// The direct reader's part that only the WebAssembly build has (docs/web.md): there it is
// the only reader, with no tape decoder to fall back on. `JSONInput`'s `track…` calls keep
// the reader's path (a member's key, an element's index, -1 before the first), the type
// the next value must have and the case last named, for the tape decoder's schema
// errors. Members unknown to the type are skipped and members out of the canonical order
// found where they are (the generated readers ask for members in declaration order); an
// object read so is then read past whole from its `{`, checking limits, syntax and
// duplicate keys in what was skipped, as the tape decoder checks every input. The
// stored properties are in `JSONInput`.
#if hasFeature(Embedded)

extension JSONInput {
    mutating func trackExpecting(_ what: StaticString) { expecting = what }

    mutating func trackOpened(_ b: UInt8) {
        path.append(b == UInt8(ascii: "[") ? .index(-1) : .key(""))
        if b == UInt8(ascii: "{") { objects.append((parser.i - 1, false)) }
    }

    mutating func trackClosed() { if !path.isEmpty { path.removeLast() } }

    mutating func trackNextElement() {
        if case .index(let index)? = path.last { path[path.count - 1] = .index(index + 1) }
    }

    mutating func trackKey(_ name: StaticString) { trackCase(_string(name)) }

    mutating func trackCase(_ name: String) { if !path.isEmpty { path[path.count - 1] = .key(name) } }

    mutating func trackCaseSeen(_ name: String) { caseSeen = name }

    /// The end of a container. An object read out of order is read past whole from its
    /// start, checking what was not read; unknown members are ignored, as `Codable`
    /// ignores them.
    mutating func expectClosing(_ b: UInt8) throws(JSONFailure) {
        if b == UInt8(ascii: "}"), let object = objects.popLast(), object.reordered {
            parser.i = object.start
            try skipValue()
        } else {
            if b == UInt8(ascii: "}") { try skipUnknownMembers() }
            expecting = b == UInt8(ascii: "}") ? "the end of the object" : "the end of the array"
            try expect(b)
        }
        trackClosed()
    }

    /// A case name with escapes or non-ASCII bytes, decoded (`Codable` compares the decoded name).
    mutating func slowCaseName(_ start: Int) throws(JSONFailure) -> String {
        parser.i = start - 1
        return try parser.parseString()
    }

    /// `1.0` or `1e2` read as `Codable` reads them, when exact (no `Codable` path to hand them to).
    func integer<I: FixedWidthInteger>(_: I.Type, fromDouble d: Double) -> I? { I(exactly: d) }

    /// A number that is no `I`, named as the tape decoder names it.
    func notAnInteger<I: FixedWidthInteger>(_: I.Type, from start: Int) -> JSONFailure {
        let text = String(decoding: UnsafeBufferPointer(start: parser.p + start, count: parser.i - start), as: UTF8.self)
        let integral = !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
        return JSONError.schema(JSONPath.render(path), integral
            ? "expected an integer of \(I.bitWidth) bits, found \(text)"
            : "expected an integer, found \(text)")
    }

    /// The error for a case name that is none of `names` (the enum's, in declaration
    /// order), in the tape decoder's words.
    public func unknownCase(_ names: [String]) -> JSONFailure {
        guard let name = caseSeen else { return _DirectMismatch() }
        return JSONError.schema(JSONPath.render(path.dropLast(bareCase ? 0 : 2)),
                                "unknown case '\(_printableName(name))'; valid cases: " + names.joined(separator: ", "))
    }

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

    /// In the object just opened, moves to the key of its one member named in `names`
    /// when other members stand beside it (then the object is read past whole at its
    /// end); throws when two members are cases. Otherwise (one member, the usual case,
    /// or no names) leaves the position where it is.
    mutating func moveToCase(among names: () -> [String]?) throws(JSONFailure) {
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
