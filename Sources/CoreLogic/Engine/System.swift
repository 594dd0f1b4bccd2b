/// One running instance of a feature (docs/contract.md §1, §3): its state, its running effects
/// and its input queue.
///
/// Every input (``send(_:)``, ``deliver(_:_:)``, ``complete(_:)``) goes through one
/// FIFO queue. A **step** takes one input, reduces it (send and deliver), then
/// evaluates every feedback on the new state and records the cancel and start
/// commands (docs/contract.md §2). The rules:
///
/// - **Stale inputs**: `deliver` or `complete` for an id that is not running returns
///   ``Outcome/stale``, changes nothing and is not journaled; a stale event never
///   reaches the reducer.
/// - **Re-entrancy**: a call made on the thread that is draining the queue (from
///   inside ``onCommand`` or ``onState``) returns ``Outcome/queued`` and is processed
///   after the current step, before the outer call returns. The reducer never runs
///   re-entrantly and queued inputs do not grow the stack.
/// - **Threads**: any number of threads may call a system; calls are serialized.
///   Handlers run on the calling thread while the system is locked: a handler must
///   not wait for another thread's call into the same system.
/// - At creation the feedbacks are evaluated on the initial state (``initialBatch``).
public final class System<F: Feature> {
    /// One input of the queue.
    public enum Input {
        case send(F.Event)
        case deliver(effect: UInt64, event: F.Event)
        case complete(effect: UInt64)
    }

    /// The result of one call that ran steps (docs/contract.md §4): the state after the last step
    /// and the commands of every step drained by the call, in order.
    public struct Batch {
        public var state: F.State
        public var commands: [EffectCommand]
        public var steps: Int
        /// Inputs queued from handlers during the call that ``willApply`` rejected: they
        /// were never applied (see ``submit(_:_:)``). Empty in the common case.
        public var dropped: [DroppedInput] = []
    }

    /// An input a handler queued that was rejected when its turn came (its journal
    /// record could not be written): it never reached the reducer.
    public struct DroppedInput {
        public var input: Input
        public var error: CoreLogicFailure
    }

    /// What a call did.
    public enum Outcome {
        /// The input and everything it queued ran; this is the batch.
        case applied(Batch)
        /// The input names an effect that is not running; nothing changed.
        case stale
        /// Called from inside a handler while the system drains: the input is queued and
        /// runs before the outer call returns.
        case queued

        /// The batch of an applied input; nil when stale or queued.
        public var batch: Batch? {
            if case .applied(let batch) = self { return batch }
            return nil
        }

        public var isStale: Bool {
            if case .stale = self { return true }
            return false
        }

        public var isQueued: Bool {
            if case .queued = self { return true }
            return false
        }
    }

    /// Called with each command as it is produced, on the draining thread.
    public var onCommand: ((EffectCommand) -> Void)? {
        get { lock.withLock { commandHandler } }
        set { lock.withLock { commandHandler = newValue } }
    }

    /// Called with each new state after each step, on the draining thread.
    public var onState: ((F.State) -> Void)? {
        get { lock.withLock { stateHandler } }
        set { lock.withLock { stateHandler = newValue } }
    }

    /// Called before an accepted (not stale) input is applied; throwing rejects the input
    /// and leaves the state unchanged. A journal uses it so that an input is durable before
    /// its call returns (the wire layer, `Wire/`, sets it; the engine knows nothing of
    /// journals or bytes).
    public var willApply: ((Input) throws(CoreLogicFailure) -> Void)? {
        get { lock.withLock { _willApply } }
        set { lock.withLock { _willApply = newValue } }
    }

    /// Watches every input the loop takes off the queue (tracing uses it). Optional so
    /// that a system nobody watches pays one nil check per step.
    public final class StepObserver {
        /// Before the reducer runs an accepted input.
        public var willStep: (Input) -> Void
        /// After the step's feedbacks, before the handlers: the new state and the step's
        /// commands.
        public var didStep: (Input, F.State, ArraySlice<EffectCommand>) -> Void
        /// An input dropped as stale (the call's own, or one queued from a handler).
        public var dropped: (Input) -> Void
        /// An input queued from a handler that ``willApply`` rejected when its turn came
        /// (see ``Batch/dropped``), with the error: it never reached the reducer. (The
        /// call's own input, when rejected, is thrown to the caller instead.)
        public var rejected: (Input, CoreLogicFailure) -> Void

