/// `Decoder` that reads a `_TapeEntry` tape over the input bytes directly.
///
/// Positions are tape indices, so containers carry no paths: a path is only
/// computed (from the entries' parents) when an error or `codingPath` needs it.
/// The general decoder: any valid input, and every schema error with its JSON path.
final class _TapeDecoder: Decoder {
    let parser: _Parser
    let tape: [_TapeEntry]
    /// The value being decoded by `init(from: self)`.
    @exclusivity(unchecked) var current: Int
    /// The most recent keyed container, to explain the synthesized enum error "Invalid
    /// number of keys found, expected one." in terms of cases.
    @exclusivity(unchecked) var lastKeyType: Any.Type?
    @exclusivity(unchecked) var lastContainer = -1
    /// The bare-string case whose payload is the shared empty object.
    @exclusivity(unchecked) var bareOwner = -1
    @exclusivity(unchecked) var indexes: [Int: [String: Int]] = [:]
    /// Where the next member lookup in `hintObject` starts (see `member`).
    @exclusivity(unchecked) var hintObject = -1
    @exclusivity(unchecked) var hintKey = -1

    var emptyObject: Int { tape.count - 2 }
    var nullEntry: Int { tape.count - 1 }

    init(parser: _Parser, tape: [_TapeEntry], current: Int = 0) {
        self.parser = parser
        self.tape = tape
        self.current = current
    }

