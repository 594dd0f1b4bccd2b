#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A struct whose patch (`docs/performance.md`, "Incremental output") is computed field by
/// field from its typed values, without writing either of them as JSON.
///
/// Generated beside the direct JSON conformances (`python -m corelogic.typegen FEATURE
/// --lang swift`): `writePatch` compares each stored property with the same one of the
/// last state, in declaration order, through the `JSONPatchOutput.field` overload for its
/// type; `patchShadow` is the copy of a state the differ keeps (its ``TrackedArray``s as
/// their place in their change history only, so that keeping it never makes the
/// reducer's next mutation copy a list).
///
/// The operations are exactly those the byte differ writes for the same two states (and
/// so the shadow tree's), in the same order: changed members in declaration order, an
/// optional that became nil removed after the object's other members. Where the
/// field-by-field walk does not apply (a value that cannot be written directly, a tracked
/// list inside an enum or a plain array), the differ hands that diff to the byte differ.
public protocol JSONPatchable: JSONDirectCodable {
    /// Writes the operations that turn `old` (a value returned by `patchShadow`) into `self`.
    func writePatch(from old: Self, to patch: JSONPatchOutput) throws
    /// The copy of `self` to compare the next state with; `old` is the last one, whose
    /// unchanged parts it may reuse.
    func patchShadow(reusing old: Self?) -> Self
}

/// Thrown when the field-by-field walk meets a tracked list it cannot follow (inside an
/// enum's payload or a plain array): the state is diffed by the byte differ from then on.
struct _TypedDiffUnsupported: Error {}

/// Where `JSONPatchable.writePatch` writes operations: the path to the member being
/// compared, the operations so far, and the members of each open object that became nil.
public final class JSONPatchOutput {
    // Unchecked exclusivity: one differ owns this, used under its system's lock, one call
    // at a time; nothing called from here reaches back into it.
    /// The buffer of the patch being written: the caller's, lent from `start` to `finish`
    /// (never freed here; until the first `start`, a byte of memory that is never written).
    @exclusivity(unchecked) var out = _ByteBuffer(borrowing: JSONPatchOutput.placeholder, capacity: 1)
    private static let placeholder = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    @exclusivity(unchecked) private var first = true
    /// The path, 3 integers per component: a key (0, its bytes' address, their count), an
    /// index (1, the index, 0) or the end of an array, `-` (2, 0, 0).
    @exclusivity(unchecked) private var path = _IntStack(capacity: 24)
    /// Members of the open objects that were present and are now nil, in declaration order.
    @exclusivity(unchecked) private var removed: [StaticString] = []
    /// The last and new JSON of a value compared by its bytes; kept for their capacity.
    @exclusivity(unchecked) private var oldBytes = _ByteBuffer(capacity: 64)
    @exclusivity(unchecked) private var newBytes = _ByteBuffer(capacity: 64)
    @exclusivity(unchecked) private var prefix = _ByteBuffer(capacity: 64)
    @exclusivity(unchecked) private var spans = _IntStack(capacity: 16)
    @exclusivity(unchecked) private var walkPath = _IntStack(capacity: 12)
    /// Meets the tracked lists of a value compared by its bytes (there are none to follow).
    private let collector = _TrackedArrayCollector()

    init() {}

    deinit {
        oldBytes.release()
        newBytes.release()
        prefix.release()
        path.release()
        spans.release()
        walkPath.release()
    }

    /// Starts a patch after the bytes of `buffer` (taken back with `finish`).
    func start(appendingTo buffer: _ByteBuffer) {
        // The path and the pending removals are empty: a patch ends with both empty, and
        // `abandon` empties them.
        out = buffer
        first = true
        out.append(UInt8(ascii: "["))
    }

    /// Ends the patch and hands back the buffer (which may have moved).
    func finish() -> _ByteBuffer {
        out.append(UInt8(ascii: "]"))
        // `out` is not the owner's any more; the next `start` replaces it unread.
        return out
    }

    /// Hands back the buffer after a failed patch, its bytes from `start` on forgotten.
    func abandon(truncatingTo start: Int) -> _ByteBuffer {
        path.truncate(to: 0)
        if !removed.isEmpty { removed.removeAll(keepingCapacity: true) }
        out.truncate(to: start)
        return out
    }

    // MARK: Objects

    /// Opens an object whose optional members may be removed (``remove(_:)``); pass what
    /// it returns to ``endObject(_:)``. An object without optional members needs neither.
    @inline(__always) public func beginObject() -> Int { removed.count }

