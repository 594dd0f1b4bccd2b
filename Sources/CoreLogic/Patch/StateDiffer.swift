/// Turns successive states into RFC 6902 JSON Patches, at a cost that follows the change,
/// not the size of the state (`docs/performance.md`, "Incremental output").
///
/// The differ keeps a *shadow* of the last state it emitted: a tree with the JSON of every
/// scalar, the members of every object and the elements of every array, and, for every
/// subtree without a ``TrackedArray`` in it, the value itself. A diff walks the new state
/// through its `Encodable` conformance, guided by the shadow:
///
/// - a value whose bits equal those of the value kept for the same place is the same
///   value (the kept copy holds a reference to any storage it shares, so that storage
///   cannot have been mutated in place), and is skipped without looking inside: an
///   untouched 100,000-element array costs one comparison;
/// - a ``TrackedArray`` reports which indices changed since the generation the shadow
///   saw, so appending to it costs what was appended;
/// - anything else is compared member by member, element by element, scalar by JSON.
///
/// Then the old and new shadows are compared, skipping shared subtrees, and the patch is
/// written: `replace` for a changed scalar or a value whose kind changed, `add`/`remove`
/// for object members, `add` at `-` for appended elements and `remove` (from the end) for
/// dropped ones. Applied in order to the previous state, the patch gives the new one.
///
/// State types must be values (structs, enums, arrays, strings, dictionaries, numbers);
/// a class instance reachable from the state must be immutable. A type whose encoding uses
/// `superEncoder` is handled by replacing the whole state every time.
///
/// A state with a direct JSON conformance (`JSONDirectCodable`) is not walked through
/// `Encodable`: ``_DirectDiffer`` compares the bytes of its last and new JSON instead,
/// and writes the same operations; one with a generated patch as well (`JSONPatchable`)
/// is compared field by field (``_TypedDiffer``), the byte differ taking over a diff the
/// fields cannot write.
final class StateDiffer<State: Encodable> {
    // Unchecked exclusivity: a differ is used by its owner under the system's lock, one
    // call at a time, and no access to these overlaps another.
    @exclusivity(unchecked) private var root: _DiffNode?
    /// True once a state used an encoding the shadow cannot follow: every patch is then
    /// one `replace` of the whole state.
    @exclusivity(unchecked) private var opaque = false
    /// The byte differ, for a state with a direct conformance (nil: the shadow tree).
    @exclusivity(unchecked) private var direct: _DirectDiffer<State>?
    /// The field-by-field differ, for a state with a generated patch (nil: `direct`).
    @exclusivity(unchecked) private var typed: _TypedDiffer<State>?

    /// - Parameters:
    ///   - direct: false to use the shadow tree even for a state with a direct
    ///     conformance (tests compare both).
    ///   - typed: false to use the byte differ even for a state with a generated patch.
    init(direct: Bool = true, typed: Bool = true) {
        self.direct = direct ? _DirectDiffer<State>.make() : nil
        self.typed = direct && typed && self.direct != nil ? _TypedDiffer<State>.make() : nil
    }

    /// Starts over from `state`, as if the host had just received it whole. O(state).
    func reset(to state: State) throws {
        opaque = false
        if let direct {
            if direct.reset(to: state) {
                typed?.reset(to: state)
                return
            }
            // Its `writeJSON` declined this state (the `Codable` path decides): the tree.
            self.direct = nil
            typed = nil
        }
        let context = _DiffContext(needFullBytes: false)
        let node = try context.visit(state, previous: nil)
        context.clearPending()
        root = node
        opaque = context.unsupported
    }

    /// `diff(to:into:)` appending to an array.
    func diff(to state: State, into out: inout [UInt8]) throws {
        try _ByteBuffer.appending(to: &out) { buffer in try diff(to: state, into: &buffer) }
    }