        public init(
            willStep: @escaping (Input) -> Void,
            didStep: @escaping (Input, F.State, ArraySlice<EffectCommand>) -> Void,
            dropped: @escaping (Input) -> Void,
            rejected: @escaping (Input, CoreLogicFailure) -> Void = { _, _ in }
        ) {
            self.willStep = willStep
            self.didStep = didStep
            self.dropped = dropped
            self.rejected = rejected
        }
    }

    /// See ``StepObserver``; nil (the default) observes nothing.
    public var stepObserver: StepObserver? {
        get { lock.withLock { observer } }
        set { lock.withLock { observer = newValue } }
    }

    /// The commands produced by evaluating the feedbacks on the first state.
    public let initialBatch: Batch

    /// The first effect id this system hands out (1 for a new system; after the previous
    /// life's ids for a restored one).
    public let firstEffectID: UInt64

    // Unchecked exclusivity: every access to these happens while `lock` is held, and a
    // step never runs host code (handlers, hooks) inside an access to one of them (the
    // reducer and the queries are pure and cannot reach the system; a call from a handler
    // is queued, not run). So accesses never overlap and the runtime check, about a third
    // of a payload-less step, protects nothing.
    @exclusivity(unchecked) private var currentState: F.State
    private let trackers: [EffectTracker<F.State>]
    @exclusivity(unchecked) private var ledger: EffectLedger
    /// The commands of the call being drained (empty between calls). Stored, not local, so
    /// that a caller that discards the batch reuses its storage (``submitDiscardingBatch``).
    /// Only `drain` and the two submits touch it, under `lock`, and a handler's call is
    /// queued before reaching it: accesses never overlap.
    @exclusivity(unchecked) private var callCommands: [EffectCommand] = []
    /// The commands of the last batch handed out: their storage is taken back for the next
    /// step's commands once the caller let go of the batch, instead of a new one allocated
    /// and grown per batch. Only `run` and `step` touch it, under `lock`.
    @exclusivity(unchecked) private var handedCommands: [EffectCommand] = []
    /// The inputs of the call being drained that ``willApply`` rejected (as `callCommands`).
    @exclusivity(unchecked) private var callDropped: [DroppedInput] = []
    @exclusivity(unchecked) private var queue: [Input] = []
    @exclusivity(unchecked) private var queueHead = 0
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var stepsRun: UInt64 = 0
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var commandHandler: ((EffectCommand) -> Void)?
    @exclusivity(unchecked) private var stateHandler: ((F.State) -> Void)?
    @exclusivity(unchecked) private var _willApply: ((Input) throws(CoreLogicFailure) -> Void)?
    // Read on every step, always under `lock`: the runtime exclusivity check would cost
    // more than the nil test it guards (callgrind, docs/inspector.md).
    @exclusivity(unchecked) private var observer: StepObserver?
    private let lock = RecursiveLock()

    /// Creates a system and evaluates its feedbacks once on `state`.
    /// - Parameters:
    ///   - state: the first state; the feature's initial state when nil.
    ///   - firstEffectID: the first id to hand out (a restored system continues after
    ///     the ids its previous life used).
    public init(state: F.State? = nil, firstEffectID: UInt64 = 1) {
        currentState = state ?? F.initialState
        trackers = F.feedbacks.map { $0.makeTracker($0.name) }
        self.firstEffectID = max(firstEffectID, 1)
        ledger = EffectLedger(nextID: self.firstEffectID)
        var commands: [EffectCommand] = []
        let first = currentState
        let trackers = self.trackers
        var ledger = self.ledger
        withUnsafePointer(to: first) { Self.evaluate(trackers, $0, &ledger, into: &commands) }
        self.ledger = ledger
        initialBatch = Batch(state: first, commands: commands, steps: 0)
    }

    /// Creates a system that continues a previous life (restore, docs/persistence.md), which
    /// handed out every id below `previousNextEffectID`, and evaluates its feedbacks once.
    ///
    /// The previous life's last step may have started, with ids from `previousNextEffectID`
    /// on, the effects this state asks for, and a host may still hold those ids; so the
    /// effects started now are numbered after them: from `previousNextEffectID + n`, where n
    /// is the number this evaluation starts. Counting them evaluates the feedbacks on a
    /// scratch system first: no JSON, no encoding.
    public convenience init(restoring state: F.State, previousNextEffectID: UInt64) {
        let scratch = System(state: state, firstEffectID: previousNextEffectID)
        let started = UInt64(scratch.initialBatch.commands.count)
        self.init(state: state, firstEffectID: max(previousNextEffectID, 1) &+ started)
    }

    /// The current state.
    public var state: F.State { lock.withLock { currentState } }

    /// The next effect id this system will hand out.
    public var nextEffectID: UInt64 { lock.withLock { ledger.nextID } }

