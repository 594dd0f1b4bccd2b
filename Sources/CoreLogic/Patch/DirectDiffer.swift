#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif

/// The differ of a state with a direct JSON conformance (`JSONDirectCodable`): it keeps
/// the bytes of the last state emitted, not a tree, and compares spans of bytes.
///
/// A step writes the new state with its generated `writeJSON` into a second buffer that
/// lives as long as the differ (no allocation once it has grown), in which every
/// ``TrackedArray`` is a 5-byte reference (0x01 and its index in `tracked`) instead of its
/// elements: so the bytes are the state's size without its tracked lists, and a list of
/// any length costs what changed in it. When the bytes are those of the last state and no
/// tracked list changed, the patch is `[]` after one `memcmp`. Otherwise both are walked
/// together, and only where their bytes differ: objects member by member, arrays element
/// by element, a tracked list by its change history; the operations are the ones the
/// tree differ (``StateDiffer``'s `Codable` path) writes, in the same order, written
/// straight into the batch.
///
/// A plain array is part of the bytes: an untouched one costs its encoding and a
/// comparison of its bytes on every step (use ``TrackedArray`` for long lists).
final class _DirectDiffer<State> {
    /// Writes a state into the buffer, tracked lists as references; false when its
    /// `writeJSON` declined (nothing usable was written).
    private let write: (UnsafePointer<State>, inout _ByteBuffer, _TrackedArrayCollector) -> Bool
    // Unchecked exclusivity: a differ is used by one system under its lock (or by one
    // trace recorder, under the same lock), one call at a time, and no access to these
    // overlaps another: the runtime checks would protect nothing.
    /// The last state emitted, and the one being compared with it.
    @exclusivity(unchecked) private var previous = _ByteBuffer(capacity: 64)
    @exclusivity(unchecked) private var current = _ByteBuffer(capacity: 64)
    /// The tracked lists of `previous`: where each one's history was.
    @exclusivity(unchecked) private var previousMarks: [_TrackedMark] = []
    private let tracked = _TrackedArrayCollector()
    /// Offsets in `current` of the references to tracked lists that changed.
    @exclusivity(unchecked) private var changed = _IntStack(capacity: 4)
    /// Spans of members and elements during a walk; kept for its capacity.
    @exclusivity(unchecked) private var spans = _IntStack(capacity: 32)
    /// Where the walk is, 3 integers per component; kept for its capacity.
    @exclusivity(unchecked) private var path = _IntStack(capacity: 24)

    private init(write: @escaping (UnsafePointer<State>, inout _ByteBuffer, _TrackedArrayCollector) -> Bool) {
        self.write = write
    }

    deinit {
        previous.release()
        current.release()
        changed.release()
        spans.release()
        path.release()
    }

    #if !hasFeature(Embedded)
    /// A differ for `State`, or nil when it has no direct conformance.
    static func make() -> _DirectDiffer<State>? {
        guard let direct = State.self as? any JSONDirectCodable.Type else { return nil }
        return make(direct)
    }

    private static func make<D: JSONDirectCodable>(_: D.Type) -> _DirectDiffer<State> {
        _DirectDiffer { state, buffer, collector in
            do {
                try JSONOutput.write(into: &buffer, context: Unmanaged.passUnretained(collector).toOpaque()) {
                    try UnsafeRawPointer(state).assumingMemoryBound(to: D.self).pointee.writeJSON(to: &$0)
                }
                return true
            } catch {
                return false
            }
        }
    }
    #else
    /// A differ for `State`: in the WebAssembly build every state writes its own JSON.
    static func make() -> _DirectDiffer<State> where State: Encodable {
        _DirectDiffer { state, buffer, collector in
            do throws(JSONFailure) {
                try JSONOutput.write(into: &buffer, context: Unmanaged.passUnretained(collector).toOpaque()) {
                    (out) throws(JSONFailure) in try state.pointee.writeJSON(to: &out)
                }
                return true
            } catch {
                return false
            }
        }
    }
    #endif

