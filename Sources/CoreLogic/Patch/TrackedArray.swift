/// An array that remembers how it changed, so that patch output (`docs/performance.md`,
/// "Incremental output") costs what changed, not the array's length.
///
/// Its JSON is a plain array, so it is a drop-in replacement for `[Element]` in a state
/// that holds a long list. A plain array in a state is diffed element by element when its
/// storage changed (and a mutation of it copies it once, because the differ keeps the
/// last emitted value); a `TrackedArray` is never copied by the differ and tells it which
/// indices changed:
///
/// - `append`, `append(contentsOf:)`: one `add` per new element, whatever the length;
/// - assigning an element (`items[i] = x`, `items[i].stars += 1`): one `replace`;
/// - inserting or removing anywhere but the end: a `replace` per element after it (and
///   `remove`s at the end); replacing everything: one `replace` of the whole array.
///
/// Value semantics as usual: a copy that is mutated copies its elements first. The change
/// history it carries is not part of its value (`==`, `hash` and the JSON ignore it).
public struct TrackedArray<Element> {
    @usableFromInline
    final class Storage {
        // Unchecked exclusivity (both): a storage is changed only through the one array
        // that holds it uniquely (`makeUnique`), whose own accesses are checked where the
        // array lives; copies and the differ's shadows only read it. The checks cost about
        // 450 instructions per search batch in patch output (measured).
        @exclusivity(unchecked) @usableFromInline var elements: [Element]
        @exclusivity(unchecked) var history: _ArrayChangeHistory
        /// A differ's shadow of a list (no elements): how many the list had; -1 otherwise.
        let shadowCount: Int

        init(_ elements: [Element], history: _ArrayChangeHistory, shadowCount: Int = -1) {
            self.elements = elements
            self.history = history
            self.shadowCount = shadowCount
        }
    }

    @usableFromInline var storage: Storage

    private init(storage: Storage) { self.storage = storage }

    /// An empty array.
    public init() { storage = Storage([], history: _ArrayChangeHistory()) }

    /// An array of `elements`.
    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        storage = Storage(Array(elements), history: _ArrayChangeHistory())
    }

    /// The elements as a plain array (no copy until either side is mutated).
    public var elements: [Element] { storage.elements }

    /// Makes the storage unique before a mutation; a copy continues the history of the
    /// storage it was copied from, as a new branch of it.
    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(storage.elements, history: storage.history.forked())
        }
    }

    private mutating func record(_ change: _ArrayChange) {
        storage.history.record(change)
    }
}

// MARK: - Collection conformances

extension TrackedArray: RandomAccessCollection, MutableCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.elements.count }
    public var count: Int { storage.elements.count }
    public var isEmpty: Bool { storage.elements.isEmpty }

    public subscript(position: Int) -> Element {
        get { storage.elements[position] }
        set {
            makeUnique()
            storage.elements[position] = newValue
            record(.set(position))
        }
        _modify {
            makeUnique()
            yield &storage.elements[position]
            record(.set(position))
        }
    }

    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }
}

extension TrackedArray: RangeReplaceableCollection {
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        makeUnique()
        let oldCount = storage.elements.count
        storage.elements.replaceSubrange(subrange, with: newElements)
        let newCount = storage.elements.count
        if subrange.lowerBound == oldCount {
            record(.append(newCount - oldCount))
        } else if newCount == oldCount && subrange.count <= 16 {
            // Same length, a few elements rewritten in place: each is a `replace`.
            for index in subrange { record(.set(index)) }
        } else if subrange.lowerBound == 0 && subrange.upperBound == oldCount {
            record(.reset)
        } else {
            record(.shift(from: subrange.lowerBound))
        }
    }

    public mutating func append(_ newElement: Element) {
        makeUnique()
        storage.elements.append(newElement)
        record(.append(1))
    }

    public mutating func append<S: Sequence>(contentsOf newElements: S) where S.Element == Element {
        makeUnique()
        let oldCount = storage.elements.count
        storage.elements.append(contentsOf: newElements)
        record(.append(storage.elements.count - oldCount))
    }

    public mutating func reserveCapacity(_ n: Int) {
        makeUnique()
        storage.elements.reserveCapacity(n)
    }
}

extension TrackedArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension TrackedArray: Equatable where Element: Equatable {
    public static func == (lhs: TrackedArray, rhs: TrackedArray) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.elements == rhs.storage.elements
    }
}

extension TrackedArray: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.elements) }
}

#if !hasFeature(Embedded)
extension TrackedArray: CustomStringConvertible {
    public var description: String { storage.elements.description }
}
#endif

// Value semantics: the storage is never mutated while shared (copy on write), so a value
// may cross threads like an Array.
extension TrackedArray: @unchecked Sendable where Element: Sendable {}

