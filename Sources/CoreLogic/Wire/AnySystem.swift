/// Receives the JSON bytes of an output (a batch, a state, a query's value, a snapshot)
/// while the system is still locked: copy them before returning, and do not call the
/// system from inside (the bytes are its output buffer, written again by the next call).
public typealias JSONSink = (UnsafeRawBufferPointer) -> Void

/// What batches and the state handler carry (see `corelogic_system_set_output`).
public enum OutputMode: Int32, Sendable {
    /// The whole state: `{"state":{...},...}`. The default.
    case full = 0
    /// An RFC 6902 patch from the last emitted state: `{"revision":4,"base":3,"patch":[...],...}`.
    case patch = 1
}

/// A running system driven with JSON bytes, whatever its feature: what the C ABI and the
/// golden-file runners use. Each call is one ``System`` call plus decoding and encoding
/// (``WireSystem``); see ``System`` for the loop's rules (queue, stale inputs,
/// re-entrancy, threads) and docs/contract.md for the JSON shapes.
///
/// Every output is handed to a ``JSONSink``, while the system is still locked, so a host
/// copies the bytes before another thread can run a step. A sink does not escape, so a
/// caller's sink that captures locals needs no heap context (an escaping one costs about
/// 900 instructions more per call, measured with the counter). An input is sent with a
/// `batch` sink or without one; without a sink the system builds no batch at all.
///
/// Each call is declared once, on the `// calls.` line above the public method that makes
/// it: its closure's parameters, result and body, where `typed` is the ``WireSystem``.
/// From these lines `any_system_calls.py` writes the struct of closures (`Calls`) and its
/// initializer into AnySystem+Calls.swift (docs/architecture.md, "The calls of
/// `AnySystem`"). The closures are made in ``init(_:)``, where the feature's type is
/// known, so the code behind each one is specialized for that feature. A protocol or a
/// generic subclass would dispatch into `WireSystem<F>` compiled for any `F`, looking up
/// type metadata on every call: measured, about 7,000 more instructions per counter event
/// (`make bench-instructions`).
public final class AnySystem {
    /// The feature this system runs.
    public let featureName: String
    // One closure per call. A closure's sink is not optional, so that it need not escape:
    // a caller's sink that captures something is then made on its stack, not on the heap.
    // An input's Bool says whether a batch is wanted at all.
    private let calls: Calls

    private init(featureName: String, calls: Calls) {
        self.featureName = featureName
        self.calls = calls
    }

    // A convenience initializer: Embedded Swift allows no other generic one in a class.
    convenience init<F: Feature>(_ typed: WireSystem<F>) {
        self.init(featureName: F.name, calls: Calls(typed))
    }

    /// Sets what batches and the state handler carry. Switching to `.patch` starts a new
    /// baseline; `snapshot` receives `{"revision":R,"state":{...}}`: the state the next
    /// patch applies to. On error nothing changes and `snapshot` is not called.
    // calls.setOutput(mode: OutputMode, snapshot: JSONSink) throws(CoreLogicFailure) { try typed.setOutput(mode, snapshot: snapshot) }
    public func setOutput(_ mode: OutputMode, snapshot: JSONSink) throws(CoreLogicFailure) { try calls.setOutput(mode, snapshot) }

    /// Hands `{"revision":R,"state":{...}}`, the current state and its revision, to `sink`;
    /// in patch mode the next patch continues from it (how a host that missed a patch
    /// catches up).
    // calls.resync(sink: JSONSink) throws(CoreLogicFailure) { try typed.resync(to: sink) }
    public func resync(to sink: JSONSink) throws(CoreLogicFailure) { try calls.resync(sink) }

    /// Watches the named state queries (empty: none); every later batch carries
    /// `"queries":{...}` with those whose JSON changed since the previous batch. `values`
    /// receives the current value of each. Unknown names throw `.notFound` and change
    /// nothing.
    // calls.watchQueries(names: [String], values: JSONSink) throws(CoreLogicFailure) { try typed.watchQueries(names, values: values) }
    public func watchQueries(_ names: [String], values: JSONSink) throws(CoreLogicFailure) { try calls.watchQueries(names, values) }

