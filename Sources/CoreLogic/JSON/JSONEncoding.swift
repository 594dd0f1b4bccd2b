/// Streaming `Encoder` that writes compact JSON straight into a byte buffer.
///
/// Containers are tracked on a stack of frames. A *slot* frame stands for one value
/// position (the root, a member or element encoded through `encode(to:)`, a
/// super-encoder); a container frame is an open `{` or `[`. Writing into a container closes
/// any frames opened above it, which is exactly the order synthesized `Codable` code uses;
/// writing into a container already closed is an error. Each frame keeps its step of the
/// coding path, so a path is read off the stack, and only when one is asked for.
/// `[String: V]` and `[Int: V]` dictionaries are written with their keys sorted (byte
/// order), so output does not depend on hashing order.
final class _StreamEncoder: Encoder {
    struct Frame {
        enum Kind { case slot, object, array }
        var id: Int
        var kind: Kind
        /// Where the frame's value is in the frame below: a key, an index, or nil for a
        /// container that fills a slot (the slot has the step) and for the root.
        var step: JSONPathComponent?
        /// Containers: members written so far. Slots: 0 empty, 1 filled.
        var count = 0
        /// Slots: the id of the container that fills it, or 0.
        var child = 0
        /// Sorting containers (dictionaries): (key, offset of the member's first byte).
        var sortEntries: [(String, Int)]?
        /// Containers: the offset just after the opening byte.
        var start = 0
    }

    /// The caller's buffer, written in place after the bytes already in it; handed back by
    /// ``takeBuffer()``.
    @exclusivity(unchecked) var out: _ByteBuffer
    @exclusivity(unchecked) var frames: [Frame] = []
    @exclusivity(unchecked) var serial = 0
    /// The slot that `container(keyedBy:)` and friends on `self` fill.
    @exclusivity(unchecked) var currentSlot = 0
    @exclusivity(unchecked) var failure: JSONError?

    init(appendingTo buffer: _ByteBuffer) {
        out = buffer
        frames.reserveCapacity(16)
    }

    /// The buffer written to, also after a failure (it may have moved to a bigger
    /// allocation). The encoder keeps an empty view without room: an `Encoder` that a
    /// hand-written `encode(to:)` kept can no longer write into the caller's bytes.
    func takeBuffer() -> _ByteBuffer {
        let taken = out
        out = _ByteBuffer(borrowing: taken.base, capacity: 0)
        return taken
    }

    /// Frees only what a kept encoder wrote after ``takeBuffer()`` (memory of its own).
    deinit { out.release() }