// MARK: - JSON: exactly a plain array

#if hasFeature(Embedded)
// The WebAssembly build's `Codable` is the direct JSON below (Embedded/CodableInEmbedded.swift).
extension TrackedArray: Encodable where Element: JSONDirectCodable {}
extension TrackedArray: Decodable where Element: JSONDirectCodable {}
#else
extension TrackedArray: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        // The differ's encoder asks for the change history instead of the elements.
        if let differ = encoder as? _DiffEncoder {
            try differ.context.visitTracked(self, node: differ.node, previous: differ.previous)
            return
        }
        try storage.elements.encode(to: encoder)
    }
}

extension TrackedArray: Decodable where Element: Decodable {
    public init(from decoder: Decoder) throws { self.init(try [Element](from: decoder)) }
}
#endif

extension TrackedArray: JSONDirectCodable where Element: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) {
        // Written for the differ: a reference to this list, whose history it reads.
        if let differ = out.context {
            Unmanaged<_TrackedArrayCollector>.fromOpaque(differ).takeUnretainedValue().record(self, into: &out)
            return
        }
        try storage.elements.writeJSON(to: &out)
    }

    public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> TrackedArray {
        TrackedArray(try [Element].readJSON(from: &input))
    }
}

// MARK: - Change history (internal)

/// One mutation of a tracked array.
enum _ArrayChange {
    /// `n` elements appended at the end.
    case append(Int)
    /// The element at this index was assigned.
    case set(Int)
    /// Elements were inserted or removed at this index: every later index moved.
    case shift(from: Int)
    /// Everything was replaced.
    case reset
}

/// The operations that turn a tracked array of `oldCount` elements, as a differ last saw
/// it, into its `newCount` elements now, from its changes since: both differs (the tree
/// and the byte differ) write them in this order, then removes from the end down or
/// appends. Nil when replacing the whole array is shorter.
struct _ArrayEditPlan {
    /// Elements below `kept` assigned in place, ascending: each is a `replace`.
    let assigned: [Int]
    /// Elements [0, kept) are still where they were, except the `assigned` ones.
    let kept: Int
    /// Elements [kept, kept + rewritten) moved: each is a `replace`.
    let rewritten: Int
    let oldCount: Int
    let newCount: Int
    /// How many operations the plan writes.
    let operations: Int

    init?(oldCount: Int, newCount: Int, changes: ArraySlice<_ArrayChange>) {
        var stable = oldCount
        var assigned: [Int] = []
        for change in changes {
            switch change {
            case .append: break
            case .set(let index): if index < stable { assigned.append(index) }
            case .shift(let from): stable = min(stable, from)
            case .reset: stable = 0
            }
        }
        let kept = min(stable, newCount)
        let rewritten = max(min(oldCount, newCount) - kept, 0)
        let assignedKept = assigned.isEmpty ? [] : Set(assigned.filter { $0 < kept }).sorted()
        let operations = assignedKept.count + rewritten + abs(newCount - oldCount)
        if operations > newCount { return nil }
        self.assigned = assignedKept
        self.kept = kept
        self.rewritten = rewritten
        self.oldCount = oldCount
        self.newCount = newCount
        self.operations = operations
    }
}

/// The recent mutations of one tracked array's storage, stamped with generations, so a
/// differ that saw generation `g` of this line of history can tell what changed since.
/// Bounded: past `limit` entries the oldest half is dropped, and a differ that far behind
/// replaces the whole array instead.
struct _ArrayChangeHistory {
    /// Identifies one storage's line of history; a copy made for a mutation gets a new one.
    private(set) var branch: UInt64
    /// The branches this one was copied from, with the generation at the copy, newest last.
    private(set) var ancestors: [(branch: UInt64, generation: UInt64)] = []
    /// Mutations so far, counting those inherited from ancestors.
    private(set) var generation: UInt64 = 0
    /// `entries[k]` is the change that produced generation `firstGeneration + k + 1`.
    private var entries: [_ArrayChange] = []
    private var firstGeneration: UInt64 = 0

    static let limit = 4096
    static let ancestorLimit = 8

    init() { branch = _ArrayChangeHistory.newBranch() }

    /// No changes, stamped where another history is: a differ's shadow of a list.
    init(branch: UInt64, generation: UInt64) {
        self.branch = branch
        self.generation = generation
        self.firstGeneration = generation
    }

    private static func newBranch() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    mutating func record(_ change: _ArrayChange) {
        if entries.count >= Self.limit {
            let dropped = entries.count / 2
            entries.removeFirst(dropped)
            firstGeneration &+= UInt64(dropped)
        }
        entries.append(change)
        generation &+= 1
    }