    /// Hands the creation batch (`steps` is 0) to `sink`: the effects the first state asks for.
    // calls.writeInitialBatch(sink: JSONSink) throws(CoreLogicFailure) { try typed.writeInitialBatch(to: sink) }
    public func writeInitialBatch(to sink: JSONSink) throws(CoreLogicFailure) { try calls.writeInitialBatch(sink) }

    /// `send(event)`; returns `.ok` (also when queued from inside a handler). `batch`
    /// receives the step's batch; ``send(_:)`` is the same input with no batch built.
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path; the state is unchanged.
    // calls.send(event: UnsafeRawBufferPointer, wants: Bool, sink: JSONSink) throws(CoreLogicFailure) -> Status {
    //     try typed.send(event, wantsBatch: wants, sink: sink) }
    public func send(_ event: UnsafeRawBufferPointer, batch: JSONSink) throws(CoreLogicFailure) -> Status {
        try calls.send(event, true, batch)
    }
    public func send(_ event: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> Status {
        try calls.send(event, false, { _ in })
    }

    /// `deliver(effect, event)`; returns `.ok`, or `.stale` when the effect is not running.
    // calls.deliver(effect: UInt64, event: UnsafeRawBufferPointer, wants: Bool, sink: JSONSink) throws(CoreLogicFailure) -> Status {
    //     try typed.deliver(effect, event, wantsBatch: wants, sink: sink) }
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: JSONSink) throws(CoreLogicFailure) -> Status {
        try calls.deliver(effect, event, true, batch)
    }
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> Status {
        try calls.deliver(effect, event, false, { _ in })
    }

    /// `complete(effect)`; returns `.ok`, or `.stale` when the effect is not running.
    // calls.complete(effect: UInt64, wants: Bool, sink: JSONSink) throws(CoreLogicFailure) -> Status {
    //     try typed.complete(effect, wantsBatch: wants, sink: sink) }
    public func complete(_ effect: UInt64, batch: JSONSink) throws(CoreLogicFailure) -> Status {
        try calls.complete(effect, true, batch)
    }
    public func complete(_ effect: UInt64) throws(CoreLogicFailure) -> Status {
        try calls.complete(effect, false, { _ in })
    }

    /// Hands the current state to `sink`.
    /// - Throws: `.schema` when the state cannot be encoded; `sink` is not called.
    // calls.writeState(sink: JSONSink) throws(CoreLogicFailure) { try typed.writeState(to: sink) }
    public func writeState(to sink: JSONSink) throws(CoreLogicFailure) { try calls.writeState(sink) }

    /// Hands the value of the named state query to `sink`.
    /// - Throws: `.notFound` for an unknown name, with the valid names.
    // calls.writeQuery(name: String, sink: JSONSink) throws(CoreLogicFailure) { try typed.writeQuery(name, to: sink) }
    public func writeQuery(_ name: String, to sink: JSONSink) throws(CoreLogicFailure) { try calls.writeQuery(name, sink) }

    /// Hands the running effects to `sink`: `[{"id":1,"feedback":"loadPage","request":{...}}]`
    /// (a request that cannot be written as JSON is null).
    // calls.writeEffects(sink: JSONSink) { typed.writeEffects(to: sink) }
    public func writeEffects(to sink: JSONSink) { calls.writeEffects(sink) }

    /// Hands the feature's invariants that do not hold in the current state to `sink`, in
    /// declaration order: `[{"name":"itemsUniqueByID","message":"id 7 appears twice"}]`,
    /// `[]` when every one holds. Evaluates them now; a running system never does.
    // calls.writeBrokenInvariants(sink: JSONSink) { typed.writeBrokenInvariants(to: sink) }
    public func writeBrokenInvariants(to sink: JSONSink) { calls.writeBrokenInvariants(sink) }

    /// Sets (or with nil removes) the handler called with each command's JSON (NUL-terminated).
    // calls.setCommandHandler(handler: ((UnsafePointer<CChar>) -> Void)?) { typed.setCommandHandler(handler) }
    public func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { calls.setCommandHandler(handler) }

    /// Sets (or with nil removes) the handler called with each new state's JSON (NUL-terminated).
    // calls.setStateHandler(handler: ((UnsafePointer<CChar>) -> Void)?) { typed.setStateHandler(handler) }
    public func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { calls.setStateHandler(handler) }