    /// Starts over from `state`; false (and nothing changed) when its `writeJSON` declined.
    func reset(to state: State) -> Bool {
        guard encode(state) else { return false }
        swap(&previous, &current)
        swap(&previousMarks, &tracked.marks)
        tracked.releaseArrays()
        return true
    }

    /// Appends the patch from the last state to `state` to `out`, and makes `state` the
    /// last one. False when its `writeJSON` declined: nothing is appended and nothing
    /// changes. Throws when an element of a tracked list cannot be written (a non-finite
    /// number): nothing is appended and the last state stays the one before.
    func diff(to state: State, into out: inout _ByteBuffer) throws(JSONFailure) -> Bool {
        guard encode(state) else { return false }
        defer { tracked.releaseArrays() }
        changed.truncate(to: 0)
        if !tracked.marks.isEmpty {
            for index in tracked.marks.indices
            where index >= previousMarks.count || !tracked.marks[index].sameContents(as: previousMarks[index]) {
                changed.push(tracked.offsets[index])
            }
        }
        let start = out.count
        out.append(UInt8(ascii: "["))
        if changed.count > 0 || previous.count != current.count || memcmp(previous.base, current.base, current.count) != 0 {
            var walk = _SpanWalk(old: previous.buffer, new: current.buffer, oldMarks: previousMarks, tracked: tracked,
                                 changed: UnsafeBufferPointer(start: changed.base, count: changed.count),
                                 spans: spans, path: path, out: out)
            var failure: JSONFailure?
            do {
                try walk.compare(0, previous.count, 0, current.count)
            } catch {
                failure = error
            }
            // Handed back whatever happened: they may have moved to bigger memory.
            out = walk.out
            spans = walk.spans
            path = walk.path
            if let failure {
                out.truncate(to: start)
                throw failure
            }
        }
        out.append(UInt8(ascii: "]"))
        swap(&previous, &current)
        if !tracked.marks.isEmpty || !previousMarks.isEmpty { swap(&previousMarks, &tracked.marks) }
        return true
    }

    private func encode(_ state: State) -> Bool {
        current.truncate(to: 0)
        tracked.begin()
        let written = withUnsafePointer(to: state) { write($0, &current, tracked) }
        if !written { tracked.releaseArrays() }
        return written
    }
}

/// Where a tracked list's history was when its state was written.
struct _TrackedMark {
    var branch: UInt64
    var generation: UInt64
    var count: Int

    /// True when the list cannot have changed: the same point of the same history, or
    /// empty both times (a new empty list is not a change).
    @inline(__always) func sameContents(as other: _TrackedMark) -> Bool {
        (branch == other.branch && generation == other.generation) || (count == 0 && other.count == 0)
    }
}

/// The tracked lists met while a state is written for the differ: each one is written as
/// 0x01 and its index (4 bytes, little-endian) in the order met.
final class _TrackedArrayCollector {
    /// The lists, held only while one diff runs (holding one longer would make the
    /// reducer's next mutation copy it).
    @exclusivity(unchecked) var arrays: [_AnyChangeTrackedArray] = []
    @exclusivity(unchecked) var marks: [_TrackedMark] = []
    /// Where each reference is in the bytes.
    @exclusivity(unchecked) var offsets: [Int] = []

    static let referenceSize = 5

    @inline(__always) func begin() {
        // Each on its own: after a diff `marks` holds the marks of the state before (swapped
        // with the differ's), which may be fewer than the offsets of the last one written.
        if !marks.isEmpty { marks.removeAll(keepingCapacity: true) }
        if !offsets.isEmpty { offsets.removeAll(keepingCapacity: true) }
    }

    @inline(__always) func releaseArrays() {
        if !arrays.isEmpty { arrays.removeAll(keepingCapacity: true) }
    }

    func record<A: _ChangeTrackedArray>(_ array: A, into out: inout JSONOutput) {
        out.beforeValue()
        let index = UInt32(truncatingIfNeeded: arrays.count)
        arrays.append(_anyChangeTrackedArray(array))
        marks.append(_TrackedMark(branch: array._branch, generation: array._generation, count: array._markCount))
        offsets.append(out.buf.count)
        out.buf.append(0x01)
        out.buf.append(UInt8(truncatingIfNeeded: index))
        out.buf.append(UInt8(truncatingIfNeeded: index >> 8))
        out.buf.append(UInt8(truncatingIfNeeded: index >> 16))
        out.buf.append(UInt8(truncatingIfNeeded: index >> 24))
        out.state = 1
    }
}