    /// The number of steps this system has run (0 at creation): the revision of its state.
    /// Handlers see the revision of the step that called them.
    public var revision: UInt64 { lock.withLock { stepsRun } }

    /// ``revision`` for a caller that holds the lock already (a batch's sink, a state
    /// handler): the same value without taking the lock again (about 50 instructions).
    var revisionUnderLock: UInt64 { stepsRun }

    /// The running effects, by increasing id.
    public var runningEffects: [RunningEffect] {
        lock.withLock {
            var out: [RunningEffect] = []
            for tracker in trackers { tracker.collectRunning(into: &out) }
            out.sort { $0.id < $1.id }
            return out
        }
    }

    /// Runs `body` while holding the system's lock: no step runs meanwhile, so what `body`
    /// reads (state, next effect id) and writes (a snapshot) is one consistent point of the
    /// input history. Reentrant: allowed from inside a handler on the draining thread.
    #if hasFeature(Embedded)
    public func withExclusiveAccess<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try lock.withLock(body)
    }
    #else
    public func withExclusiveAccess<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock(body)
    }
    #endif

    /// Whether `id` names a running effect.
    public func isRunning(_ id: UInt64) -> Bool { lock.withLock { ledger.running[id] != nil } }

    /// Sends an event from the host.
    public func send(_ event: F.Event) throws(CoreLogicFailure) -> Outcome { try submit(.send(event)) }

    /// Delivers an event produced by the running effect `effect`.
    public func deliver(_ effect: UInt64, _ event: F.Event) throws(CoreLogicFailure) -> Outcome {
        try submit(.deliver(effect: effect, event: event))
    }

    /// Reports that the effect `effect` finished and will deliver nothing more.
    public func complete(_ effect: UInt64) throws(CoreLogicFailure) -> Outcome { try submit(.complete(effect: effect)) }

    /// Runs `input` and everything queued behind it.
    ///
    /// Throws only what ``willApply`` throws for the call's own input, and then nothing
    /// changed. Once the call's own input is applied the call succeeds: an input queued
    /// from a handler that ``willApply`` rejects is dropped (never applied), the others
    /// still run, and the dropped ones are listed in the batch's ``Batch/dropped``.
    public func submit(_ input: Input) throws(CoreLogicFailure) -> Outcome {
        try submit(input) { $0 }
    }

    /// ``submit(_:)``, then `body` with the outcome while the system is still locked, so
    /// the batch can be encoded before another thread runs a step.
    public func submit<R>(_ input: Input, _ body: (Outcome) throws(CoreLogicFailure) -> R) throws(CoreLogicFailure) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(run(input))
    }

    /// ``submit(_:)`` for a caller that does not read the batch (the C ABI called with a
    /// NULL batch): the same steps, hooks, handlers and observer, in the same order, but no
    /// ``Batch`` is built: no copy of the state, no list of commands handed out (the
    /// commands' storage is kept for the next call), no dropped-input list; and commands
    /// are made only for a command handler or the step observer.
    /// - Returns: false when the input was stale (``Outcome/stale``: nothing changed);
    ///   true when it ran, or was queued from inside a handler.
    /// - Throws: as ``submit(_:)``.
    public func submitDiscardingBatch(_ input: Input) throws(CoreLogicFailure) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        switch try drain(input, keepCommands: false) {
        case .stale:
            return false
        case .queued:
            return true
        case .ran:
            // Popped one by one, keeping the storage for the next step's commands (the
            // ledger swaps it in): `removeAll(keepingCapacity:)` goes through a generic
            // replaceSubrange that costs several times more for the usual one or two.
            if !callCommands.isEmpty { while callCommands.popLast() != nil {} }
            if !callDropped.isEmpty { callDropped = [] }
            return true
        }
    }

    private func run(_ input: Input) throws(CoreLogicFailure) -> Outcome {
        switch try drain(input, keepCommands: true) {
        case .stale:
            return .stale
        case .queued:
            return .queued
        case .ran(let steps):
            // The batch takes the commands' storage; the next step starts a new one.
            var commands: [EffectCommand] = []
            if !callCommands.isEmpty {
                swap(&commands, &callCommands)
                handedCommands = commands
            }
            var dropped: [DroppedInput] = []
            if !callDropped.isEmpty { swap(&dropped, &callDropped) }
            return .applied(Batch(state: currentState, commands: commands, steps: steps, dropped: dropped))
        }
    }

    /// What ``drain(_:keepCommands:)`` did; the commands it produced are in `callCommands`,
    /// the inputs it dropped in `callDropped`.
    private enum Drained {
        case ran(steps: Int)
        case stale
        case queued
    }

    /// Runs `input` and everything queued behind it, collecting the commands in
    /// `callCommands` and the dropped inputs in `callDropped` (both empty on entry).
    /// `keepCommands` false: the caller does not read the commands, so a step makes them
    /// only for a command handler or the step observer (see `step`).
    @inline(__always)  // into both submits: the call and the returned enum cost a tenth of a small step
    private func drain(_ input: Input, keepCommands: Bool) throws(CoreLogicFailure) -> Drained {
        if closed { throw CoreLogicError(.handle, "\(F.name): the system is closed") }
        if let id = input.effectID, ledger.running[id] == nil {
            observer?.dropped(input)
            return .stale
        }
        if draining {
            queue.append(input)
            return .queued
        }
        try _willApply?(input)

        draining = true
        defer { draining = false }
        var steps = 1
        step(input, keepCommands, &callCommands)
        while queueHead < queue.count, !closed {
            let next = queue[queueHead]
            queueHead += 1
            if let id = next.effectID, ledger.running[id] == nil {
                observer?.dropped(next)
                continue
            }
            do {
                try _willApply?(next)
            } catch {
                observer?.rejected(next, error)
                callDropped.append(DroppedInput(input: next, error: error))
                continue
            }
            step(next, keepCommands, &callCommands)
            steps += 1
        }
        // Most steps queue nothing: clearing an empty queue would still make a new buffer.
        if !queue.isEmpty {
            queue.removeAll(keepingCapacity: queue.capacity <= 1024)
            queueHead = 0
        }
        return .ran(steps: steps)
    }

    /// Stops the system: handlers are dropped, queued inputs discarded, and every later
    /// call throws ``Status/handle``. Safe to call from inside a handler; the call that is
    /// draining finishes its current step and returns.
    public func close() {
        lock.withLock {
            closed = true
            commandHandler = nil
            stateHandler = nil
            _willApply = nil
            observer = nil
            queue.removeAll()
            queueHead = 0
        }
    }

    @inline(__always)
    private func step(_ input: Input, _ keepCommands: Bool, _ commands: inout [EffectCommand]) {
        stepsRun &+= 1
        let observer = self.observer
        observer?.willStep(input)
        switch input {
        case .send(let event), .deliver(_, let event):
            F.reduce(&currentState, event)
        case .complete(let id):
            if let owner = ledger.running.removeValue(forKey: id) {
                trackers[owner].completed(id)
            }
        }
        let first = commands.count
        if !trackers.isEmpty {
            // Commands nobody reads (no batch, no command handler, no observer) are not
            // made: the ledger still hands out ids and keeps the running set. Read before
            // each step: a handler may install a command handler or an observer.
            ledger.recordsCommands = keepCommands || commandHandler != nil || observer != nil
            if ledger.pending.capacity == 0 && handedCommands.capacity > 0 { reuseHandedCommands() }
            // The trackers read the state where it is (see EffectTracker.step): no copy.
            withUnsafeMutablePointer(to: &currentState) { Self.evaluate(trackers, $0, &ledger, into: &commands) }
        }
        observer?.didStep(input, currentState, commands[first...])
        // Handlers are read again before each call: one may remove itself or close the system.
        var index = first
        while index < commands.count, !closed, let handler = commandHandler {
            handler(commands[index])
            index += 1
        }
        if !closed, let handler = stateHandler { handler(currentState) }
    }

    /// Takes back the storage of the last batch's commands for this step's.
    @inline(never)  // out of the step's inlined body, which every feature runs
    private func reuseHandedCommands() {
        // Emptied in place once the last batch is gone (else a new one is made, as before).
        // From the end, one at a time: `removeAll(keepingCapacity:)` goes through the
        // general `replaceSubrange`, about 110 instructions more per playcatch event (measured).
        while !handedCommands.isEmpty { handedCommands.removeLast() }
        swap(&ledger.pending, &handedCommands)
    }

    private static func evaluate(
        _ trackers: [EffectTracker<F.State>], _ state: UnsafePointer<F.State>,
        _ ledger: inout EffectLedger, into commands: inout [EffectCommand]
    ) {
        if trackers.isEmpty { return }
        for index in trackers.indices {
            ledger.currentTracker = index
            trackers[index].step(state, &ledger)
        }
        ledger.drainCommands(into: &commands)
    }
}

extension System.Input {
    /// The effect an input is about; nil for `send`.
    public var effectID: UInt64? {
        switch self {
        case .send: return nil
        case .deliver(let id, _), .complete(let id): return id
        }
    }
}