    /// Starts writing a trace to `sink` (replacing any previous one), or with nil stops
    /// (docs/inspector.md). The first line is written before this returns.
    /// - Throws: `.io` when the sink refuses the first line; tracing is then off.
    #if !hasFeature(Embedded)
    // calls.setTrace(sink: TraceSink?) throws(CoreLogicFailure) { try typed.setTrace(sink) }
    public func setTrace(_ sink: TraceSink?) throws(CoreLogicFailure) { try calls.setTrace(sink) }
    #endif

    /// The next effect id the system will hand out.
    // calls.nextEffectID() -> UInt64 { typed.nextEffectID }
    public var nextEffectID: UInt64 { calls.nextEffectID() }

    /// Stops the system (see ``System/close()``). A journal stays open until
    /// ``closeJournal()``.
    // calls.close() { typed.close() }
    public func close() { calls.close() }

    #if !hasFeature(Embedded)
    // MARK: Persistence (docs/persistence.md)

    /// Journals every accepted input into `directory` from now on: creates the directory
    /// (one level) if needed, locks it, and writes the first snapshot. On error nothing is
    /// left behind and the system journals nothing.
    /// - Throws: `.arg` if the system already journals or the directory already holds a
    ///   journal (restore it instead); `.io` naming the path and the system's reason.
    // calls.openJournal(directory: FileSystemPath, durability: Durability) throws(CoreLogicFailure) {
    //     try typed.openJournal(directory: directory, durability: durability) }
    public func openJournal(directory: FileSystemPath, durability: Durability) throws(CoreLogicFailure) {
        try calls.openJournal(directory, durability)
    }

    /// As above, with the directory spelled as text (its UTF-8 bytes).
    /// - Throws: `.arg` also when the path holds a NUL.
    public func openJournal(directory: String, durability: Durability) throws(CoreLogicFailure) {
        guard let path = FileSystemPath(directory) else { throw CoreLogicError(.arg, "the directory path holds a NUL byte") }
        try calls.openJournal(path, durability)
    }

    /// Writes a snapshot and starts a fresh journal segment (docs/persistence.md).
    /// - Throws: `.arg` without a journal; `.io` when the snapshot cannot be written.
    // calls.checkpoint() throws(CoreLogicFailure) { try typed.checkpoint() }
    public func checkpoint() throws(CoreLogicFailure) { try calls.checkpoint() }

    /// Forces written records to stable storage (interval durability; a no-op otherwise).
    // calls.syncJournal() throws(CoreLogicFailure) { try typed.syncJournal() }
    public func syncJournal() throws(CoreLogicFailure) { try calls.syncJournal() }

    /// Stops journaling and releases the directory, waiting for a call running on another
    /// thread; a no-op without a journal.
    // calls.closeJournal() { typed.closeJournal() }
    public func closeJournal() { calls.closeJournal() }


    /// Restores `descriptor`'s system from a journal `directory` (docs/persistence.md): the
    /// snapshot, every record after it replayed through the reducer, then the feedbacks
    /// evaluated once. The system journals on into the directory.
    /// - Returns: the system, the restore report (`{"snapshot":true,...}`) and the creation
    ///   batch, whose commands start the effects the restored state asks for.
    /// - Throws: `.io` (no such directory, locked by another journal), `.corrupt` naming the
    ///   file and line of damage.
    public static func restore(_ descriptor: FeatureDescriptor, directory: FileSystemPath) throws(CoreLogicFailure)
        -> (system: AnySystem, report: [UInt8], batch: [UInt8]) {
        let restored = try Restore.run(descriptor, directory: directory)
        return (restored.system, restored.report, restored.batch)
    }

    /// As above, with the directory spelled as text (its UTF-8 bytes).
    /// - Throws: `.arg` also when the path holds a NUL.
    public static func restore(_ descriptor: FeatureDescriptor, directory: String) throws(CoreLogicFailure)
        -> (system: AnySystem, report: [UInt8], batch: [UInt8]) {
        guard let path = FileSystemPath(directory) else { throw CoreLogicError(.arg, "the directory path holds a NUL byte") }
        return try restore(descriptor, directory: path)
    }

    /// Takes over `journal` (restore): checkpoints the restored state into it and journals on.
    // calls.adopt(journal: Journal) throws(CoreLogicFailure) { try typed.adopt(journal) }
    func adopt(_ journal: Journal) throws(CoreLogicFailure) { try calls.adopt(journal) }
    #endif
}
