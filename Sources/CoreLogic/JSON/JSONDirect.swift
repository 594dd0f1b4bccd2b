/// A type that writes and reads its own JSON, in exactly the shape of its synthesized
/// `Codable` conformance, without the `Codable` machinery (a boxed container, metadata
/// lookups and dynamic calls per object). `JSONCoding` uses it whenever the top-level type
/// conforms; typegen's `--lang swift` writes the conformances (docs/performance.md has
/// an example and the rules).
///
/// - `writeJSON` writes exactly the bytes the `Codable` path writes (`JSONDirectCheck`
///   tests it): members in declaration order, `nil` optionals omitted, enums externally
///   tagged (`{"case":{"label":value}}`, `{"case":{}}`).
/// - `readJSON` reads that shape, and a case sent as a bare string (`"offline"`, which
///   `Codable` reads as `{"offline":{}}`). On anything else a `JSONInput` method throws and
///   `JSONCoding` decodes the same bytes through `Codable`, which gives the value or the
///   error with its JSON path: a direct reader may be stricter than `Codable`, never looser.
/// - `JSONOutput` and `JSONInput` are non-copyable: use the one you are given, in place.
public protocol JSONDirectCodable: Codable {
    /// Writes `self` as the `Codable` path would; throws (as `Double` does for a
    /// non-finite value) to let `Codable` encode it instead, with its error.
    func writeJSON(to out: inout JSONOutput) throws(JSONFailure)
    /// Reads a value written by `writeJSON`; throws on any other input (see above).
    static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Self
    #if !hasFeature(Embedded)
    /// An enum's case names in declaration order (nil, the default, for other types), for
    /// ``JSONCoding/caseNames(of:)``. In the WebAssembly build `Decodable` declares it.
    static var jsonCaseNames: [String]? { get }
    #endif
}

#if !hasFeature(Embedded)
extension JSONDirectCodable {
    public static var jsonCaseNames: [String]? { nil }
}
#endif

/// Thrown by `JSONInput` and `JSONOutput` when the direct path does not apply, for
/// `JSONCoding` to fall back to `Codable`. The WebAssembly build has no `Codable`: there
/// the mismatch is the error.
#if hasFeature(Embedded)
func _DirectMismatch() -> JSONError {
    JSONError(kind: .schema, message: "$: not the canonical JSON of this type", path: "$")
}
#else
struct _DirectMismatch: Error {}
#endif

// MARK: - Output

/// Compact JSON output for `JSONDirectCodable.writeJSON`. Commas are placed for you:
/// call `beginObject`, then `field` (or `key` and a value) per member, then `endObject`.
public struct JSONOutput: ~Copyable {
    var buf: _ByteBuffer
    /// 0: just opened a container; 1: just wrote a value (a comma comes next);
    /// 2: just wrote a key (its value comes next).
    var state: UInt8 = 0
    /// Opaque to the codec: set by a caller whose own types' writers look for it (the
    /// incremental differ, so that a tracked list writes a reference to itself). A raw
    /// pointer: the caller keeps what it points to alive, and a non-copyable type's
    /// stored properties must be trivial.
    var context: UnsafeMutableRawPointer?

    init(capacity: Int) { buf = _ByteBuffer(capacity: capacity) }

    init(borrowing memory: UnsafeMutablePointer<UInt8>, capacity: Int) {
        buf = _ByteBuffer(borrowing: memory, capacity: capacity)
    }

    deinit { buf.deallocateIfOwned() }

    /// Writes after the bytes already in `buffer`, in its memory (taken back with
    /// ``takeBuffer()``, also after a failed write).
    init(appendingTo buffer: _ByteBuffer) { buf = buffer }