/// A stack of integers in memory of its own (no array's reference counting or
/// uniqueness checks on the hot path); the owner calls ``release()``.
struct _IntStack {
    private(set) var base: UnsafeMutablePointer<Int>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
    }

    @inline(__always) subscript(index: Int) -> Int { base[index] }

    @inline(__always) mutating func push(_ value: Int) {
        if count == capacity { grow() }
        base[count] = value
        count &+= 1
    }

    /// Pushes three values with one capacity check.
    @inline(__always) mutating func push(_ a: Int, _ b: Int, _ c: Int) {
        if count &+ 3 > capacity { grow() }
        base[count] = a
        base[count &+ 1] = b
        base[count &+ 2] = c
        count &+= 3
    }

    @inline(__always) mutating func truncate(to n: Int) { count = n }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<Int>.allocate(capacity: capacity * 2)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    func release() { base.deallocate() }
}

/// One comparison of the bytes of the last state with the new ones, writing operations.
/// The field-by-field differ (``JSONPatchOutput``) uses it for a member compared by its
/// bytes, with that member's path as `prefix` of every path it writes.
struct _SpanWalk {
    let old: UnsafeBufferPointer<UInt8>
    let new: UnsafeBufferPointer<UInt8>
    let oldMarks: [_TrackedMark]
    unowned(unsafe) let tracked: _TrackedArrayCollector
    /// Offsets in `new` of the references to tracked lists that changed.
    let changed: UnsafeBufferPointer<Int>
    var spans: _IntStack
    var path: _IntStack
    var out: _ByteBuffer
    /// The JSON Pointer every path starts with, as the inside of a JSON string.
    let prefix: UnsafeBufferPointer<UInt8>
    var first: Bool

    // Path components: (kind, a, b). Keys are byte spans of a buffer, without quotes.
    private static let newKey = 0, oldKey = 1, index = 2, end = 3