    var codingPath: [CodingKey] { codingPath(of: currentSlot) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { keyed(Key.self, in: currentSlot) }
    func unkeyedContainer() -> UnkeyedEncodingContainer { unkeyed(in: currentSlot) }
    func singleValueContainer() -> SingleValueEncodingContainer { _ValueEncoder(enc: self, id: currentSlot, single: true) }

    /// The root: encodes `value` as the whole document.
    func encodeRoot<T: Encodable>(_ value: T) throws {
        currentSlot = openSlot(nil)
        if T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self {
            frames[0].count = 1
            try encodeValue(value, at: nil)
        } else {
            try value.encode(to: self)
        }
        while !frames.isEmpty { pop() }
        if let f = failure { throw f }
    }

    // MARK: Frames

    /// The coding path to the frame `id` (open), then `last`.
    func path(of id: Int, then last: JSONPathComponent? = nil) -> [JSONPathComponent] {
        var steps = frames.prefix { $0.id <= id }.compactMap(\.step)
        if let last { steps.append(last) }
        return steps
    }

    func codingPath(of id: Int) -> [CodingKey] { path(of: id).map(JSONKey.init) }

    func fail(_ detail: String) {
        if failure == nil { failure = JSONError.schema(JSONPath.render(path(of: currentSlot)), detail) }
    }

    func nonFinite(_ d: Double, at id: Int, _ last: JSONPathComponent?) -> JSONError {
        JSONError.schema(JSONPath.render(path(of: id, then: last)), "cannot encode non-finite number \(d)")
    }

    @inline(__always) func nextID() -> Int { serial &+= 1; return serial }

    /// Opens a frame for one value (a slot) at `step` and returns its id.
    @inline(__always) func openSlot(_ step: JSONPathComponent?) -> Int {
        let slot = nextID()
        frames.append(Frame(id: slot, kind: .slot, step: step))
        return slot
    }

    /// Closes frames above `id`; false when `id` is no longer open.
    @inline(__always) func enter(_ id: Int) -> Bool {
        while let top = frames.last, top.id > id { pop() }
        return frames.last?.id == id
    }

    func pop() {
        guard let f = frames.popLast() else { return }
        switch f.kind {
        case .slot:
            if f.count == 0 { out.append(UInt8(ascii: "{")); out.append(UInt8(ascii: "}")) }
        case .object:
            if let entries = f.sortEntries, entries.count > 1 { sortMembers(entries, containerStart: f.start) }
            out.append(UInt8(ascii: "}"))
        case .array:
            out.append(UInt8(ascii: "]"))
        }
    }

    /// Reorders the members of a dictionary object written since `containerStart`
    /// (the offset just after `{`) by key.
    func sortMembers(_ entries: [(String, Int)], containerStart: Int) {
        var ranges: [(String, Range<Int>)] = []
        ranges.reserveCapacity(entries.count)
        for (n, e) in entries.enumerated() {
            let lo = n > 0 ? e.1 + 1 : e.1   // past the separating comma
            let hi = n + 1 < entries.count ? entries[n + 1].1 : out.count
            ranges.append((e.0, lo..<hi))
        }
        ranges.sort { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        let old = out.buffer(from: containerStart)
        var sorted: [UInt8] = []
        sorted.reserveCapacity(old.count)
        for (n, r) in ranges.enumerated() {
            if n > 0 { sorted.append(UInt8(ascii: ",")) }
            sorted.append(contentsOf: old[(r.1.lowerBound - containerStart)..<(r.1.upperBound - containerStart)])
        }
        out.replaceTail(from: containerStart, with: sorted)
    }

    // MARK: Containers

    func keyed<Key: CodingKey>(_: Key.Type, in slot: Int) -> KeyedEncodingContainer<Key> {
        let id = openContainer(slot: slot, object: true, sorting: Key.self == _DictionaryKeyType.type)
        return KeyedEncodingContainer(_KeyedEncoder<Key>(enc: self, id: id))
    }

    func unkeyed(in slot: Int) -> UnkeyedEncodingContainer {
        _ValueEncoder(enc: self, id: openContainer(slot: slot, object: false, sorting: false))
    }

    /// Opens a container in slot `slot`, or returns the one already there.
    func openContainer(slot: Int, object: Bool, sorting: Bool) -> Int {
        // Common case: the slot is the innermost frame and still empty.
        if frames.last?.id != slot || frames.last?.count != 0 {
            guard let idx = frames.lastIndex(where: { $0.id == slot }) else {
                fail("a container was requested after its value was complete")
                return -1
            }
            if frames[idx].count != 0 {
                let child = frames[idx].child
                if child == 0 { fail("a container was requested after a single value was encoded"); return -1 }
                if let c = frames.last(where: { $0.id == child }), (c.kind == .object) == object { return child }
                fail("conflicting containers requested for one value")
                return -1
            }
            _ = enter(slot)
        }
        let n = frames.count - 1
        frames[n].count = 1
        let id = pushContainer(object: object, sorting: sorting, at: nil)
        frames[n].child = id
        return id
    }

    /// Writes `{` or `[` and opens its frame at `step`; returns its id.
    func pushContainer(object: Bool, sorting: Bool, at step: JSONPathComponent?) -> Int {
        let id = nextID()
        out.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(id: id, kind: object ? .object : .array, step: step,
                            sortEntries: sorting ? [] : nil, start: out.count))
        return id
    }

    /// Marks slot `slot` filled by a single value; false if that is not possible.
    func fillSlot(_ slot: Int) -> Bool {
        guard enter(slot) else { fail("a value was encoded after its container was complete"); return false }
        if frames[frames.count - 1].count != 0 { fail("more than one value encoded into a single value container"); return false }
        frames[frames.count - 1].count = 1
        return true
    }

    /// Starts a member of container `id`: closes frames above it and writes the
    /// separator. Returns false (and records a failure) if `id` is closed.
    @inline(__always) func beginMember(_ id: Int) -> Bool {
        guard enter(id) else { fail("a container was used after it was complete"); return false }
        let n = frames.count - 1
        if frames[n].count > 0 { out.append(UInt8(ascii: ",")) }
        frames[n].count &+= 1
        return true
    }

    @inline(__always) func beginKeyedMember(_ id: Int, _ key: String) -> Bool {
        guard beginMember(id) else { return false }
        let n = frames.count - 1
        if frames[n].sortEntries != nil {
            let at = frames[n].count > 1 ? out.count - 1 : out.count
            frames[n].sortEntries?.append((key, at))
        }
        JSONWriter.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        return true
    }

    // MARK: Values

    /// Writes any encodable value at the current position (a member has been begun), at
    /// `step` of the innermost frame.
    func encodeValue<T: Encodable>(_ value: T, at step: JSONPathComponent?) throws {
        if T.self == String.self { JSONWriter.writeString(unsafeBitCast(value, to: String.self), into: &out); return }
        if T.self == Int.self { out.appendInt(Int64(unsafeBitCast(value, to: Int.self))); return }
        if T.self == Bool.self { out.append(unsafeBitCast(value, to: Bool.self) ? "true" : "false"); return }
        if T.self == Double.self {
            let d = unsafeBitCast(value, to: Double.self)
            guard d.isFinite else { throw nonFinite(d, at: frames.last?.id ?? 0, step) }
            out.appendDouble(d); return
        }
        // Everything else: a fresh slot, encoded through `self`.
        let slot = openSlot(step)
        let savedSlot = currentSlot
        currentSlot = slot
        defer { currentSlot = savedSlot }
        try value.encode(to: self)
        while let top = frames.last, top.id >= slot { pop() }
    }
}

/// The key type the standard library uses for `Dictionary` coding (the same for encoding
/// and decoding), found once by probing.
enum _DictionaryKeyType {
    static let type: Any.Type = _KeyTypeProbe.keyType(of: [String: Int].self) ?? Never.self
}

/// An `Encoder` bound to one slot, returned by `superEncoder()`.
struct _SlotEncoder: Encoder {
    let enc: _StreamEncoder
    let slot: Int
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(enc: _StreamEncoder, step: JSONPathComponent, ok: Bool) {
        self.enc = enc
        slot = ok ? enc.openSlot(step) : -1
        codingPath = ok ? enc.codingPath(of: slot) : []
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { enc.keyed(Key.self, in: slot) }
    func unkeyedContainer() -> UnkeyedEncodingContainer { enc.unkeyed(in: slot) }
    func singleValueContainer() -> SingleValueEncodingContainer { _ValueEncoder(enc: enc, id: slot, single: true) }
}

/// Writes `{"key":value,...}` members into one open object frame.
struct _KeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let enc: _StreamEncoder
    let id: Int