    /// Runs `body` on an output that appends to `buffer` in its memory, then hands the
    /// buffer back whatever happened (the writer may have moved the bytes to a bigger
    /// allocation and freed the old one). Rethrows what `body` threw; the bytes written
    /// before it stay, for the caller to truncate.
    @inline(__always)
    static func write(into buffer: inout _ByteBuffer, context: UnsafeMutableRawPointer? = nil,
                      _ body: (inout JSONOutput) throws(JSONFailure) -> Void) throws(JSONFailure) {
        var output = JSONOutput(appendingTo: buffer)
        output.context = context
        do {
            try body(&output)
        } catch {
            buffer = output.takeBuffer()
            throw error
        }
        buffer = output.takeBuffer()
    }

    /// The buffer written to, handed back without freeing it.
    consuming func takeBuffer() -> _ByteBuffer {
        let taken = buf
        #if hasFeature(Embedded)
        // Embedded Swift allows `discard` only in frozen types: lend the output an empty
        // borrowed buffer instead, which its deinit does not free.
        buf = _ByteBuffer(borrowing: taken.base, capacity: 0)
        #else
        discard self
        #endif
        return taken
    }

    @inline(__always) mutating func beforeValue() {
        if state == 1 { buf.append(UInt8(ascii: ",")) }
    }

    @inline(__always) public mutating func beginObject() {
        beforeValue()
        buf.append(UInt8(ascii: "{"))
        state = 0
    }

    @inline(__always) public mutating func endObject() {
        buf.append(UInt8(ascii: "}"))
        state = 1
    }

    public mutating func beginArray() {
        beforeValue()
        buf.append(UInt8(ascii: "["))
        state = 0
    }

    public mutating func endArray() {
        buf.append(UInt8(ascii: "]"))
        state = 1
    }

    /// Writes a member's key; its value comes next.
    @inline(__always) public mutating func key(_ name: StaticString) {
        beforeValue()
        buf.appendKey(utf8: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        state = 2
    }

    /// Writes `name` and `value` as one member.
    @inline(__always) public mutating func field<T: JSONDirectCodable>(_ name: StaticString, _ value: T) throws(JSONFailure) {
        key(name)
        try value.writeJSON(to: &self)
    }

    /// Writes `name` and `value` as one member, or nothing when `value` is nil
    /// (as synthesized `encodeIfPresent` does).
    @inline(__always) public mutating func field<T: JSONDirectCodable>(_ name: StaticString, _ value: T?) throws(JSONFailure) {
        guard let value = value else { return }
        try field(name, value)
    }

    /// Writes an enum case with a payload: `{"name":{` ... then the payload's
    /// fields, then `endCase()`.
    public mutating func beginCase(_ name: StaticString) {
        beginObject()
        key(name)
        beginObject()
    }

    public mutating func endCase() {
        endObject()
        endObject()
    }

    /// Writes a case without payload: `{"name":{}}`.
    public mutating func payloadlessCase(_ name: StaticString) {
        beginCase(name)
        endCase()
    }

    @inline(__always) mutating func string(_ s: String) {
        beforeValue()
        JSONWriter.writeString(s, into: &buf)
        state = 1
    }

    @inline(__always) mutating func bool(_ b: Bool) {
        beforeValue()
        buf.append(b ? "true" : "false")
        state = 1
    }

    /// Wider than 64 bits: declined (the `Codable` path decides).
    @inline(__always) mutating func integer<I: FixedWidthInteger>(_ v: I) throws(JSONFailure) {
        guard I.bitWidth <= 64 else { throw _DirectMismatch() }
        beforeValue()
        buf.appendInteger(v)
        state = 1
    }

    @inline(__always) mutating func double(_ d: Double) throws(JSONFailure) {
        guard d.isFinite else { throw _DirectMismatch() }
        beforeValue()
        buf.appendDouble(d)
        state = 1
    }
}

// MARK: - Input

/// A strict reader of the canonical shape for `JSONDirectCodable.readJSON`. Every
/// method skips whitespace, checks the exact syntax (RFC 8259, UTF-8, depth limit)
/// and throws on anything unexpected, so the caller can fall back to `Codable`.
///
/// The members of the native extension at the end of this file (the `track…` calls,
/// `expectClosing`, `findMember`, `moveToCase`, `missingKey`, `slowCaseName`,
/// `integer(_:fromDouble:)`, `notAnInteger`) do nothing natively beyond declining. In the
/// WebAssembly build, which has no `Codable` to fall back on, they keep the reader's path
/// for the tape decoder's error messages, and read members that are unknown or out of
/// order (`Embedded/JSONInput+Embedded.swift`).
public struct JSONInput: ~Copyable {
    var parser: _Parser
    /// A value or member was just read, so a comma comes before the next one.
    var needComma = false
    var depth = 0
    /// The case being read was a bare string: its payload is an empty object, so no key
    /// follows and `endCase` reads nothing.
    var bareCase = false
    #if hasFeature(Embedded)
    var path: [JSONPathComponent] = []
    var expecting: StaticString = "a value"
    var caseSeen: String?
    var skippedMembers = false
    var objects: [(start: Int, reordered: Bool)] = []
    #endif

