/// Per-system state of one feedback: what it asked for last and which of those
/// effects are still running. Subclasses implement the rules of each feedback kind.
@usableFromInline
class EffectTracker<State> {
    /// `update`, as compiled for this tracker's concrete request type: what the engine calls
    /// on every step. A call through the class (`tracker.update`) reaches the generic body,
    /// which looks up type metadata (`Optional<Request>`, its `Equatable` conformance) on
    /// every call; `bound()` replaces this with a closure made where the request type is
    /// known, so the step runs specialized code. Set once, before the system's first step.
    /// Unchecked exclusivity: written only by `bound()` during construction, then only read.
    ///
    /// The state is passed by address (nil: no state): a `State?` argument made the engine
    /// copy the state into an optional, and each tracker copy it again to unwrap it,
    /// several retains and releases per copy (callgrind: about a sixth of a search event).
    /// The pointer is valid only during the call; queries are pure, so nothing can change
    /// the state meanwhile.
    @usableFromInline @exclusivity(unchecked) final var step: (UnsafePointer<State>?, inout EffectLedger) -> Void = { _, _ in }

    /// Makes `step` call `update` through code specialized for `Tracker`, the concrete
    /// class; inlined where the tracker is created, where its type is known.
    @inlinable final func bind<Tracker: EffectTracker<State>>(_ tracker: Tracker) -> Tracker {
        // unowned(unsafe): the tracker owns this closure and is its only caller, so the
        // tracker is alive whenever the closure runs (and no reference cycle is made).
        step = { [unowned(unsafe) tracker] state, ledger in tracker.update(state, &ledger) }
        return tracker
    }

    /// Re-evaluates the query on `state` and records cancels and starts in `ledger`.
    /// A nil state means "no state to ask from": every running effect is cancelled.
    @usableFromInline func update(_ state: UnsafePointer<State>?, _ ledger: inout EffectLedger) {}
    /// The effect finished on its own (docs/contract.md §3 `complete`); it is no longer running,
    /// but its request stays current, so an equal request does not restart it.
    func completed(_ id: UInt64) {}
    /// Appends the effects this feedback has running.
    func collectRunning(into out: inout [RunningEffect]) {}
}

@usableFromInline
final class ReactTracker<State, Request: Codable & Equatable>: EffectTracker<State> {
    let feedback: String
    let query: (State) -> Request?
    // Unchecked exclusivity here and in the other trackers: a tracker is used only by its
    // system's step, under the system's lock, and no access to it overlaps another.
    @exclusivity(unchecked) private var current: Request?
    @exclusivity(unchecked) private var runningID: UInt64?

    @usableFromInline
    init(feedback: String, query: @escaping (State) -> Request?) {
        self.feedback = feedback
        self.query = query
    }

    @usableFromInline override func update(_ state: UnsafePointer<State>?, _ ledger: inout EffectLedger) {
        let next: Request? = if let state { ask(query, state) } else { nil }
        // The same effect if and only if the request's JSON is identical (JSONIdentity).
        if JSONIdentity.same(next, current) { return }
        if let id = runningID {
            ledger.cancel(id)
            runningID = nil
        }
        current = next
        if let request = next {
            runningID = ledger.start(feedback: feedback, request: _anyEncodable(request))
        }
    }

    override func completed(_ id: UInt64) {
        if runningID == id { runningID = nil }
    }

    override func collectRunning(into out: inout [RunningEffect]) {
        if let id = runningID, let request = current {
            out.append(RunningEffect(id: id, feedback: feedback, request: _anyEncodable(request)))
        }
    }
}

@usableFromInline
final class ReactSetTracker<State, Request: Codable & Hashable>: EffectTracker<State> {
    let feedback: String
    let query: (State) -> [Request]
    /// The last answer, in the query's order, with each request's effect id.
    @exclusivity(unchecked) private var entries: [(request: Request, id: UInt64)] = []
    /// Ids of entries whose effect is still running (not completed).
    @exclusivity(unchecked) private var runningIDs: Set<UInt64> = []

    @usableFromInline
    init(feedback: String, query: @escaping (State) -> [Request]) {
        self.feedback = feedback
        self.query = query
    }

    @usableFromInline override func update(_ state: UnsafePointer<State>?, _ ledger: inout EffectLedger) {
        let requests: [Request] = if let state { ask(query, state) } else { [] }
        // Requests are keyed by their JSON (JSONIdentity), not by `==`.
        if requests.count == entries.count
            && zip(requests, entries).allSatisfy({ JSONIdentity.same($0, $1.request) }) {
            return
        }
        typealias Key = JSONIdentityKey<Request>
        var previous: [Key: UInt64] = [:]
        previous.reserveCapacity(entries.count)
        for entry in entries { previous[Key(entry.request)] = entry.id }

        var wanted = Set<Key>()
        wanted.reserveCapacity(requests.count)
        for request in requests { wanted.insert(Key(request)) }

        // Cancels in the order of the previous answer, for determinism.
        for entry in entries where !wanted.contains(Key(entry.request)) {
            if runningIDs.remove(entry.id) != nil { ledger.cancel(entry.id) }
        }
        var next: [(request: Request, id: UInt64)] = []
        next.reserveCapacity(requests.count)
        // Removing from `wanted` keeps the first occurrence of a duplicated request only.
        for request in requests where wanted.remove(Key(request)) != nil {
            if let id = previous[Key(request)] {
                next.append((request, id))
            } else {
                let id = ledger.start(feedback: feedback, request: _anyEncodable(request))
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
            out.append(RunningEffect(id: entry.id, feedback: feedback, request: _anyEncodable(entry.request)))
        }
    }
}

/// A child feature's feedback inside a parent: evaluated on the child's state,
/// and on "no state" (cancel everything) while the parent holds no child state.
@usableFromInline
final class ScopedTracker<Parent, Child>: EffectTracker<Parent> {
    let child: EffectTracker<Child>
    let project: (Parent) -> Child?

    @usableFromInline
    init(child: EffectTracker<Child>, project: @escaping (Parent) -> Child?) {
        self.child = child
        self.project = project
    }

    @usableFromInline override func update(_ state: UnsafePointer<Parent>?, _ ledger: inout EffectLedger) {
        guard let state, let childState = project(state.pointee) else {
            child.step(nil, &ledger)
            return
        }
        withUnsafePointer(to: childState) { child.step($0, &ledger) }
    }

    override func completed(_ id: UInt64) { child.completed(id) }

    override func collectRunning(into out: inout [RunningEffect]) { child.collectRunning(into: &out) }
}

/// `query(state)` for a state passed by address, without copying it. Passing
/// `state.pointee` copies the state (the compiler cannot know that the query does not
/// write the memory meanwhile): a retain and a release of each of its references per
/// tracker and step. An `inout` parameter is an exclusive access, so the state is passed
/// to the query where it is. Nothing is written: queries are pure.
@inline(__always)
func ask<State, Answer>(_ query: (State) -> Answer, _ state: UnsafePointer<State>) -> Answer {
    borrowingAsk(query, &UnsafeMutablePointer(mutating: state).pointee)
}

@inline(__always)
private func borrowingAsk<State, Answer>(_ query: (State) -> Answer, _ state: inout State) -> Answer {
    query(state)
}
