/// Per-system state of one feedback: what it asked for last and which of those
/// effects are still running. Subclasses implement the rules of each feedback kind.
class EffectTracker<State> {
    /// Re-evaluates the query on `state` and records cancels and starts in `ledger`.
    /// A nil state means "no state to ask from": every running effect is cancelled.
    func update(_ state: State?, _ ledger: inout EffectLedger) {}
    /// The effect finished on its own (docs/contract.md §3 `complete`); it is no longer running,
    /// but its request stays current, so an equal request does not restart it.
    func completed(_ id: UInt64) {}
    /// Appends the effects this feedback has running.
    func collectRunning(into out: inout [RunningEffect]) {}
}

final class ReactTracker<State, Request: Codable & Equatable>: EffectTracker<State> {
    let feedback: String
    let query: (State) -> Request?
    private var current: Request?
    private var runningID: UInt64?

    init(feedback: String, query: @escaping (State) -> Request?) {
        self.feedback = feedback
        self.query = query
    }

    override func update(_ state: State?, _ ledger: inout EffectLedger) {
        let next = state.flatMap(query)
        if next == current { return }
        if let id = runningID {
            ledger.cancel(id)
            runningID = nil
        }
        current = next
        if let request = next {
            runningID = ledger.start(feedback: feedback, request: request)
        }
    }

    override func completed(_ id: UInt64) {
        if runningID == id { runningID = nil }
    }

    override func collectRunning(into out: inout [RunningEffect]) {
        if let id = runningID, let request = current {
            out.append(RunningEffect(id: id, feedback: feedback, request: request))
        }
    }
}

final class ReactSetTracker<State, Request: Codable & Hashable>: EffectTracker<State> {
    let feedback: String
    let query: (State) -> [Request]
    /// The last answer, in the query's order, with each request's effect id.
    private var entries: [(request: Request, id: UInt64)] = []
    /// Ids of entries whose effect is still running (not completed).
    private var runningIDs: Set<UInt64> = []

    init(feedback: String, query: @escaping (State) -> [Request]) {
        self.feedback = feedback
        self.query = query
    }

    override func update(_ state: State?, _ ledger: inout EffectLedger) {
        let requests = state.map(query) ?? []
        if requests.count == entries.count
            && zip(requests, entries).allSatisfy({ $0 == $1.request }) {
            return
        }
        var previous: [Request: UInt64] = [:]
        previous.reserveCapacity(entries.count)
        for entry in entries { previous[entry.request] = entry.id }

        var wanted = Set<Request>()
        wanted.reserveCapacity(requests.count)
        for request in requests { wanted.insert(request) }

        // Cancels in the order of the previous answer, for determinism.
        for entry in entries where !wanted.contains(entry.request) {
            if runningIDs.remove(entry.id) != nil { ledger.cancel(entry.id) }
        }
        var next: [(request: Request, id: UInt64)] = []
        next.reserveCapacity(requests.count)
        // Removing from `wanted` keeps the first occurrence of a duplicated request only.
        for request in requests where wanted.remove(request) != nil {
            if let id = previous[request] {
                next.append((request, id))
            } else {
                let id = ledger.start(feedback: feedback, request: request)
                runningIDs.insert(id)
                next.append((request, id))
            }
        }
        entries = next
    }

    override func completed(_ id: UInt64) {
        runningIDs.remove(id)
    }

    override func collectRunning(into out: inout [RunningEffect]) {
        for entry in entries where runningIDs.contains(entry.id) {
            out.append(RunningEffect(id: entry.id, feedback: feedback, request: entry.request))
        }
    }
}

/// A child feature's feedback inside a parent: evaluated on the child's state,
/// and on "no state" (cancel everything) while the parent holds no child state.
final class ScopedTracker<Parent, Child>: EffectTracker<Parent> {
    let child: EffectTracker<Child>
    let project: (Parent) -> Child?

    init(child: EffectTracker<Child>, project: @escaping (Parent) -> Child?) {
        self.child = child
        self.project = project
    }

    override func update(_ state: Parent?, _ ledger: inout EffectLedger) {
        child.update(state.flatMap(project), &ledger)
    }

    override func completed(_ id: UInt64) { child.completed(id) }

    override func collectRunning(into out: inout [RunningEffect]) { child.collectRunning(into: &out) }
}