    init(_ parser: _Parser) { self.parser = parser }

    /// The error a reader throws for input it does not handle (an unknown case, say).
    public func mismatch() -> JSONFailure { _DirectMismatch() }

    @inline(__always) mutating func expect(_ b: UInt8) throws(JSONFailure) {
        parser.skipWhitespace()
        guard parser.byte(parser.i) == b else { throw _DirectMismatch() }
        parser.i += 1
    }

    public mutating func beginObject() throws(JSONFailure) {
        try open(UInt8(ascii: "{"))
    }

    public mutating func endObject() throws(JSONFailure) {
        try close(UInt8(ascii: "}"))
    }

    public mutating func beginArray() throws(JSONFailure) {
        try open(UInt8(ascii: "["))
    }

    /// True when another element follows (and moves to it); false at the end of the
    /// array, which it consumes.
    public mutating func nextElement() throws(JSONFailure) -> Bool {
        parser.skipWhitespace()
        if parser.byte(parser.i) == UInt8(ascii: "]") {
            parser.i += 1
            trackClosed()
            depth -= 1
            needComma = true
            return false
        }
        if needComma { try expect(UInt8(ascii: ",")) }
        trackNextElement()
        return true
    }

    @inline(__always) mutating func open(_ b: UInt8) throws(JSONFailure) {
        trackExpecting(b == UInt8(ascii: "[") ? "an array" : "an object")
        try expect(b)
        trackOpened(b)
        depth += 1
        guard depth <= parser.maxDepth else { throw _DirectMismatch() }
        needComma = false
    }

    @inline(__always) mutating func close(_ b: UInt8) throws(JSONFailure) {
        try expectClosing(b)
        depth -= 1
        needComma = true
    }

    /// Reads the key `name` (and its colon); the member's value comes next.
    public mutating func key(_ name: StaticString) throws(JSONFailure) {
        guard try optionalKey(name) else { throw missingKey(name) }
    }

    /// Reads the key `name` if it is the next member; false (reading nothing) when
    /// the object ends there or another key follows.
    public mutating func optionalKey(_ name: StaticString) throws(JSONFailure) -> Bool {
        if bareCase { return false }
        parser.skipWhitespace()
        let saved = parser.i
        if skipKey(named: name) {
            try expect(UInt8(ascii: ":"))
        } else {
            parser.i = saved
            guard try findMember(name) else { return false }
        }
        trackKey(name)
        needComma = false
        return true
    }

    /// Moves just past the next member's key (and the comma before it, if one is due)
    /// when that key is `name` written raw; false otherwise, the caller restoring the position.
    mutating func skipKey(named name: StaticString) -> Bool {
        if needComma {
            guard parser.byte(parser.i) == UInt8(ascii: ",") else { return false }
            parser.i += 1
            parser.skipWhitespace()
        }
        let n = name.utf8CodeUnitCount
        let at = parser.i
        guard at + n + 2 <= parser.end, parser.p[at] == UInt8(ascii: "\""), parser.p[at + n + 1] == UInt8(ascii: "\"") else { return false }
        let s = name.utf8Start
        for k in 0..<n {
            let c = s[k]
            // A name with a byte JSON must escape is never written raw: leave it to Codable.
            if parser.p[at + 1 + k] != c || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { return false }
        }
        parser.i = at + n + 2
        return true
    }