    var codingPath: [CodingKey] { path(of: current).map(JSONKey.init) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(_TapeKeyed<Key>(d: self, obj: try keyedEntry(current, Key.self)))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        try unkeyed(current)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func unkeyed(_ i: Int) throws -> _TapeUnkeyed {
        guard tape[i].kind == .array else { throw error(at: i, "expected an array, found \(describe(i))") }
        return _TapeUnkeyed(d: self, arr: i)
    }

    // MARK: Paths and errors

    @inline(__always) func next(_ i: Int) -> Int { Int(tape[i].next) }

    func string(_ i: Int) -> String { parser.tapeString(tape[i]) }

    func path(of index: Int) -> [JSONPathComponent] {
        var comps: [JSONPathComponent] = []
        var j = index
        var guardSteps = 0
        while j >= 0 && j < tape.count && guardSteps < tape.count {
            guardSteps += 1
            if j == emptyObject {
                guard bareOwner >= 0 else { break }
                comps.append(.key(string(bareOwner)))
                j = bareOwner
                continue
            }
            let par = Int(tape[j].parent)
            if par < 0 { break }
            if tape[par].kind == .object {
                comps.append(.key(string(j - 1)))
            } else {
                var k = par + 1, n = 0
                while k < j { k = next(k); n += 1 }
                comps.append(.index(n))
            }
            j = par
        }
        return comps.reversed()
    }

    func error(at i: Int, _ detail: String) -> JSONError {
        JSONError.schema(JSONPath.render(path(of: i)), detail)
    }

    func error(at i: Int, index: Int, _ detail: String) -> JSONError {
        JSONError.schema(JSONPath.render(path(of: i) + [.index(index)]), detail)
    }

    /// Same wording as `JSONValue.kindDescription`.
    func describe(_ i: Int) -> String {
        switch tape[i].kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .uint, .double: return "a number"
        case .string: return JSONValue.string(string(i)).kindDescription
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The entry a keyed container of `Key` reads: an object, or a string naming a
    /// case (a payload-less case sent bare).
    @inline(__always) func keyedEntry<Key: CodingKey>(_ i: Int, _: Key.Type) throws -> Int {
        if tape[i].kind != .object { try checkBareCase(i, Key.self) }
        lastKeyType = Key.self
        lastContainer = i
        return i
    }

    @inline(never) func checkBareCase<Key: CodingKey>(_ i: Int, _: Key.Type) throws {
        guard tape[i].kind == .string && Key.self != _DictionaryKeyType.type else {
            throw error(at: i, "expected an object, found \(describe(i))")
        }
        let s = string(i)
        if Key(stringValue: s) == nil {
            if let names = _caseNames(Key.self) {
                throw error(at: i, "unknown case '\(_printableName(s))'; valid cases: " + names.joined(separator: ", "))
            }
            throw error(at: i, "expected an object, found \(describe(i))")
        }
    }

    func convert(_ error: Error) -> Error {
        guard let e = error as? DecodingError else { return error }
        if case .typeMismatch(_, let ctx) = e, ctx.debugDescription.hasPrefix("Invalid number of keys"), lastContainer >= 0 {
            let p = JSONPath.render(codingPath: ctx.codingPath)
            if p == JSONPath.render(path(of: lastContainer)) {
                var keys: [String] = []
                if tape[lastContainer].kind == .object {
                    var k = lastContainer + 1
                    for _ in 0..<Int(tape[lastContainer].len) { keys.append(string(k)); k = next(k + 1) }
                }
                return JSONError.schema(p, _enumDiagnosis(keys: keys, keyType: lastKeyType))
            }
        }
        return _schemaError(error)
    }

    // MARK: Values

    func decodeValue<T: Decodable>(_: T.Type, at i: Int) throws -> T {
        if T.self == String.self { return unsafeBitCast(try unboxString(i), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(i, Int.self), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(i), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(i), to: T.self) }
        let saved = current
        current = i
        defer { current = saved }
        do { return try T(from: self) } catch { throw convert(error) }
    }

    func unboxString(_ i: Int) throws -> String {
        guard tape[i].kind == .string else { throw error(at: i, "expected a string, found \(describe(i))") }
        return string(i)
    }

    func unboxBool(_ i: Int) throws -> Bool {
        let e = tape[i]
        guard e.kind == .bool else { throw error(at: i, "expected a boolean, found \(describe(i))") }
        return e.bits != 0
    }

    func unboxDouble(_ i: Int) throws -> Double {
        let e = tape[i]
        switch e.kind {
        case .double: return Double(bitPattern: e.bits)
        case .int: return Double(Int64(bitPattern: e.bits))
        case .uint: return Double(e.bits)
        default: throw error(at: i, "expected a number, found \(describe(i))")
        }
    }

    func unboxFloat(_ i: Int) throws -> Float {
        let d = try unboxDouble(i)
        let f = Float(d)
        guard f.isFinite else { throw error(at: i, "\(d) does not fit in Float") }
        return f
    }

    func unboxInteger<I: FixedWidthInteger>(_ i: Int, _: I.Type) throws -> I {
        let e = tape[i]
        switch e.kind {
        case .int:
            let x = Int64(bitPattern: e.bits)
            if let r = I(exactly: x) { return r }
            throw error(at: i, "\(x) does not fit in \(I.self)")
        case .uint:
            if let r = I(exactly: e.bits) { return r }
            throw error(at: i, "\(e.bits) does not fit in \(I.self)")
        case .double:
            // Written with a fraction or an exponent, or beyond 64 bits: the digits decide,
            // not the double they round to (which may be in range when they are not).
            let exact = parser.tapeExactInteger(e)
            if let r = exact.value(I.self) { return r }
            if exact != .fraction { throw error(at: i, "\(parser.tapeNumberText(e)) does not fit in \(I.self)") }
            throw error(at: i, "expected an integer, found \(Double(bitPattern: e.bits))")
        default:
            throw error(at: i, "expected an integer, found \(describe(i))")
        }
    }

    /// The value of member `key` of object (or bare case) `obj`, or nil.
    /// Synthesized code asks for keys in declaration order, which is usually the
    /// order in the input, so the scan starts just after the last member found.
    func member(_ obj: Int, _ key: String) -> Int? {
        let o = tape[obj]
        if o.kind == .string {
            guard string(obj) == key else { return nil }
            bareOwner = obj
            return emptyObject
        }
        let n = Int(o.len)
        if n == 0 { return nil }
        if n > 24 { return bigIndex(obj)[key] }
        var start = obj + 1
        if hintObject == obj && hintKey > obj && hintKey < Int(o.next) { start = hintKey }
        var key = key
        let found = key.withUTF8 { kb -> Int? in
            var k = start
            for _ in 0..<n {
                if k >= Int(o.next) { k = obj + 1 }
                if parser.tapeKeyEquals(tape[k], kb) { return k }
                k = Int(tape[k + 1].next)
            }
            return nil
        }
        guard let k = found else { return nil }
        hintObject = obj
        hintKey = Int(tape[k + 1].next)
        return k + 1
    }

    func bigIndex(_ obj: Int) -> [String: Int] {
        if let ix = indexes[obj] { return ix }
        var ix: [String: Int] = [:]
        var k = obj + 1
        for _ in 0..<Int(tape[obj].len) {
            ix[string(k)] = k + 1
            k = next(k + 1)
        }
        indexes[obj] = ix
        return ix
    }
}

/// Explains why an object does not name exactly one enum case.
func _enumDiagnosis(keys: [String], keyType: Any.Type?) -> String {
    let names = keyType.flatMap(_caseNames)
    if keys.count == 1 {
        if let names = names {
            return "unknown case '\(_printableName(keys[0]))'; valid cases: " + names.joined(separator: ", ")
        }
        return "unknown case '\(_printableName(keys[0]))'"
    }
    let found = keys.isEmpty ? "found an empty object" : "found \(keys.count) keys: " + keys.map(_printableName).joined(separator: ", ")
    if let names = names {
        return "expected exactly one of: " + names.joined(separator: ", ") + "; " + found
    }
    return "expected exactly one key naming an enum case; " + found
}

struct _TapeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let d: _TapeDecoder
    let obj: Int

    var codingPath: [CodingKey] { d.path(of: obj).map(JSONKey.init) }

    var allKeys: [Key] {
        let o = d.tape[obj]
        if o.kind == .string { return Key(stringValue: d.string(obj)).map { [$0] } ?? [] }
        var keys: [Key] = []
        keys.reserveCapacity(Int(o.len))
        var k = obj + 1
        for _ in 0..<Int(o.len) {
            if let key = Key(stringValue: d.string(k)) { keys.append(key) }
            k = d.next(k + 1)
        }
        return keys
    }

    @inline(__always) func require(_ key: Key) throws -> Int {
        guard let v = d.member(obj, key.stringValue) else {
            throw d.error(at: obj, "missing key '\(key.stringValue)'")
        }
        return v
    }

    @inline(__always) func present(_ key: Key) -> Int? {
        guard let v = d.member(obj, key.stringValue), d.tape[v].kind != .null else { return nil }
        return v
    }

    func contains(_ key: Key) -> Bool { d.member(obj, key.stringValue) != nil }
    func decodeNil(forKey key: Key) throws -> Bool { d.tape[try require(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try d.unboxBool(try require(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try d.unboxString(try require(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try d.unboxDouble(try require(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try d.unboxFloat(try require(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try d.unboxInteger(try require(key), type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try d.unboxInteger(try require(key), type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try d.unboxInteger(try require(key), type) }
    /// The rarer integer types, through one generic member (the common ones above are specialized).
    func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type, forKey key: Key) throws -> I { try d.unboxInteger(try require(key), type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try d.decodeValue(type, at: try require(key)) }

    // One member lookup, null read as absent (the standard library's default looks twice).
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try optional(type, key) }

    @inline(__always) private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let v = present(key) else { return nil }
        return try d.decodeValue(type, at: v)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(_TapeKeyed<NestedKey>(d: d, obj: try d.keyedEntry(try require(key), NestedKey.self)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        try d.unkeyed(try require(key))
    }

    func superDecoder() throws -> Decoder {
        _TapeDecoder(parser: d.parser, tape: d.tape, current: d.member(obj, "super") ?? d.nullEntry)
    }

    func superDecoder(forKey key: Key) throws -> Decoder {
        _TapeDecoder(parser: d.parser, tape: d.tape, current: d.member(obj, key.stringValue) ?? d.nullEntry)
    }
}

/// The decoder is its own single-value container: it reads the value being decoded.
extension _TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tape[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try unboxBool(current) }
    func decode(_ type: String.Type) throws -> String { try unboxString(current) }
    func decode(_ type: Double.Type) throws -> Double { try unboxDouble(current) }
    func decode(_ type: Float.Type) throws -> Float { try unboxFloat(current) }
    func decode(_ type: Int.Type) throws -> Int { try unboxInteger(current, type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unboxInteger(current, type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unboxInteger(current, type) }
    func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I { try unboxInteger(current, type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, at: current) }
}

/// A value type, as `Codable` expects: a copy of the container reads on from where the
/// original was, and moving one does not move the other.
struct _TapeUnkeyed: UnkeyedDecodingContainer {
    let d: _TapeDecoder
    let arr: Int
    let elementCount: Int
    var currentIndex = 0
    var cursor: Int

    init(d: _TapeDecoder, arr: Int) {
        self.d = d; self.arr = arr; self.elementCount = Int(d.tape[arr].len); self.cursor = arr + 1
    }

    var codingPath: [CodingKey] { d.path(of: arr).map(JSONKey.init) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    @inline(__always) func peek() throws -> Int {
        guard currentIndex < elementCount else {
            throw d.error(at: arr, index: currentIndex, "expected another element, found the end of the array (\(elementCount) elements)")
        }
        return cursor
    }

    @inline(__always) mutating func advance() {
        cursor = d.next(cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        if d.tape[try peek()].kind == .null { advance(); return true }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let r = try d.unboxBool(try peek()); advance(); return r }
    mutating func decode(_ type: String.Type) throws -> String { let r = try d.unboxString(try peek()); advance(); return r }
    mutating func decode(_ type: Double.Type) throws -> Double { let r = try d.unboxDouble(try peek()); advance(); return r }
    mutating func decode(_ type: Float.Type) throws -> Float { let r = try d.unboxFloat(try peek()); advance(); return r }
    mutating func decode(_ type: Int.Type) throws -> Int { let r = try d.unboxInteger(try peek(), type); advance(); return r }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let r = try d.unboxInteger(try peek(), type); advance(); return r }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let r = try d.unboxInteger(try peek(), type); advance(); return r }
    mutating func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I { let r = try d.unboxInteger(try peek(), type); advance(); return r }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { let r = try d.decodeValue(type, at: try peek()); advance(); return r }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let c = KeyedDecodingContainer(_TapeKeyed<NestedKey>(d: d, obj: try d.keyedEntry(try peek(), NestedKey.self)))
        advance()
        return c
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let c = try d.unkeyed(try peek())
        advance()
        return c
    }

    mutating func superDecoder() throws -> Decoder {
        let c = _TapeDecoder(parser: d.parser, tape: d.tape, current: try peek())
        advance()
        return c
    }
}