    /// Appends the JSON array of operations that turn the last state (given to `reset` or
    /// a previous `diff`) into `state` to a byte buffer (a batch's), in its memory, and
    /// makes `state` the last one.
    /// On error (a value that cannot be encoded), nothing is appended and the last state
    /// stays the one before.
    func diff(to state: State, into out: inout _ByteBuffer) throws {
        if let typed, !opaque, typed.hasLast {
            do {
                try typed.diff(to: state, into: &out)
                return
            } catch is _TypedDiffUnsupported {
                self.typed = nil
            } catch {}
            // The byte differ writes this one (or throws its error), from the same last
            // state. A shadow was written before, so it can be written again.
            if let direct, direct.reset(to: typed.last), try direct.diff(to: state, into: &out) {
                self.typed?.advance(to: state)
                return
            }
        } else if let direct, !opaque, try direct.diff(to: state, into: &out) {
            return
        }
        try treeDiff(to: state, into: &out)
    }

    private func treeDiff(to state: State, into out: inout _ByteBuffer) throws {
        if opaque {
            try writeWholeReplacement(state, into: &out)
            return
        }
        if direct != nil {
            // The byte differ's state cannot be written directly, but may be through
            // `Codable` (or this throws, and nothing changed): whole states from now on.
            try writeWholeReplacement(state, into: &out)
            opaque = true
            return
        }
        let context = _DiffContext(needFullBytes: true)
        let node = try context.visit(state, previous: root)
        if context.unsupported {
            try writeWholeReplacement(state, into: &out)
            opaque = true
            root = nil
            return
        }
        var writer = _PatchWriter(appendingTo: out)
        writer.diff(root, node)
        out = writer.finish()
        context.clearPending()
        root = node
    }

    private func writeWholeReplacement(_ state: State, into out: inout _ByteBuffer) throws {
        let start = out.count
        out.append(#"[{"op":"replace","path":"","value":"#)
        do {
            try JSONCoding.encode(state, into: &out)
        } catch {
            out.truncate(to: start)
            throw error
        }
        out.append("}]")
    }
}

// MARK: - The shadow tree

final class _DiffNode {
    enum Kind { case unset, scalar, object, array, tracked }

    var kind = Kind.unset
    /// Scalar: its JSON.
    var bytes: [UInt8] = []
    /// Object: member names, in output order; `children` holds their values.
    var keys: [String] = []
    /// Object members (parallel to `keys`) or array elements.
    var children: [_DiffNode] = []
    /// The value this node was built from, kept to recognise it unchanged next time.
    /// Never set when the subtree holds a tracked array (keeping one would force a copy
    /// of its storage at the next mutation).
    var kept: _KeptValue?
    /// The type of `kept`.
    var keptType: ObjectIdentifier?
    var containsTracked = false
    /// Object written with its members sorted by key (dictionaries, as the encoder does).
    var sortsKeys = false

    // Tracked arrays: the history position seen, and what this diff must emit.
    var branch: UInt64 = 0
    var generation: UInt64 = 0
    var count = 0
    /// Pending during one diff: the whole array's JSON (when the changes are unknown).
    var fullBytes: [UInt8]?
    /// Pending during one diff: the operations on the array, relative to its path.
    var edits: [_ArrayEdit] = []

    func appendChild(_ key: String?, _ node: _DiffNode) {
        if let key { keys.append(key) }
        children.append(node)
        if node.containsTracked { containsTracked = true }
    }

    /// The member named `key` of an object node; `hint` is where it usually is.
    func member(_ key: String, hint: Int) -> _DiffNode? {
        if hint < keys.count, keys[hint] == key { return children[hint] }
        if let index = keys.firstIndex(of: key) { return children[index] }
        return nil
    }

    func sortMembers() {
        guard keys.count > 1 else { return }
        let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
        keys = order.map { keys[$0] }
        children = order.map { children[$0] }
    }