    /// Reads the member `name` (key and value).
    @inline(__always) public mutating func field<T: JSONDirectCodable>(_ name: StaticString, as type: T.Type = T.self) throws(JSONFailure) -> T {
        try key(name)
        return try T.readJSON(from: &self)
    }

    /// Reads the optional member `name`: nil when it is absent or null (as
    /// synthesized `decodeIfPresent` does).
    @inline(__always) public mutating func optionalField<T: JSONDirectCodable>(_ name: StaticString, as type: T.Type = T.self) throws(JSONFailure) -> T? {
        guard try optionalKey(name) else { return nil }
        if try null() { return nil }
        return try T.readJSON(from: &self)
    }

    /// Reads `null` if it comes next; false (reading nothing) otherwise.
    public mutating func null() throws(JSONFailure) -> Bool {
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: "n") else { return false }
        try parser.expectLiteral("null")
        needComma = true
        return true
    }

    /// Reads the opening of an enum case, `{"name":{`, or a case sent as a bare string,
    /// `"name"`, and returns the name; read the payload's fields, then call `endCase()`.
    /// A bare case reads as `{"name":{}}` does (as `Codable` reads it): every key is
    /// absent, so a case with a required field falls back to `Codable` and its error.
    /// Only ASCII names without escapes are read here (`String` equality would also
    /// match other spellings of a non-ASCII name, which `Codable` does not); others go
    /// to `Codable`.
    public mutating func beginCase() throws(JSONFailure) -> String {
        try beginCase(among: { nil })
    }

    /// ``beginCase()`` for the enum `T`, as the generated readers call it. In the
    /// WebAssembly build `T`'s case names tell the case member from unknown members
    /// beside it, as the tape decoder does.
    @inline(__always) public mutating func beginCase<T: JSONDirectCodable>(of _: T.Type) throws(JSONFailure) -> String {
        try beginCase(among: { T.jsonCaseNames })
    }

    @inline(__always) mutating func beginCase(among names: () -> [String]?) throws(JSONFailure) -> String {
        parser.skipWhitespace()
        if parser.byte(parser.i) == UInt8(ascii: "\"") {
            // A bare case: its payload reads as an empty object.
            let name = try caseName()
            bareCase = true
            needComma = true
            return name
        }
        try beginObject()
        try moveToCase(among: names)
        // The case's key and colon, and the opening of its payload.
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: "\"") else { throw _DirectMismatch() }
        let name = try caseName()
        try expect(UInt8(ascii: ":"))
        trackCase(name)
        try beginObject()
        return name
    }

    /// The string at the current position, which must be ASCII without escapes.
    @inline(__always) mutating func caseName() throws(JSONFailure) -> String {
        let raw = try parser.scanString()
        let name = raw.slow ? try slowCaseName(raw.start)
            : String(decoding: UnsafeBufferPointer(start: parser.p + raw.start, count: raw.len), as: UTF8.self)
        trackCaseSeen(name)
        return name
    }

    /// Reads the end of a case, `}}`: the payload object and the one-key outer object
    /// (nothing after a bare case).
    public mutating func endCase() throws(JSONFailure) {
        if bareCase {
            bareCase = false
            return
        }
        try endObject()
        try endObject()
    }

    @inline(__always) mutating func string() throws(JSONFailure) -> String {
        trackExpecting("a string")
        parser.skipWhitespace()
        guard parser.byte(parser.i) == UInt8(ascii: "\"") else { throw _DirectMismatch() }
        let s = try parser.parseString()
        needComma = true
        return s
    }

    @inline(__always) mutating func bool() throws(JSONFailure) -> Bool {
        trackExpecting("a boolean")
        parser.skipWhitespace()
        let b = parser.byte(parser.i)
        let r: Bool
        if b == UInt8(ascii: "t") {
            try parser.expectLiteral("true"); r = true
        } else if b == UInt8(ascii: "f") {
            try parser.expectLiteral("false"); r = false
        } else {
            throw _DirectMismatch()
        }
        needComma = true
        return r
    }

    mutating func number() throws(JSONFailure) -> JSONValue {
        parser.skipWhitespace()
        let b = parser.byte(parser.i)
        guard b == UInt8(ascii: "-") || _Parser.isDigit(b) else { throw _DirectMismatch() }
        let v = try parser.parseNumber()
        needComma = true
        return v
    }

    /// Integers written as integers; natively `1.0` or `1e3` go to the `Codable` path (the
    /// WebAssembly build reads them when exact).
    @inline(__always) mutating func integer<I: FixedWidthInteger>(_: I.Type) throws(JSONFailure) -> I {
        trackExpecting("an integer")
        let start = parser.i
        switch try number() {
        case .int(let x):
            if let r = I(exactly: x) { return r }
        case .uint(let x):
            if let r = I(exactly: x) { return r }
        case .double(let d):
            if let r = integer(I.self, fromDouble: d) { return r }
        default:
            break
        }
        throw notAnInteger(I.self, from: start)
    }

    /// Same conversions as the `Codable` path: any JSON number.
    @inline(__always) mutating func double() throws(JSONFailure) -> Double {
        trackExpecting("a number")
        switch try number() {
        case .double(let d): return d
        case .int(let x): return Double(x)
        case .uint(let x): return Double(x)
        default: throw _DirectMismatch()
        }
    }

    /// After the top-level value: only whitespace may follow.
    mutating func finish() throws(JSONFailure) {
        parser.skipWhitespace()
        guard parser.i == parser.end else { throw _DirectMismatch() }
    }
}