    /// The same history continued on a new branch (the storage was copied).
    func forked() -> _ArrayChangeHistory {
        var copy = self
        copy.branch = Self.newBranch()
        copy.ancestors.append((branch, generation))
        if copy.ancestors.count > Self.ancestorLimit { copy.ancestors.removeFirst() }
        return copy
    }

    /// The changes since generation `seen` of `seenBranch`, or nil when this history
    /// does not reach back that far along that line (the caller replaces everything).
    func changes(since seen: UInt64, of seenBranch: UInt64) -> ArraySlice<_ArrayChange>? {
        guard seen <= generation else { return nil }
        if seenBranch != branch {
            guard let fork = ancestors.last(where: { $0.branch == seenBranch }), seen <= fork.generation
            else { return nil }
        }
        guard seen >= firstGeneration else { return nil }
        let start = Int(seen - firstGeneration)
        return entries[start...]
    }
}

/// What a differ needs from a tracked array without knowing its element type.
protocol _ChangeTrackedArray {
    var _branch: UInt64 { get }
    var _generation: UInt64 { get }
    var count: Int { get }
    /// `count`, or for a differ's shadow the count of the list it stands for.
    var _markCount: Int { get }
    func _changes(since seen: UInt64, of branch: UInt64) -> ArraySlice<_ArrayChange>?
    func _writeElement(at index: Int, into out: inout _ByteBuffer) throws(JSONFailure)
    func _writeAll(into out: inout _ByteBuffer) throws(JSONFailure)
}

#if hasFeature(Embedded)
/// A tracked array of any element type, as the differ holds it: Embedded Swift has no
/// existential of a non-class protocol, so the calls are closures over the array.
struct _AnyChangeTrackedArray: _ChangeTrackedArray {
    let _branch: UInt64
    let _generation: UInt64
    let count: Int
    let _markCount: Int
    private let changes: (UInt64, UInt64) -> ArraySlice<_ArrayChange>?
    private let writeElement: (Int, inout _ByteBuffer) throws(JSONFailure) -> Void
    private let writeAll: (inout _ByteBuffer) throws(JSONFailure) -> Void

    init<A: _ChangeTrackedArray>(_ array: A) {
        _branch = array._branch
        _generation = array._generation
        count = array.count
        _markCount = array._markCount
        changes = { seen, branch in array._changes(since: seen, of: branch) }
        writeElement = { (index, out) throws(JSONFailure) in try array._writeElement(at: index, into: &out) }
        writeAll = { (out) throws(JSONFailure) in try array._writeAll(into: &out) }
    }

    func _changes(since seen: UInt64, of branch: UInt64) -> ArraySlice<_ArrayChange>? { changes(seen, branch) }
    func _writeElement(at index: Int, into out: inout _ByteBuffer) throws(JSONFailure) { try writeElement(index, &out) }
    func _writeAll(into out: inout _ByteBuffer) throws(JSONFailure) { try writeAll(&out) }
}
@inline(__always) func _anyChangeTrackedArray<A: _ChangeTrackedArray>(_ array: A) -> _AnyChangeTrackedArray {
    _AnyChangeTrackedArray(array)
}
#else
typealias _AnyChangeTrackedArray = any _ChangeTrackedArray
@inline(__always) func _anyChangeTrackedArray<A: _ChangeTrackedArray>(_ array: A) -> _AnyChangeTrackedArray { array }
#endif

extension TrackedArray: _ChangeTrackedArray where Element: Encodable {
    func _changes(since seen: UInt64, of branch: UInt64) -> ArraySlice<_ArrayChange>? {
        storage.history.changes(since: seen, of: branch)
    }

    func _writeElement(at index: Int, into out: inout _ByteBuffer) throws(JSONFailure) {
        try JSONCoding.encode(storage.elements[index], into: &out)
    }

    func _writeAll(into out: inout _ByteBuffer) throws(JSONFailure) {
        try JSONCoding.encode(storage.elements, into: &out)
    }
}

// MARK: - A differ's shadow (internal)

extension TrackedArray {
    var _branch: UInt64 { storage.history.branch }
    var _generation: UInt64 { storage.history.generation }
    var _markCount: Int { storage.shadowCount >= 0 ? storage.shadowCount : storage.elements.count }

    /// What the field-by-field differ keeps of this list: where its history is and how
    /// many elements it has, none of them (holding the list would make the reducer's next
    /// mutation copy it). `old`, the last shadow, is reused while the list is unchanged.
    func _patchShadow(reusing old: TrackedArray?) -> TrackedArray {
        if let old, old._branch == _branch, old._generation == _generation, old._markCount == count { return old }
        return TrackedArray(storage: Storage([], history: _ArrayChangeHistory(branch: _branch, generation: _generation),
                                             shadowCount: count))
    }
}