    /// Appends this subtree's JSON.
    func write(into out: inout _ByteBuffer) {
        switch kind {
        case .scalar:
            out.append(bytes)
        case .unset, .object:
            out.append(UInt8(ascii: "{"))
            for index in keys.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(keys[index], into: &out)
                out.append(UInt8(ascii: ":"))
                children[index].write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array:
            out.append(UInt8(ascii: "["))
            for index in children.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                children[index].write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .tracked:
            if let fullBytes { out.append(fullBytes) }
        }
    }
}

/// A value kept by a shadow node.
class _KeptValue {}

final class _Kept<T>: _KeptValue {
    let value: T
    init(_ value: T) { self.value = value }
}

/// One operation on a tracked array, relative to the array's path.
enum _ArrayEdit {
    case replace(Int, [UInt8])
    case remove(Int)
    case append([UInt8])
}

/// True when `a` and `b` have the same bits. For a value whose references are kept
/// alive elsewhere (the shadow keeps `b`), the same bits mean the same value: shared
/// storage is never mutated in place. Padding may differ between equal values, which
/// only costs a closer look.
@inline(__always)
private func sameBits<T>(_ a: T, _ b: T) -> Bool { JSONIdentity.bitwiseIdentical(a, b) }

// MARK: - Building the new shadow (an Encoder)

final class _DiffContext {
    /// Whether tracked arrays without a usable history must produce their whole JSON
    /// (not when building a baseline, which emits nothing).
    let needFullBytes: Bool
    var unsupported = false
    /// Tracked nodes holding pending bytes, cleared after the patch is written.
    private var pending: [_DiffNode] = []
    /// Where a scalar's or a tracked array's JSON is written, before it is compared or kept.
    private var scratch = _ByteBuffer(capacity: 64)

    init(needFullBytes: Bool) { self.needFullBytes = needFullBytes }

    deinit { scratch.release() }

    /// The bytes `write` appends to the emptied scratch buffer.
    func written(_ write: (inout _ByteBuffer) throws -> Void) rethrows -> [UInt8] {
        scratch.truncate(to: 0)
        try write(&scratch)
        return Array(scratch.buffer)
    }

    /// Remembers a node whose pending bytes must be dropped once the patch is written.
    func track(_ node: _DiffNode) { pending.append(node) }

    func clearPending() {
        for node in pending {
            node.fullBytes = nil
            node.edits = []
        }
        pending = []
    }

    /// The shadow of `value`, reusing `previous` (or parts of it) where unchanged.
    func visit<T: Encodable>(_ value: T, previous: _DiffNode?) throws -> _DiffNode {
        if let previous, previous.keptType == ObjectIdentifier(T.self), let kept = previous.kept,
           sameBits(unsafeDowncast(kept, to: _Kept<T>.self).value, value) {
            return previous
        }
        let node = _DiffNode()
        // A TrackedArray recognises this encoder and fills the node itself (`visitTracked`).
        try value.encode(to: _DiffEncoder(node: node, previous: previous, context: self))
        if node.kind == .tracked { return node }
        if node.kind == .scalar {
            if let previous, previous.kind == .scalar, previous.bytes == node.bytes { return previous }
            return node
        }
        if node.sortsKeys { node.sortMembers() }
        if !node.containsTracked {
            node.kept = _Kept(value)
            node.keptType = ObjectIdentifier(T.self)
        }
        return node
    }

    /// A scalar's shadow: `previous` itself when its JSON is the same.
    func scalar(previous: _DiffNode?, _ write: (inout _ByteBuffer) throws -> Void) throws -> _DiffNode {
        scratch.truncate(to: 0)
        try write(&scratch)
        if let previous, previous.kind == .scalar, scratch.buffer.elementsEqual(previous.bytes) { return previous }
        let node = _DiffNode()
        node.kind = .scalar
        node.bytes = Array(scratch.buffer)
        return node
    }

    /// Fills `node` as the shadow of a tracked array: its history position, and the edits
    /// since the one `previous` saw (or, when those are unknown, its whole JSON).
    func visitTracked(_ array: _ChangeTrackedArray, node: _DiffNode, previous: _DiffNode?) throws {
        node.kind = .tracked
        node.containsTracked = true
        node.branch = array._branch
        node.generation = array._generation
        node.count = array.count
        if let previous, previous.kind == .tracked, let changes = array._changes(since: previous.generation, of: previous.branch) {
            if let edits = try edits(array, from: previous.count, changes) {
                node.edits = edits
                if !edits.isEmpty { pending.append(node) }
                return
            }
        }
        // An empty list where there was one is no change, whatever its history (a new
        // empty list, `items = []`, has a history of its own).
        if let previous, previous.kind == .tracked, previous.count == 0, array.count == 0 { return }
        if needFullBytes {
            node.fullBytes = try written { try array._writeAll(into: &$0) }
            pending.append(node)
        }
    }