#if !hasFeature(Embedded)
/// Natively the tape decoder keeps paths and messages, and reads what this reader declines.
extension JSONInput {
    @inline(__always) func trackExpecting(_: StaticString) {}
    @inline(__always) func trackOpened(_: UInt8) {}
    @inline(__always) func trackClosed() {}
    @inline(__always) func trackNextElement() {}
    @inline(__always) func trackKey(_: StaticString) {}
    @inline(__always) func trackCase(_: String) {}
    @inline(__always) func trackCaseSeen(_: String) {}
    @inline(__always) mutating func expectClosing(_ b: UInt8) throws(JSONFailure) { try expect(b) }
    @inline(__always) func findMember(_: StaticString) throws(JSONFailure) -> Bool { false }
    @inline(__always) func moveToCase(among _: () -> [String]?) throws(JSONFailure) {}
    @inline(__always) func missingKey(_: StaticString) -> JSONFailure { _DirectMismatch() }
    @inline(__always) func slowCaseName(_: Int) throws(JSONFailure) -> String { throw _DirectMismatch() }
    @inline(__always) func integer<I: FixedWidthInteger>(_: I.Type, fromDouble _: Double) -> I? { nil }
    @inline(__always) func notAnInteger<I: FixedWidthInteger>(_: I.Type, from _: Int) -> JSONFailure { _DirectMismatch() }

    /// The error for a case name that is none of `names`: a mismatch, so that `Codable`
    /// reports it.
    public func unknownCase(_ names: [String]) -> JSONFailure { _DirectMismatch() }
}
#endif

// MARK: - Standard types

extension String: JSONDirectCodable {
    @inline(__always) public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) { out.string(self) }
    @inline(__always) public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> String { try input.string() }
}

extension Bool: JSONDirectCodable {
    @inline(__always) public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) { out.bool(self) }
    @inline(__always) public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Bool { try input.bool() }
}

extension Double: JSONDirectCodable {
    /// Throws for a non-finite value, so the `Codable` path reports it with its path.
    @inline(__always) public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) { try out.double(self) }
    @inline(__always) public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Double { try input.double() }
}

/// Integers: the `Codable` path's writer, and only integer literals in range on reading.
extension JSONDirectCodable where Self: FixedWidthInteger {
    @inline(__always) public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) { try out.integer(self) }
    @inline(__always) public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Self { try input.integer(Self.self) }
}

