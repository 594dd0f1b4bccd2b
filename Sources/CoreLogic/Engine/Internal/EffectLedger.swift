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
        running[id] = nil
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

    mutating func start(feedback: String, request: any Encodable) -> UInt64 {
        let id = nextID
        nextID &+= 1
        running[id] = currentTracker
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

/// The running effects: id -> owning tracker, a dictionary keyed by effect id.
///
/// Ids are handed out by the system itself, one by one, so they need no protection
/// against chosen collisions; hashing them with a multiply instead of the standard
/// library's keyed SipHash makes each lookup (one or more per step) several times cheaper.
struct RunningEffects {
    private var owners: [EffectKey: Int] = [:]

    subscript(id: UInt64) -> Int? {
        get { owners[EffectKey(id: id)] }
        set { owners[EffectKey(id: id)] = newValue }
    }

    mutating func removeValue(forKey id: UInt64) -> Int? {
        owners.removeValue(forKey: EffectKey(id: id))
    }
}

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