    init(old: UnsafeBufferPointer<UInt8>, new: UnsafeBufferPointer<UInt8>, oldMarks: [_TrackedMark],
         tracked: _TrackedArrayCollector, changed: UnsafeBufferPointer<Int>, spans: _IntStack, path: _IntStack, out: _ByteBuffer,
         prefix: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), first: Bool = true) {
        self.old = old
        self.prefix = prefix
        self.first = first
        self.new = new
        self.oldMarks = oldMarks
        self.tracked = tracked
        self.changed = changed
        self.spans = spans
        self.path = path
        self.out = out
        self.spans.truncate(to: 0)
        self.path.truncate(to: 0)
    }

    // MARK: Scanning compact JSON (as the writers write it: no whitespace)

    /// The end of the string that starts at `from` (after its closing quote).
    @inline(__always) private static func skipString(_ b: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        let base = b.baseAddress!
        var i = from + 1
        while true {
            // The next quote; it ends the string unless an odd number of backslashes
            // precede it.
            let at = UnsafeRawPointer(base).distance(to: memchr(base + i, 0x22, b.count - i)!)
            var backslashes = 0
            while b[at - 1 - backslashes] == 0x5C { backslashes += 1 }
            if backslashes & 1 == 0 { return at + 1 }
            i = at + 1
        }
    }

    /// The end of the value that starts at `from`; `limit` ends a top-level scalar.
    private static func skipValue(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ limit: Int) -> Int {
        switch b[from] {
        case 0x22: return skipString(b, from)
        case 0x01: return from + _TrackedArrayCollector.referenceSize
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = from
            while true {
                let c = b[i]
                switch c {
                case 0x22: i = skipString(b, i); continue
                case 0x01: i += _TrackedArrayCollector.referenceSize; continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
        default:
            var i = from
            while i < limit {
                let c = b[i]
                if c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") { break }
                i += 1
            }
            return i
        }
    }

    /// Pushes (key start, key end, value start, value end) per member of an object from
    /// `from` (the start of a member, or the comma or `}` before it) to its end (keys
    /// without their quotes); returns how many.
    private mutating func pushMembers(_ b: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        var count = 0
        while b[i] != UInt8(ascii: "}") {
            if b[i] == UInt8(ascii: ",") { i += 1 }
            let keyEnd = Self.skipString(b, i)
            let valueStart = keyEnd + 1
            let valueEnd = Self.skipValue(b, valueStart, b.count)
            spans.push(i + 1)
            spans.push(keyEnd - 1)
            spans.push(valueStart)
            spans.push(valueEnd)
            count += 1
            i = valueEnd
        }
        return count
    }

    /// Pushes (start, end) per element of the array at `from`; returns how many.
    private mutating func pushElements(_ b: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from + 1
        var count = 0
        while b[i] != UInt8(ascii: "]") {
            if b[i] == UInt8(ascii: ",") { i += 1 }
            let end = Self.skipValue(b, i, b.count)
            spans.push(i)
            spans.push(end)
            count += 1
            i = end
        }
        return count
    }

    @inline(__always) private static func reference(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        Int(b[at + 1]) | Int(b[at + 2]) << 8 | Int(b[at + 3]) << 16 | Int(b[at + 4]) << 24
    }

    /// Same bytes, and no changed tracked list among them: the same value.
    @inline(__always) private func same(_ os: Int, _ oe: Int, _ ns: Int, _ ne: Int) -> Bool {
        let n = ne - ns
        guard oe - os == n, Self.equal(old.baseAddress! + os, new.baseAddress! + ns, n) else { return false }
        for offset in changed where offset >= ns && offset < ne { return false }
        return true
    }

    @inline(__always) private static func sameKey(_ a: UnsafeBufferPointer<UInt8>, _ a0: Int, _ a1: Int,
                                                  _ b: UnsafeBufferPointer<UInt8>, _ b0: Int, _ b1: Int) -> Bool {
        a1 - a0 == b1 - b0 && equal(a.baseAddress! + a0, b.baseAddress! + b0, a1 - a0)
    }

    /// `memcmp(a, b, n) == 0`; short spans (keys, numbers) compared in place, cheaper than the call.
    @inline(__always) private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        if n > 16 { return memcmp(a, b, n) == 0 }
        var k = 0
        while k < n {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }

    // MARK: Comparing

    /// Writes the operations that turn the old value in `os..<oe` into the new one in `ns..<ne`.
    mutating func compare(_ os: Int, _ oe: Int, _ ns: Int, _ ne: Int) throws(JSONFailure) {
        if same(os, oe, ns, ne) { return }
        let o = old[os], n = new[ns]
        if o == UInt8(ascii: "{") && n == UInt8(ascii: "{") {
            try compareObjects(os, ns)
        } else if o == UInt8(ascii: "[") && n == UInt8(ascii: "[") {
            try compareArrays(os, ns)
        } else if o == 0x01 && n == 0x01 {
            try compareTracked(Self.reference(old, os), Self.reference(new, ns))
        } else {
            try replace(ns, ne)
        }
    }

    private mutating func compareObjects(_ os: Int, _ ns: Int) throws(JSONFailure) {
        // Usually both have the same keys in the same order (a struct's fields): walked in
        // step, keys compared in place. At the first difference in the keys, the members
        // from there on are listed and matched by key.
        var i = os + 1, j = ns + 1, index = 0
        while true {
            if old[i] == UInt8(ascii: ",") { i += 1 }
            if new[j] == UInt8(ascii: ",") { j += 1 }
            let oldEnds = old[i] == UInt8(ascii: "}"), newEnds = new[j] == UInt8(ascii: "}")
            if oldEnds && newEnds { return }
            if oldEnds || newEnds { break }
            let ok1 = Self.skipString(old, i) - 1
            let nk1 = Self.skipString(new, j) - 1
            guard Self.sameKey(old, i + 1, ok1, new, j + 1, nk1) else { break }
            let ov1 = Self.skipValue(old, ok1 + 2, old.count)
            let nv1 = Self.skipValue(new, nk1 + 2, new.count)
            if !same(ok1 + 2, ov1, nk1 + 2, nv1) {
                pushPath(Self.newKey, j + 1, nk1)
                try compare(ok1 + 2, ov1, nk1 + 2, nv1)
                popPath()
            }
            i = ov1
            j = nv1
            index += 1
        }
        try compareMembers(i, j)
    }

    /// The members of both objects from `os` and `ns` on (the members before them matched
    /// in step, so their keys are none of these) matched by key, then the old ones that
    /// are gone.
    private mutating func compareMembers(_ os: Int, _ ns: Int) throws(JSONFailure) {
        let base = spans.count
        let oldCount = pushMembers(old, os)
        let newBase = spans.count
        let newCount = pushMembers(new, ns)
        // Members: 4 integers each, old ones from `base`, new ones from `newBase`.
        func oldIndex(_ k0: Int, _ k1: Int, hint: Int) -> Int? {
            if hint < oldCount {
                let m = base + 4 * hint
                if Self.sameKey(old, spans[m], spans[m + 1], new, k0, k1) { return hint }
            }
            for j in 0..<oldCount {
                let m = base + 4 * j
                if Self.sameKey(old, spans[m], spans[m + 1], new, k0, k1) { return j }
            }
            return nil
        }
        var matched = 0
        for index in 0..<newCount {
            let m = newBase + 4 * index
            let k0 = spans[m], k1 = spans[m + 1], v0 = spans[m + 2], v1 = spans[m + 3]
            if let found = oldIndex(k0, k1, hint: index) {
                matched += 1
                let om = base + 4 * found
                let ov0 = spans[om + 2], ov1 = spans[om + 3]
                if same(ov0, ov1, v0, v1) { continue }
                pushPath(Self.newKey, k0, k1)
                try compare(ov0, ov1, v0, v1)
            } else {
                pushPath(Self.newKey, k0, k1)
                try add(v0, v1)
            }
            popPath()
        }
        if matched < oldCount {
            for index in 0..<oldCount {
                let m = base + 4 * index
                let k0 = spans[m], k1 = spans[m + 1]
                var present = false
                if index < newCount {
                    let nm = newBase + 4 * index
                    present = Self.sameKey(old, k0, k1, new, spans[nm], spans[nm + 1])
                }
                if !present {
                    for j in 0..<newCount {
                        let nm = newBase + 4 * j
                        if Self.sameKey(old, k0, k1, new, spans[nm], spans[nm + 1]) { present = true; break }
                    }
                }
                if present { continue }
                pushPath(Self.oldKey, k0, k1)
                remove()
                popPath()
            }
        }
        spans.truncate(to: base)
    }

    private mutating func compareArrays(_ os: Int, _ ns: Int) throws(JSONFailure) {
        let base = spans.count
        let oldCount = pushElements(old, os)
        let newBase = spans.count
        let newCount = pushElements(new, ns)
        let common = min(oldCount, newCount)
        for index in 0..<common {
            let o0 = spans[base + 2 * index], o1 = spans[base + 2 * index + 1]
            let n0 = spans[newBase + 2 * index], n1 = spans[newBase + 2 * index + 1]
            if same(o0, o1, n0, n1) { continue }
            pushPath(Self.index, index, 0)
            try compare(o0, o1, n0, n1)
            popPath()
        }
        if oldCount > newCount {
            for index in stride(from: oldCount - 1, through: common, by: -1) {
                pushPath(Self.index, index, 0)
                remove()
                popPath()
            }
        } else {
            for index in common..<newCount {
                pushPath(Self.end, 0, 0)
                try add(spans[newBase + 2 * index], spans[newBase + 2 * index + 1])
                popPath()
            }
        }
        spans.truncate(to: base)
    }

    /// The tracked list that was `oldIndex` in the last state and is `newIndex` now: its
    /// edits since, or one `replace` of it when they are unknown or longer.
    private mutating func compareTracked(_ oldIndex: Int, _ newIndex: Int) throws(JSONFailure) {
        let seen = oldMarks[oldIndex]
        let now = tracked.marks[newIndex]
        if now.sameContents(as: seen) { return }
        let array = tracked.arrays[newIndex]
        if let changes = array._changes(since: seen.generation, of: seen.branch),
           try writeEdits(array, from: seen.count, changes) {
            return
        }
        begin("replace")
        literal(#","value":"#)
        try array._writeAll(into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// As `_DiffContext.edits`, written as they are computed; false (nothing written)
    /// when replacing the whole list is shorter.
    private mutating func writeEdits(_ array: _AnyChangeTrackedArray, from oldCount: Int,
                                     _ changes: ArraySlice<_ArrayChange>) throws(JSONFailure) -> Bool {
        if changes.isEmpty { return true }
        guard let plan = _ArrayEditPlan(oldCount: oldCount, newCount: array.count, changes: changes) else { return false }
        func element(_ op: StaticString, _ index: Int, at component: Int) throws(JSONFailure) {
            pushPath(component, index, 0)
            begin(op)
            literal(#","value":"#)
            try array._writeElement(at: index, into: &out)
            out.append(UInt8(ascii: "}"))
            popPath()
        }
        for index in plan.assigned { try element("replace", index, at: Self.index) }
        for index in plan.kept..<(plan.kept + plan.rewritten) { try element("replace", index, at: Self.index) }
        if oldCount > plan.newCount {
            for index in stride(from: oldCount - 1, through: plan.newCount, by: -1) {
                pushPath(Self.index, index, 0)
                remove()
                popPath()
            }
        } else if plan.newCount > oldCount {
            for index in oldCount..<plan.newCount { try element("add", index, at: Self.end) }
        }
        return true
    }

    // MARK: Writing operations

    @inline(__always) private mutating func pushPath(_ kind: Int, _ a: Int, _ b: Int) {
        path.push(kind)
        path.push(a)
        path.push(b)
    }

    @inline(__always) private mutating func popPath() {
        path.truncate(to: path.count - 3)
    }

    private mutating func begin(_ op: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        literal(#"{"op":""#)
        literal(op)
        literal(#"","path":""#)
        out.appendBytes(prefix)
        // The JSON Pointer (RFC 6901) as a JSON string. A key's bytes are already escaped
        // for JSON, by the rules the pointer's string would use, and escaping leaves `~`
        // and `/` alone: so the pointer's escapes are applied to those bytes directly.
        var k = 0
        while k < path.count {
            switch path[k] {
            case Self.newKey, Self.oldKey:
                let bytes = path[k] == Self.newKey ? new : old
                out.appendPointerToken(utf8: UnsafeBufferPointer(rebasing: bytes[path[k + 1]..<path[k + 2]]))
            case Self.index:
                out.append(UInt8(ascii: "/"))
                out.appendDecimal(UInt64(path[k + 1]))
            default:
                out.append(UInt8(ascii: "/"))
                out.append(UInt8(ascii: "-"))
            }
            k += 3
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always) private mutating func literal(_ text: StaticString) {
        out.appendBytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func remove() {
        begin("remove")
        out.append(UInt8(ascii: "}"))
    }

    private mutating func replace(_ ns: Int, _ ne: Int) throws(JSONFailure) {
        begin("replace")
        try value(ns, ne)
    }

    private mutating func add(_ ns: Int, _ ne: Int) throws(JSONFailure) {
        begin("add")
        try value(ns, ne)
    }

    /// `,"value":` and the new value in `ns..<ne`, its tracked lists written out, and `}`.
    private mutating func value(_ ns: Int, _ ne: Int) throws(JSONFailure) {
        literal(#","value":"#)
        if tracked.offsets.isEmpty {
            out.appendBytes(UnsafeBufferPointer(rebasing: new[ns..<ne]))
            out.append(UInt8(ascii: "}"))
            return
        }
        var from = ns
        for (index, offset) in tracked.offsets.enumerated() where offset >= ns && offset < ne {
            out.appendBytes(UnsafeBufferPointer(rebasing: new[from..<offset]))
            try tracked.arrays[index]._writeAll(into: &out)
            from = offset + _TrackedArrayCollector.referenceSize
        }
        out.appendBytes(UnsafeBufferPointer(rebasing: new[from..<ne]))
        out.append(UInt8(ascii: "}"))
    }
}