    /// The operations that turn the array of `oldCount` elements seen before `changes`
    /// into `array`; nil when replacing the whole array is shorter.
    private func edits(_ array: _ChangeTrackedArray, from oldCount: Int, _ changes: ArraySlice<_ArrayChange>) throws -> [_ArrayEdit]? {
        if changes.isEmpty { return [] }
        guard let plan = _ArrayEditPlan(oldCount: oldCount, newCount: array.count, changes: changes) else { return nil }

        var edits: [_ArrayEdit] = []
        edits.reserveCapacity(plan.operations)
        func element(_ index: Int) throws -> [UInt8] {
            try written { try array._writeElement(at: index, into: &$0) }
        }
        for index in plan.assigned { edits.append(.replace(index, try element(index))) }
        for index in plan.kept..<(plan.kept + plan.rewritten) { edits.append(.replace(index, try element(index))) }
        if oldCount > plan.newCount {
            for index in stride(from: oldCount - 1, through: plan.newCount, by: -1) { edits.append(.remove(index)) }
        } else if plan.newCount > oldCount {
            for index in oldCount..<plan.newCount { edits.append(.append(try element(index))) }
        }
        return edits
    }
}

struct _DiffEncoder: Encoder {
    let node: _DiffNode
    let previous: _DiffNode?
    let context: _DiffContext

    init(node: _DiffNode, previous: _DiffNode?, context: _DiffContext) {
        self.node = node
        self.previous = previous
        self.context = context
    }

    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind == .unset {
            node.kind = .object
            node.sortsKeys = Key.self == _DictionaryKeyType.type
        }
        return KeyedEncodingContainer(_DiffKeyed<Key>(node: node, previous: previous?.kind == .object ? previous : nil, context: context))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        if node.kind == .unset { node.kind = .array }
        return _DiffUnkeyed(node: node, previous: previous?.kind == .array ? previous : nil, context: context)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        _DiffUnkeyed(node: node, previous: previous, context: context, single: true)
    }
}

