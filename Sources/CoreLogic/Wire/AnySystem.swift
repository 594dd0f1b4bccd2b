/// Receives a batch's bytes while the system is still locked.
public typealias BatchSink = (UnsafeRawBufferPointer) -> Void

/// What batches and the state handler carry (see `corelogic_system_set_output`).
public enum OutputMode: Int32, Sendable {
    /// The whole state: `{"state":{...},...}`. The default.
    case full = 0
    /// An RFC 6902 patch from the last emitted state: `{"revision":4,"base":3,"patch":[...],...}`.
    case patch = 1
}

/// A running system driven with JSON bytes, whatever its feature: what the C ABI and the
/// golden-file runners use. Each call is one ``System`` call plus decoding and encoding
/// (``WireSystem``, where the feature's type is known, so everything behind a call is
/// specialized for that feature); see ``System`` for the loop's rules (queue, stale inputs,
/// re-entrancy, threads) and docs/contract.md for the JSON shapes.
///
/// Calls that write a batch take a `batch` sink: it receives the batch's bytes while the
/// system is still locked, so a host copies them before another thread can run a step.
public final class AnySystem {
    /// The feature this system runs.
    public let featureName: String
    let base: any WireSystemProtocol

    init<F: Feature>(_ typed: WireSystem<F>) {
        featureName = F.name
        base = typed
    }

    /// Sets what batches and the state handler carry. Switching to `.patch` starts a new
    /// baseline; `snapshot`, if non-nil, receives `{"revision":R,"state":{...}}`: the state
    /// the next patch applies to. On error nothing changes.
    public func setOutput(_ mode: OutputMode, snapshot: inout [UInt8]?) throws { try base.setOutput(mode, snapshot: &snapshot) }

    /// Appends `{"revision":R,"state":{...}}`, the current state and its revision; in patch
    /// mode the next patch continues from it (how a host that missed a patch catches up).
    public func resync(into out: inout [UInt8]) throws { try base.resync(into: &out) }

    /// Watches the named state queries (empty: none); every later batch carries
    /// `"queries":{...}` with those whose JSON changed since the previous batch. `values`,
    /// if non-nil, receives the current value of each. Unknown names throw `.notFound`
    /// and change nothing.
    public func watchQueries(_ names: [String], values: inout [UInt8]?) throws { try base.watchQueries(names, values: &values) }

    /// Appends the creation batch (`steps` is 0): the effects the first state asks for.
    public func writeInitialBatch(into out: inout [UInt8]) throws { try base.writeInitialBatch(into: &out) }

    /// `send(event)`; returns `.ok` (also when queued from inside a handler).
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path; the state is unchanged.
    public func send(_ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        try base.send(event, batch: batch)
    }

    /// `deliver(effect, event)`; returns `.ok`, or `.stale` when the effect is not running.
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        try base.deliver(effect, event, batch: batch)
    }

    /// `complete(effect)`; returns `.ok`, or `.stale` when the effect is not running.
    public func complete(_ effect: UInt64, batch: BatchSink?) throws -> Status {
        try base.complete(effect, batch: batch)
    }

    /// Appends the current state.
    public func writeState(into out: inout [UInt8]) throws { try base.writeState(into: &out) }

    /// Appends the value of the named state query.
    /// - Throws: `.notFound` for an unknown name, with the valid names.
    public func writeQuery(_ name: String, into out: inout [UInt8]) throws { try base.writeQuery(name, into: &out) }

    /// Appends the running effects: `[{"id":1,"feedback":"loadPage","request":{...}}]`.
    public func writeEffects(into out: inout [UInt8]) throws { try base.writeEffects(into: &out) }

    /// Sets (or with nil removes) the handler called with each command's JSON (NUL-terminated).
    public func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { base.setCommandHandler(handler) }

    /// Sets (or with nil removes) the handler called with each new state's JSON (NUL-terminated).
    public func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { base.setStateHandler(handler) }

    /// Starts writing a trace to `sink` (replacing any previous one), or with nil stops
    /// (docs/inspector.md). The first line is written before this returns.
    /// - Throws: `.io` when the sink refuses the first line; tracing is then off.
    public func setTrace(_ sink: TraceSink?) throws { try base.setTrace(sink) }

    /// The next effect id the system will hand out.
    public var nextEffectID: UInt64 { base.nextEffectID }

    /// Stops the system (see ``System/close()``). A journal stays open until
    /// ``closeJournal()``.
    public func close() { base.close() }

    // MARK: Persistence (docs/persistence.md)

    /// Journals every accepted input into `directory` from now on: creates the directory
    /// (one level) if needed, locks it, and writes the first snapshot. On error nothing is
    /// left behind and the system journals nothing.
    /// - Throws: `.arg` if the system already journals or the directory already holds a
    ///   journal (restore it instead); `.io` naming the path and the system's reason.
    public func openJournal(directory: String, durability: Durability) throws {
        try base.openJournal(directory: directory, durability: durability)
    }

    /// Writes a snapshot and starts a fresh journal segment (docs/persistence.md).
    /// - Throws: `.arg` without a journal; `.io` when the snapshot cannot be written.
    public func checkpoint() throws { try base.checkpoint() }

    /// Forces written records to stable storage (interval durability; a no-op otherwise).
    public func syncJournal() throws { try base.syncJournal() }

    /// Stops journaling and releases the directory, waiting for a call running on another
    /// thread; a no-op without a journal.
    public func closeJournal() { base.closeJournal() }

    /// The directory this system journals into, if any.
    public var journalDirectory: String? { base.journalDirectory }

    /// Restores `descriptor`'s system from a journal `directory` (docs/persistence.md): the
    /// snapshot, every record after it replayed through the reducer, then the feedbacks
    /// evaluated once. The system journals on into the directory.
    /// - Returns: the system, the restore report (`{"snapshot":true,...}`) and the creation
    ///   batch, whose commands start the effects the restored state asks for.
    /// - Throws: `.io` (no such directory, locked by another journal), `.corrupt` naming the
    ///   file and line of damage.
    public static func restore(_ descriptor: FeatureDescriptor, directory: String) throws
        -> (system: AnySystem, report: [UInt8], batch: [UInt8]) {
        let restored = try Restore.run(descriptor, directory: directory)
        return (restored.system, restored.report, restored.batch)
    }

    /// Takes over `journal` (restore): checkpoints the restored state into it and journals on.
    func adopt(_ journal: Journal) throws { try base.adopt(journal) }
}

/// What ``AnySystem`` forwards to: ``WireSystem`` for each feature.
protocol WireSystemProtocol: AnyObject {
    func setOutput(_ mode: OutputMode, snapshot: inout [UInt8]?) throws
    func resync(into out: inout [UInt8]) throws
    func watchQueries(_ names: [String], values: inout [UInt8]?) throws
    func writeInitialBatch(into out: inout [UInt8]) throws
    func send(_ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status
    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status
    func complete(_ effect: UInt64, batch: BatchSink?) throws -> Status
    func writeState(into out: inout [UInt8]) throws
    func writeQuery(_ name: String, into out: inout [UInt8]) throws
    func writeEffects(into out: inout [UInt8]) throws
    func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?)
    func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?)
    func setTrace(_ sink: TraceSink?) throws
    var nextEffectID: UInt64 { get }
    func close()
    func openJournal(directory: String, durability: Durability) throws
    func checkpoint() throws
    func syncJournal() throws
    func closeJournal()
    var journalDirectory: String? { get }
    func adopt(_ journal: Journal) throws
}

extension WireSystem: WireSystemProtocol {}