    var codingPath: [CodingKey] { enc.codingPath(of: id) }

    @inline(__always) func begin(_ key: Key) -> Bool { enc.beginKeyedMember(id, key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {
        if begin(key) { enc.out.append("null") }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if begin(key) { enc.out.append(value ? "true" : "false") }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if begin(key) { JSONWriter.writeString(value, into: &enc.out) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard value.isFinite else { throw enc.nonFinite(value, at: id, .key(key.stringValue)) }
        if begin(key) { enc.out.appendDouble(value) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        guard value.isFinite else { throw enc.nonFinite(Double(value), at: id, .key(key.stringValue)) }
        if begin(key) { enc.out.appendFloat(value) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { enc.out.appendInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { enc.out.appendInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { enc.out.appendInteger(value) } }
    /// The rarer integer types, through one generic member (the common ones above are specialized).
    mutating func encode<I: FixedWidthInteger & Encodable>(_ value: I, forKey key: Key) throws { if begin(key) { enc.out.appendInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if begin(key) { try enc.encodeValue(value, at: .key(key.stringValue)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let sorting = NestedKey.self == _DictionaryKeyType.type
        let nid = begin(key) ? enc.pushContainer(object: true, sorting: sorting, at: .key(key.stringValue)) : -1
        return KeyedEncodingContainer(_KeyedEncoder<NestedKey>(enc: enc, id: nid))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        _ValueEncoder(enc: enc, id: begin(key) ? enc.pushContainer(object: false, sorting: false, at: .key(key.stringValue)) : -1)
    }

    mutating func superEncoder() -> Encoder { _SlotEncoder(enc: enc, step: .key("super"), ok: enc.beginKeyedMember(id, "super")) }
    mutating func superEncoder(forKey key: Key) -> Encoder { _SlotEncoder(enc: enc, step: .key(key.stringValue), ok: begin(key)) }
}

/// Writes `[v,...]` elements into one open array frame, or (`single`) one value into the
/// slot `id`: the same writes after a different check, and no index in the path.
struct _ValueEncoder: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let enc: _StreamEncoder
    let id: Int
    var single = false
    var count = 0

    /// The path step of the next value.
    var next: JSONPathComponent? { single ? nil : .index(count) }

    var codingPath: [CodingKey] { enc.codingPath(of: id) }

    @inline(__always) mutating func begin() -> Bool {
        if single { return enc.fillSlot(id) }
        count += 1
        return enc.beginMember(id)
    }

    mutating func encodeNil() throws { if begin() { enc.out.append("null") } }
    mutating func encode(_ value: Bool) throws { if begin() { enc.out.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { if begin() { JSONWriter.writeString(value, into: &enc.out) } }
    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { throw enc.nonFinite(value, at: id, next) }
        if begin() { enc.out.appendDouble(value) }
    }
    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { throw enc.nonFinite(Double(value), at: id, next) }
        if begin() { enc.out.appendFloat(value) }
    }
    mutating func encode(_ value: Int) throws { if begin() { enc.out.appendInteger(value) } }
    mutating func encode(_ value: Int64) throws { if begin() { enc.out.appendInteger(value) } }
    mutating func encode(_ value: UInt64) throws { if begin() { enc.out.appendInteger(value) } }
    mutating func encode<I: FixedWidthInteger & Encodable>(_ value: I) throws { if begin() { enc.out.appendInteger(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let step = next
        if begin() { try enc.encodeValue(value, at: step) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let step = next, sorting = NestedKey.self == _DictionaryKeyType.type
        let nid = begin() ? enc.pushContainer(object: true, sorting: sorting, at: step) : -1
        return KeyedEncodingContainer(_KeyedEncoder<NestedKey>(enc: enc, id: nid))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let step = next
        return _ValueEncoder(enc: enc, id: begin() ? enc.pushContainer(object: false, sorting: false, at: step) : -1)
    }

    mutating func superEncoder() -> Encoder {
        let step = JSONPathComponent.index(count)
        return _SlotEncoder(enc: enc, step: step, ok: begin())
    }
}