extension Int: JSONDirectCodable {}
extension Int32: JSONDirectCodable {}
extension Int64: JSONDirectCodable {}
extension UInt32: JSONDirectCodable {}
extension UInt64: JSONDirectCodable {}

extension Array: JSONDirectCodable where Element: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) {
        out.beginArray()
        for element in self { try element.writeJSON(to: &out) }
        out.endArray()
    }

    public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> [Element] {
        try input.beginArray()
        var result: [Element] = []
        while try input.nextElement() {
            result.append(try Element.readJSON(from: &input))
        }
        return result
    }
}

// MARK: - Entry points used by JSONCoding

#if !hasFeature(Embedded)
/// The direct conformances of a few types, remembered. A value whose type is known only
/// at run time (an effect's request, held as `any Encodable`) is asked for its
/// conformance on every write otherwise, a runtime lookup of about 280 instructions per
/// command (measured with playcatch).
struct _DirectTypes {
    private var known: [(type: ObjectIdentifier, direct: (any JSONDirectCodable.Type)?)] = []

    /// `T`'s direct conformance, or nil when it has none.
    mutating func conformance<T>(of _: T.Type) -> (any JSONDirectCodable.Type)? {
        let type = ObjectIdentifier(T.self)
        for index in known.indices where known[index].type == type { return known[index].direct }
        let direct = T.self as? any JSONDirectCodable.Type
        if known.count < 8 { known.append((type, direct)) }
        return direct
    }
}

enum _Direct {
    /// Appends the direct JSON of `value` to `out`, in `out`'s own memory (a batch is
    /// written where the host will read it, with no copy in between); false, with `out`
    /// unchanged, when `T` does not conform or its `writeJSON` declined.
    static func encode<T>(_ value: T, into out: inout _ByteBuffer) -> Bool {
        encode(value, as: T.self as? any JSONDirectCodable.Type, into: &out)
    }

    /// `encode(_:into:)` with `T`'s direct conformance, if any, already looked up.
    @inline(__always)
    static func encode<T>(_ value: T, as direct: (any JSONDirectCodable.Type)?, into out: inout _ByteBuffer) -> Bool {
        guard let d = direct else { return false }
        return withUnsafePointer(to: value) { encodeOpened(d, UnsafeRawPointer($0), into: &out) }
    }

    private static func encodeOpened<D: JSONDirectCodable>(_: D.Type, _ p: UnsafeRawPointer, into out: inout _ByteBuffer) -> Bool {
        let start = out.count
        var o = JSONOutput(appendingTo: out)
        var written = true
        do {
            try p.assumingMemoryBound(to: D.self).pointee.writeJSON(to: &o)
        } catch {
            written = false
        }
        // Taken back whatever happened: the writer may have moved the bytes to a bigger
        // allocation (and freed the old one). Not through `JSONOutput.write`: on the
        // batch's path that costs about 30 instructions more per counter batch (measured).
        out = o.takeBuffer()
        if !written { out.truncate(to: start) }
        return written
    }

    /// The direct decoding of `T` from input already checked against the size limit; nil
    /// when `T` does not conform or the input is not its canonical shape.
    static func decode<T>(_: T.Type, base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) -> T? {
        // Same bound as the tape's offsets, so both paths reject the same sizes.
        guard count < Int(Int32.max), let d = T.self as? any JSONDirectCodable.Type else { return nil }
        return withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer -> T? in
            guard let slot = buffer.baseAddress,
                  decodeOpened(d, _Parser(base: base, count: count, maxDepth: maxDepth), into: UnsafeMutableRawPointer(slot))
            else { return nil }
            return slot.move()
        }
    }

    private static func decodeOpened<D: JSONDirectCodable>(_: D.Type, _ parser: _Parser, into p: UnsafeMutableRawPointer) -> Bool {
        var input = JSONInput(parser)
        do {
            let v = try D.readJSON(from: &input)
            try input.finish()
            p.assumingMemoryBound(to: D.self).initialize(to: v)
            return true
        } catch {
            return false
        }
    }
}
#endif