struct _DiffKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: _DiffNode
    let previous: _DiffNode?
    let context: _DiffContext
    var codingPath: [CodingKey] { [] }

    private func previousMember(_ key: String) -> _DiffNode? {
        previous?.member(key, hint: node.keys.count)
    }

    private mutating func scalar(_ key: Key, _ write: (inout _ByteBuffer) throws -> Void) throws {
        let name = key.stringValue
        node.appendChild(name, try context.scalar(previous: previousMember(name), write))
    }

    mutating func encodeNil(forKey key: Key) throws { try scalar(key) { $0.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try scalar(key) { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String, forKey key: Key) throws { try scalar(key) { JSONWriter.writeString(value, into: &$0) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try scalar(key) { try _writeDouble(value, &$0) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try scalar(key) { try _writeFloat(value, &$0) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try scalar(key) { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try scalar(key) { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try scalar(key) { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try scalar(key) { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try scalar(key) { $0.appendInt(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try scalar(key) { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try scalar(key) { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try scalar(key) { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try scalar(key) { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try scalar(key) { $0.appendDecimal(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let name = key.stringValue
        node.appendChild(name, try context.visit(value, previous: previousMember(name)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let name = key.stringValue
        let child = _DiffNode()
        let previousChild = previousMember(name)
        node.appendChild(name, child)
        return _DiffEncoder(node: child, previous: previousChild, context: context).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let name = key.stringValue
        let child = _DiffNode()
        let previousChild = previousMember(name)
        node.appendChild(name, child)
        return _DiffEncoder(node: child, previous: previousChild, context: context).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { context.unsupportedEncoder() }
    mutating func superEncoder(forKey key: Key) -> Encoder { context.unsupportedEncoder() }
}

/// The elements of an array node, or (`single`) the one value of `node` itself.
struct _DiffUnkeyed: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let node: _DiffNode
    let previous: _DiffNode?
    let context: _DiffContext
    var single = false
    var codingPath: [CodingKey] { [] }
    var count: Int { node.children.count }

    private var previousElement: _DiffNode? {
        guard let previous, node.children.count < previous.children.count else { return nil }
        return previous.children[node.children.count]
    }

    private mutating func scalar(_ write: (inout _ByteBuffer) throws -> Void) throws {
        guard single else { return node.appendChild(nil, try context.scalar(previous: previousElement, write)) }
        node.kind = .scalar
        node.bytes = try context.written(write)
    }

    mutating func encodeNil() throws { try scalar { $0.append("null") } }
    mutating func encode(_ value: Bool) throws { try scalar { $0.append(value ? "true" : "false") } }
    mutating func encode(_ value: String) throws { try scalar { JSONWriter.writeString(value, into: &$0) } }
    mutating func encode(_ value: Double) throws { try scalar { try _writeDouble(value, &$0) } }
    mutating func encode(_ value: Float) throws { try scalar { try _writeFloat(value, &$0) } }
    mutating func encode(_ value: Int) throws { try scalar { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int8) throws { try scalar { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int16) throws { try scalar { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int32) throws { try scalar { $0.appendInt(Int64(value)) } }
    mutating func encode(_ value: Int64) throws { try scalar { $0.appendInt(value) } }
    mutating func encode(_ value: UInt) throws { try scalar { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt8) throws { try scalar { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt16) throws { try scalar { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt32) throws { try scalar { $0.appendDecimal(UInt64(value)) } }
    mutating func encode(_ value: UInt64) throws { try scalar { $0.appendDecimal(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard single else { return node.appendChild(nil, try context.visit(value, previous: previousElement)) }
        // A wrapper that encodes as its inner value: the inner value's shadow is this node's.
        let inner = try context.visit(value, previous: previous)
        node.kind = inner.kind
        node.bytes = inner.bytes
        node.keys = inner.keys
        node.children = inner.children
        node.containsTracked = inner.containsTracked
        node.sortsKeys = inner.sortsKeys
        node.branch = inner.branch
        node.generation = inner.generation
        node.count = inner.count
        node.fullBytes = inner.fullBytes
        node.edits = inner.edits
        if inner.fullBytes != nil || !inner.edits.isEmpty { context.track(node) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = _DiffNode()
        let previousChild = previousElement
        node.appendChild(nil, child)
        return _DiffEncoder(node: child, previous: previousChild, context: context).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let child = _DiffNode()
        let previousChild = previousElement
        node.appendChild(nil, child)
        return _DiffEncoder(node: child, previous: previousChild, context: context).unkeyedContainer()
    }

    mutating func superEncoder() -> Encoder { context.unsupportedEncoder() }
}

extension _DiffContext {
    /// An encoder for the parts the shadow cannot follow; marks the diff unsupported.
    func unsupportedEncoder() -> Encoder {
        unsupported = true
        return _DiffEncoder(node: _DiffNode(), previous: nil, context: _DiffContext(needFullBytes: false))
    }

}

private func _writeDouble(_ value: Double, _ out: inout _ByteBuffer) throws {
    guard value.isFinite else { throw JSONError.schema("$", "cannot encode the non-finite number \(value)") }
    out.appendDouble(value)
}

private func _writeFloat(_ value: Float, _ out: inout _ByteBuffer) throws {
    guard value.isFinite else { throw JSONError.schema("$", "cannot encode the non-finite number \(value)") }
    out.appendFloat(value)
}

// MARK: - Writing the patch

/// Compares two shadows and writes the operations between them.
struct _PatchWriter {
    private enum Component {
        case key(String)
        case index(Int)
        case end
    }

    /// The caller's buffer, lent from `init` to `finish`.
    private var out: _ByteBuffer
    private var first = true
    /// Where the comparison is; rendered as a JSON Pointer only when an operation is written.
    private var path: [Component] = []
    /// The pointer being rendered, before it is written as a JSON string.
    private var pointer = _ByteBuffer(capacity: 64)

    /// Starts a patch after the bytes of `buffer` (taken back with `finish`).
    init(appendingTo buffer: _ByteBuffer) {
        out = buffer
        out.append(UInt8(ascii: "["))
    }

    /// Ends the patch and hands back the buffer (which may have moved).
    mutating func finish() -> _ByteBuffer {
        pointer.release()
        out.append(UInt8(ascii: "]"))
        return out
    }

    mutating func diff(_ old: _DiffNode?, _ new: _DiffNode) {
        guard let old else {
            operation("replace") { new.write(into: &$0) }
            return
        }
        compare(old, new)
    }

    private mutating func compare(_ old: _DiffNode, _ new: _DiffNode) {
        if old === new { return }
        let oldKind = old.kind == .unset ? .object : old.kind
        let newKind = new.kind == .unset ? .object : new.kind
        guard oldKind == newKind else {
            operation("replace") { new.write(into: &$0) }
            return
        }
        switch newKind {
        case .scalar:
            if old.bytes != new.bytes { operation("replace") { new.write(into: &$0) } }
        case .object, .unset:
            compareObjects(old, new)
        case .array:
            let common = min(old.children.count, new.children.count)
            for index in 0..<common where old.children[index] !== new.children[index] {
                path.append(.index(index))
                compare(old.children[index], new.children[index])
                path.removeLast()
            }
            if old.children.count > new.children.count {
                for index in stride(from: old.children.count - 1, through: common, by: -1) {
                    path.append(.index(index))
                    remove()
                    path.removeLast()
                }
            } else {
                for index in common..<new.children.count {
                    path.append(.end)
                    operation("add") { new.children[index].write(into: &$0) }
                    path.removeLast()
                }
            }
        case .tracked:
            if let full = new.fullBytes {
                operation("replace") { $0.append(full) }
                return
            }
            for edit in new.edits {
                switch edit {
                case .replace(let index, let bytes):
                    path.append(.index(index))
                    operation("replace") { $0.append(bytes) }
                case .remove(let index):
                    path.append(.index(index))
                    remove()
                case .append(let bytes):
                    path.append(.end)
                    operation("add") { $0.append(bytes) }
                }
                path.removeLast()
            }
        }
    }

    private mutating func compareObjects(_ old: _DiffNode, _ new: _DiffNode) {
        // Objects are usually small (a struct's fields): a linear search, tried first where
        // the member usually is, beats hashing. Large ones (dictionaries) get a table.
        let small = old.keys.count <= 32 && new.keys.count <= 32
        var oldTable: [String: Int] = [:]
        if !small { for (index, name) in old.keys.enumerated() { oldTable[name] = index } }
        func oldIndex(_ key: String, hint: Int) -> Int? {
            if hint < old.keys.count, old.keys[hint] == key { return hint }
            return small ? old.keys.firstIndex(of: key) : oldTable[key]
        }
        var matched = 0
        for index in new.keys.indices {
            let key = new.keys[index]
            if let found = oldIndex(key, hint: index) {
                matched += 1
                if old.children[found] === new.children[index] { continue }
                path.append(.key(key))
                compare(old.children[found], new.children[index])
            } else {
                path.append(.key(key))
                operation("add") { new.children[index].write(into: &$0) }
            }
            path.removeLast()
        }
        guard matched < old.keys.count else { return }
        var newTable = Set<String>()
        if !small { for key in new.keys { newTable.insert(key) } }
        for (index, key) in old.keys.enumerated() {
            let present = index < new.keys.count && new.keys[index] == key
                || (small ? new.keys.contains(key) : newTable.contains(key))
            if present { continue }
            path.append(.key(key))
            remove()
            path.removeLast()
        }
    }

    /// Writes the current path as a JSON string holding a JSON Pointer (RFC 6901).
    private mutating func writePointer() {
        pointer.truncate(to: 0)
        for component in path {
            switch component {
            case .key(var key):
                key.withUTF8 { pointer.appendPointerToken(utf8: $0) }
            case .index(let index):
                pointer.append(UInt8(ascii: "/"))
                pointer.appendDecimal(UInt64(index))
            case .end:
                pointer.append("/-")
            }
        }
        out.appendJSONString(utf8: pointer.buffer)
    }

    private mutating func begin(_ op: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(#"{"op":""#)
        out.append(op)
        out.append(#"","path":"#)
        writePointer()
    }

    /// Writes a `remove` of the current path.
    private mutating func remove() {
        begin("remove")
        out.append(UInt8(ascii: "}"))
    }

    /// Writes an `add` or `replace` of the current path with the value `write` appends.
    private mutating func operation(_ op: StaticString, _ write: (inout _ByteBuffer) -> Void) {
        begin(op)
        out.append(#","value":"#)
        write(&out)
        out.append(UInt8(ascii: "}"))
    }
}
