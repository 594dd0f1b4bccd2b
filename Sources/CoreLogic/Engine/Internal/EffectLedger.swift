/// The effect bookkeeping of one system: id allocation, the running set and the
/// commands produced by the current step (cancels first, then starts: docs/contract.md §2).
@usableFromInline
struct EffectLedger {
    /// The next id to hand out. Ids start at 1, grow by one and are never reused.
    var nextID: UInt64
    /// Running effect id -> index of the feedback (tracker) that owns it.
    var running = RunningEffects()
    /// This step's commands: its cancels, then its starts (`cancelCount` of the first).
    /// One array, so that draining it into an empty batch is a move, not a copy.
    var pending: [EffectCommand] = []
    var cancelCount = 0
    /// The tracker being updated; set by the engine before each `update`.
    var currentTracker = 0
    /// Whether cancels and starts are recorded in `pending`. False when nobody will read
    /// this step's commands (set by the engine before each step): the running set and the
    /// ids are kept all the same, and no command value (a string and a boxed request) is
    /// built only to be destroyed.
    var recordsCommands = true

    init(nextID: UInt64 = 1) {
        self.nextID = nextID
    }

    mutating func cancel(_ id: UInt64) {
        _ = running.removeValue(forKey: id)
        guard recordsCommands else { return }
        reserveIfEmpty()
        // After this step's cancels, before its starts: appended, then moved back past the
        // starts (usually none or one; cheaper than a general insert).
        pending.append(.cancel(id: id))
        var index = pending.count - 1
        while index > cancelCount {
            pending.swapAt(index, index - 1)
            index -= 1
        }
        cancelCount += 1
    }

    mutating func start(feedback: String, request: AnyJSONEncodable) -> UInt64 {
        let id = nextID
        nextID &+= 1
        running.insert(fresh: id, owner: currentTracker)
        guard recordsCommands else { return id }
        reserveIfEmpty()
        pending.append(.start(id: id, feedback: feedback, request: request))
        return id
    }

    /// After a drain `pending` has no storage (it moved into the batch): one allocation
    /// for a few commands, instead of growing one element at a time.
    @inline(__always) private mutating func reserveIfEmpty() {
        if pending.capacity == 0 { pending.reserveCapacity(4) }
    }

    /// Moves this step's commands, cancels first, into `out`.
    mutating func drainCommands(into out: inout [EffectCommand]) {
        cancelCount = 0
        if pending.isEmpty { return }
        if out.isEmpty {
            swap(&out, &pending)
        } else {
            out.append(contentsOf: pending)
            pending.removeAll(keepingCapacity: true)
        }
    }
}

/// The running effects: id -> owning tracker.
///
/// A system runs a few effects at a time, so they are kept as pairs in one array and
/// found by a linear scan of the ids: a lookup is a few comparisons, where a dictionary
/// hashed, probed and, on insert and remove, rehashed metadata (about 800 instructions
/// per effect round trip). Past `smallLimit` running effects they move to a dictionary
/// keyed by id, whose lookups do not grow with their number.
struct RunningEffects {
    private struct Pair {
        var id: UInt64
        var owner: Int
    }

    private var pairs: [Pair] = []
    /// Non-nil once more than `smallLimit` effects ran at once (then `pairs` is unused).
    private var large: [EffectKey: Int]?

    static let smallLimit = 16

    @inline(__always) private func index(of id: UInt64) -> Int? {
        var i = 0
        let n = pairs.count
        while i < n {
            if pairs[i].id == id { return i }
            i &+= 1
        }
        return nil
    }

    subscript(id: UInt64) -> Int? {
        get {
            if let large { return large[EffectKey(id: id)] }
            guard let i = index(of: id) else { return nil }
            return pairs[i].owner
        }
        set {
            if large != nil {
                large![EffectKey(id: id)] = newValue
                return
            }
            if let i = index(of: id) {
                if let newValue {
                    pairs[i].owner = newValue
                } else {
                    remove(at: i)
                }
            } else if let newValue {
                if pairs.count == Self.smallLimit {
                    var table: [EffectKey: Int] = [:]
                    for pair in pairs { table[EffectKey(id: pair.id)] = pair.owner }
                    table[EffectKey(id: id)] = newValue
                    large = table
                    pairs = []
                    return
                }
                pairs.append(Pair(id: id, owner: newValue))
            }
        }
    }

    /// Adds `id`, which is not running: a fresh id, never handed out before, so there is
    /// no pair to look for first.
    mutating func insert(fresh id: UInt64, owner: Int) {
        if large == nil && pairs.count < Self.smallLimit {
            pairs.append(Pair(id: id, owner: owner))
        } else {
            self[id] = owner
        }
    }

    mutating func removeValue(forKey id: UInt64) -> Int? {
        if large != nil { return large!.removeValue(forKey: EffectKey(id: id)) }
        guard let i = index(of: id) else { return nil }
        let owner = pairs[i].owner
        remove(at: i)
        return owner
    }

    /// Removes pair `i`, moving the last one into its place (the order does not matter).
    @inline(__always) private mutating func remove(at i: Int) {
        let last = pairs.removeLast()
        if i < pairs.count { pairs[i] = last }
    }
}

/// The key of the running effects past `smallLimit`. Ids are handed out by the system
/// itself, one by one, so they need no protection against chosen collisions: hashed with
/// a multiply instead of the standard library's keyed SipHash.
struct EffectKey: Hashable {
    var id: UInt64

    static func == (a: EffectKey, b: EffectKey) -> Bool { a.id == b.id }

    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// What `Dictionary` calls to place a key: a multiplicative hash of the id, mixed with
    /// the table's seed (Fibonacci hashing spreads consecutive ids over the buckets).
    func _rawHashValue(seed: Int) -> Int {
        Int(truncatingIfNeeded: (id ^ UInt64(truncatingIfNeeded: seed)) &* 0x9E37_79B9_7F4A_7C15)
    }
}
