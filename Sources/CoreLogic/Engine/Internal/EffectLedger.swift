/// The effect bookkeeping of one system: id allocation, the running set and the
/// commands produced by the current step (cancels first, then starts: docs/contract.md §2).
struct EffectLedger {
    /// The next id to hand out. Ids start at 1, grow by one and are never reused.
    var nextID: UInt64
    /// Running effect id -> index of the feedback (tracker) that owns it.
    var running: [UInt64: Int] = [:]
    var cancels: [EffectCommand] = []
    var starts: [EffectCommand] = []
    /// The tracker being updated; set by the engine before each `update`.
    var currentTracker = 0

    init(nextID: UInt64 = 1) {
        self.nextID = nextID
    }

    mutating func cancel(_ id: UInt64) {
        running[id] = nil
        cancels.append(.cancel(id: id))
    }

    mutating func start(feedback: String, request: any Encodable) -> UInt64 {
        let id = nextID
        nextID &+= 1
        running[id] = currentTracker
        starts.append(.start(id: id, feedback: feedback, request: request))
        return id
    }

    /// Moves this step's commands, cancels first, into `out`.
    mutating func drainCommands(into out: inout [EffectCommand]) {
        out.append(contentsOf: cancels)
        out.append(contentsOf: starts)
        cancels.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
    }
}