    /// Writes the removals of the members that became nil since `beginObject` returned `mark`.
    @inline(__always) public func endObject(_ mark: Int) {
        if removed.count == mark { return }
        for index in mark..<removed.count {
            push(removed[index])
            begin(#"{"op":"remove","path":""#, then: #""}"#)
            pop()
        }
        removed.removeSubrange(mark...)
    }

    /// A member that was present and is now nil: removed once the object's other members
    /// are written.
    public func remove(_ name: StaticString) { removed.append(name) }

    /// A member that was nil and is now present.
    public func add<T: JSONDirectCodable>(_ name: StaticString, _ value: T) throws {
        push(name)
        defer { pop() }
        begin(#"{"op":"add","path":""#, then: #"","value":"#)
        try writeValue(value)
    }

    // MARK: Fields

    @inline(__always) public func field(_ name: StaticString, _ old: Int, _ new: Int) throws {
        try field(name, Int64(old), Int64(new))
    }

    public func field(_ name: StaticString, _ old: Int64, _ new: Int64) throws {
        if old == new { return }
        push(name)
        begin(#"{"op":"replace","path":""#, then: #"","value":"#)
        // Most counts are small: their digits without a division loop.
        if new >= 0 {
            out.appendDecimal(UInt64(new))
        } else {
            out.appendInt(new)
        }
        out.append(UInt8(ascii: "}"))
        pop()
    }

    public func field<I: FixedWidthInteger & JSONDirectCodable>(_ name: StaticString, _ old: I, _ new: I) throws {
        if old == new { return }
        push(name)
        defer { pop() }
        begin(#"{"op":"replace","path":""#, then: #"","value":"#)
        try writeValue(new)
    }

    public func field(_ name: StaticString, _ old: Bool, _ new: Bool) throws {
        if old == new { return }
        replace(name) { $0.append(new ? "true" : "false") }
    }

    /// Compared by bits: two finite doubles with the same JSON have the same bits (`0.0`
    /// and `-0.0` are written differently).
    public func field(_ name: StaticString, _ old: Double, _ new: Double) throws {
        if old.bitPattern == new.bitPattern && new.isFinite { return }
        guard new.isFinite else { throw _DirectMismatch() }
        replace(name) { $0.appendDouble(new) }
    }

    /// Compared by UTF-8 bytes, as hosts compare strings (not by canonical equivalence).
    public func field(_ name: StaticString, _ old: String, _ new: String) throws {
        if JSONIdentity.bitwiseIdentical(old, new) || old.utf8.elementsEqual(new.utf8) { return }
        replace(name) { JSONWriter.writeString(new, into: &$0) }
    }

    /// A struct with a generated patch: compared field by field, unless it is the very
    /// same value.
    public func field<T: JSONPatchable>(_ name: StaticString, _ old: T, _ new: T) throws {
        if JSONIdentity.bitwiseIdentical(old, new) { return }
        push(name)
        defer { pop() }
        try new.writePatch(from: old, to: self)
    }

    /// A tracked list: its edits since the last state, from its change history.
    public func field<E: JSONDirectCodable>(_ name: StaticString, _ old: TrackedArray<E>, _ new: TrackedArray<E>) throws {
        let seen = _TrackedMark(branch: old._branch, generation: old._generation, count: old._markCount)
        let now = _TrackedMark(branch: new._branch, generation: new._generation, count: new.count)
        if now.sameContents(as: seen) { return }
        push(name)
        defer { pop() }
        if let changes = new._changes(since: seen.generation, of: seen.branch),
           try writeEdits(new, from: seen.count, changes) {
            return
        }
        begin(#"{"op":"replace","path":""#, then: #"","value":"#)
        try new._writeAll(into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Any other value (an enum, a plain array, a raw-value type): the same value when its
    /// bits are those of the last one; otherwise both are written and their bytes compared
    /// as the byte differ compares them.
    public func field<T: JSONDirectCodable>(_ name: StaticString, _ old: T, _ new: T) throws {
        if JSONIdentity.bitwiseIdentical(old, new) { return }
        try write(old, into: &oldBytes)
        try write(new, into: &newBytes)
        if oldBytes.count == newBytes.count && memcmp(oldBytes.base, newBytes.base, oldBytes.count) == 0 { return }
        push(name)
        defer { pop() }
        prefix.truncate(to: 0)
        writePath(into: &prefix)
        var walk = _SpanWalk(old: oldBytes.buffer, new: newBytes.buffer, oldMarks: [], tracked: collector,
                             changed: UnsafeBufferPointer(start: nil, count: 0), spans: spans, path: walkPath, out: out,
                             prefix: prefix.buffer, first: first)
        var failure: Error?
        do {
            try walk.compare(0, oldBytes.count, 0, newBytes.count)
        } catch {
            failure = error
        }
        // Handed back whatever happened: they may have moved to bigger memory.
        out = walk.out
        spans = walk.spans
        walkPath = walk.path
        first = walk.first
        if let failure { throw failure }
    }

    // MARK: Shadows

    /// Replaces a member of a shadow (a copy of the new state) with what the differ keeps
    /// of it; a value that cannot hold a tracked list stays as it is.
    @inline(__always) public static func shadow<T>(_ value: inout T, _ old: T?) {}

    @inline(__always) public static func shadow<T: JSONPatchable>(_ value: inout T, _ old: T?) {
        value = value.patchShadow(reusing: old)
    }

    @inline(__always) public static func shadow<T: JSONPatchable>(_ value: inout T?, _ old: T??) {
        if let present = value { value = present.patchShadow(reusing: old ?? nil) }
    }

    @inline(__always) public static func shadow<E>(_ value: inout TrackedArray<E>, _ old: TrackedArray<E>?) {
        value = value._patchShadow(reusing: old)
    }

    // MARK: Writing

    private func write<T: JSONDirectCodable>(_ value: T, into buffer: inout _ByteBuffer) throws {
        buffer.truncate(to: 0)
        collector.begin()
        var failure: Error?
        do {
            try JSONOutput.write(into: &buffer, context: Unmanaged.passUnretained(collector).toOpaque()) {
                try value.writeJSON(to: &$0)
            }
        } catch {
            failure = error
        }
        let metTracked = !collector.marks.isEmpty
        collector.releaseArrays()
        if metTracked { throw _TypedDiffUnsupported() }
        if let failure { throw failure }
    }

    @inline(__always) private func push(_ name: StaticString) {
        path.push(0, Int(bitPattern: name.utf8Start), name.utf8CodeUnitCount)
    }

    /// An index, or -1 for the end of an array.
    @inline(__always) private func push(index: Int) {
        path.push(index < 0 ? 2 : 1, index, 0)
    }

    @inline(__always) private func pop() {
        path.truncate(to: path.count - 3)
    }

    @inline(__always) private func replace(_ name: StaticString, _ write: (inout _ByteBuffer) -> Void) {
        push(name)
        begin(#"{"op":"replace","path":""#, then: #"","value":"#)
        write(&out)
        out.append(UInt8(ascii: "}"))
        pop()
    }

    /// The value and `}`.
    private func writeValue<T: JSONDirectCodable>(_ value: T) throws {
        try JSONOutput.write(into: &out) { try value.writeJSON(to: &$0) }
        out.append(UInt8(ascii: "}"))
    }

    /// Starts an operation: `opening` is `{"op":"<name>","path":"`, then the path, then
    /// `then`: the end of the path's string and what follows it (`","value":`, `"}`).
    @inline(__always) private func begin(_ opening: StaticString, then: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        literal(opening)
        writePath(into: &out)
        literal(then)
    }

    /// The JSON Pointer (RFC 6901) of the current member, as the inside of a JSON string.
    /// Keys are generated from Swift names: nothing in them needs escaping for JSON.
    @inline(__always) private func writePath(into buffer: inout _ByteBuffer) {
        // A member of the state itself, the most frequent path, in line; deeper ones below.
        if path.count == 3 && path[0] == 0 {
            buffer.appendPointerToken(utf8: UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: path[1]), count: path[2]))
        } else {
            writeDeepPath(into: &buffer)
        }
    }

    private func writeDeepPath(into buffer: inout _ByteBuffer) {
        var k = 0
        while k < path.count {
            switch path[k] {
            case 0:
                buffer.appendPointerToken(utf8: UnsafeBufferPointer(start: UnsafePointer<UInt8>(bitPattern: path[k + 1]), count: path[k + 2]))
            case 1:
                buffer.append(UInt8(ascii: "/"))
                buffer.appendDecimal(UInt64(path[k + 1]))
            default:
                buffer.append(UInt8(ascii: "/"))
                buffer.append(UInt8(ascii: "-"))
            }
            k += 3
        }
    }

    @inline(__always) private func literal(_ text: StaticString) {
        out.appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// As the byte differ's edits of a tracked list; false (nothing written) when
    /// replacing the whole list is shorter.
    private func writeEdits(_ array: any _ChangeTrackedArray, from oldCount: Int,
                            _ changes: ArraySlice<_ArrayChange>) throws -> Bool {
        if changes.isEmpty { return true }
        guard let plan = _ArrayEditPlan(oldCount: oldCount, newCount: array.count, changes: changes) else { return false }
        func element(_ op: StaticString, _ index: Int, at position: Int) throws {
            push(index: position)
            defer { pop() }
            begin(op, then: #"","value":"#)
            try array._writeElement(at: index, into: &out)
            out.append(UInt8(ascii: "}"))
        }
        for index in plan.assigned { try element(#"{"op":"replace","path":""#, index, at: index) }
        for index in plan.kept..<(plan.kept + plan.rewritten) { try element(#"{"op":"replace","path":""#, index, at: index) }
        if oldCount > plan.newCount {
            for index in stride(from: oldCount - 1, through: plan.newCount, by: -1) {
                push(index: index)
                begin(#"{"op":"remove","path":""#, then: #""}"#)
                pop()
            }
        } else if plan.newCount > oldCount {
            for index in oldCount..<plan.newCount { try element(#"{"op":"add","path":""#, index, at: -1) }
        }
        return true
    }
}

/// The differ of a state with a generated patch (``JSONPatchable``): it keeps the last
/// state as a typed value (its shadow) and compares the new one with it field by field,
/// writing nothing but the operations.
final class _TypedDiffer<State> {
    private let writePatch: (UnsafePointer<State>, UnsafePointer<State>, JSONPatchOutput) throws -> Void
    private let makeShadow: (UnsafePointer<State>, UnsafePointer<State>?) -> State
    /// The shadow of the last state emitted, once `reset` gave one: kept in memory of its
    /// own, so that reading it is not a copy (a retain per reference in the state).
    private let slot = UnsafeMutablePointer<State>.allocate(capacity: 1)
    // Unchecked exclusivity: used by one system under its lock, one call at a time.
    @exclusivity(unchecked) private(set) var hasLast = false
    private let patch = JSONPatchOutput()

    /// The shadow of the last state; only once `hasLast`.
    var last: State { slot.pointee }

    deinit {
        if hasLast { slot.deinitialize(count: 1) }
        slot.deallocate()
    }

    private init(writePatch: @escaping (UnsafePointer<State>, UnsafePointer<State>, JSONPatchOutput) throws -> Void,
                 makeShadow: @escaping (UnsafePointer<State>, UnsafePointer<State>?) -> State) {
        self.writePatch = writePatch
        self.makeShadow = makeShadow
    }

    /// A differ for `State`, or nil when it has no generated patch.
    static func make() -> _TypedDiffer<State>? {
        guard let typed = State.self as? any JSONPatchable.Type else { return nil }
        return make(typed)
    }

    private static func make<P: JSONPatchable>(_: P.Type) -> _TypedDiffer<State> {
        _TypedDiffer(
            writePatch: { old, new, patch in
                let n = UnsafeRawPointer(new).assumingMemoryBound(to: P.self)
                try n.pointee.writePatch(from: UnsafeRawPointer(old).assumingMemoryBound(to: P.self).pointee, to: patch)
            },
            makeShadow: { new, old in
                let n = UnsafeRawPointer(new).assumingMemoryBound(to: P.self)
                let shadow = n.pointee.patchShadow(reusing: old.map { UnsafeRawPointer($0).assumingMemoryBound(to: P.self).pointee })
                return unsafeBitCast(shadow, to: State.self)
            })
    }

    /// Starts over from `state`.
    func reset(to state: State) {
        let shadow = withUnsafePointer(to: state) { makeShadow($0, nil) }
        if hasLast { slot.pointee = shadow } else { slot.initialize(to: shadow) }
        hasLast = true
    }

    /// Makes `state` the last one without a patch (another differ wrote it).
    func advance(to state: State) {
        // A plain value (no reference, so no tracked list) is its own shadow.
        if _isPOD(State.self) {
            slot.pointee = state
            return
        }
        slot.pointee = withUnsafePointer(to: state) { makeShadow($0, slot) }
    }

    /// Appends the patch from the last state to `state` to `out` and makes `state` the
    /// last one. On error nothing is appended and the last state stays: the caller hands
    /// this diff to the byte differ, which writes the same patch or reports the error
    /// (``_TypedDiffUnsupported``: every diff from then on). Only once `hasLast`.
    @inline(__always) func diff(to state: State, into out: inout _ByteBuffer) throws {
        let start = out.count
        patch.start(appendingTo: out)
        do {
            try withUnsafePointer(to: state) { try writePatch(slot, $0, patch) }
        } catch {
            out = patch.abandon(truncatingTo: start)
            throw error
        }
        out = patch.finish()
        advance(to: state)
    }
}
