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
/// (``WireSystem``); see ``System`` for the loop's rules (queue, stale inputs,
/// re-entrancy, threads) and docs/contract.md for the JSON shapes.
///
/// An input is sent with a `batch` sink or without one. The sink receives the batch's
/// bytes while the system is still locked, so a host copies them before another thread
/// can run a step; it does not escape, so a caller's sink that captures locals needs no
/// heap context. Without a sink the system builds no batch at all.
///
/// Each operation is a public method with, just below it, the closure it calls; the
/// closures are made in ``init(_:)``, where the feature's type is known, so the code
/// behind each one is specialized for that feature. A protocol or a generic subclass
/// would dispatch into `WireSystem<F>` compiled for any `F`, looking up type metadata on
/// every call: measured, about 7,000 more instructions per counter event
/// (`make bench-instructions`).
public final class AnySystem {
    /// The feature this system runs.
    public let featureName: String

    init<F: Feature>(_ typed: WireSystem<F>) {
        featureName = F.name
        _setOutput = { try typed.setOutput($0, snapshot: &$1) }
        _resync = { try typed.resync(into: &$0) }
        _watchQueries = { try typed.watchQueries($0, values: &$1) }
        _writeInitialBatch = { try typed.writeInitialBatch(into: &$0) }
        _send = { try typed.send($0, wantsBatch: $1, sink: $2) }
        _deliver = { try typed.deliver($0, $1, wantsBatch: $2, sink: $3) }
        _complete = { try typed.complete($0, wantsBatch: $1, sink: $2) }
        _writeState = { try typed.writeState(into: &$0) }
        _writeQuery = { try typed.writeQuery($0, into: &$1) }
        _writeEffects = { try typed.writeEffects(into: &$0) }
        _writeBrokenInvariants = { typed.writeBrokenInvariants(into: &$0) }
        _setCommandHandler = { typed.setCommandHandler($0) }
        _setStateHandler = { typed.setStateHandler($0) }
        _setTrace = { try typed.setTrace($0) }
        _nextEffectID = { typed.nextEffectID }
        _close = { typed.close() }
        _openJournal = { try typed.openJournal(directory: $0, durability: $1) }
        _checkpoint = { try typed.checkpoint() }
        _syncJournal = { try typed.syncJournal() }
        _closeJournal = { typed.closeJournal() }
        _adopt = { try typed.adopt($0) }
    }

    /// Sets what batches and the state handler carry. Switching to `.patch` starts a new
    /// baseline; `snapshot`, if non-nil, receives `{"revision":R,"state":{...}}`: the state
    /// the next patch applies to. On error nothing changes.
    public func setOutput(_ mode: OutputMode, snapshot: inout [UInt8]?) throws { try _setOutput(mode, &snapshot) }
    private let _setOutput: (OutputMode, inout [UInt8]?) throws -> Void

    /// Appends `{"revision":R,"state":{...}}`, the current state and its revision; in patch
    /// mode the next patch continues from it (how a host that missed a patch catches up).
    public func resync(into out: inout [UInt8]) throws { try _resync(&out) }
    private let _resync: (inout [UInt8]) throws -> Void

    /// Watches the named state queries (empty: none); every later batch carries
    /// `"queries":{...}` with those whose JSON changed since the previous batch. `values`,
    /// if non-nil, receives the current value of each. Unknown names throw `.notFound`
    /// and change nothing.
    public func watchQueries(_ names: [String], values: inout [UInt8]?) throws { try _watchQueries(names, &values) }
    private let _watchQueries: ([String], inout [UInt8]?) throws -> Void

    /// Appends the creation batch (`steps` is 0): the effects the first state asks for.
    public func writeInitialBatch(into out: inout [UInt8]) throws { try _writeInitialBatch(&out) }
    private let _writeInitialBatch: (inout [UInt8]) throws -> Void

    /// `send(event)`; returns `.ok` (also when queued from inside a handler). `batch`
    /// receives the step's batch; ``send(_:)`` is the same input with no batch built.
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path; the state is unchanged.
    public func send(_ event: UnsafeRawBufferPointer, batch: BatchSink) throws -> Status { try _send(event, true, batch) }
    public func send(_ event: UnsafeRawBufferPointer) throws -> Status { try _send(event, false, { _ in }) }
    private let _send: (UnsafeRawBufferPointer, Bool, BatchSink) throws -> Status

    /// `deliver(effect, event)`; returns `.ok`, or `.stale` when the effect is not running.
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink) throws -> Status {
        try _deliver(effect, event, true, batch)
    }
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer) throws -> Status {
        try _deliver(effect, event, false, { _ in })
    }
    private let _deliver: (UInt64, UnsafeRawBufferPointer, Bool, BatchSink) throws -> Status

    /// `complete(effect)`; returns `.ok`, or `.stale` when the effect is not running.
    public func complete(_ effect: UInt64, batch: BatchSink) throws -> Status { try _complete(effect, true, batch) }
    public func complete(_ effect: UInt64) throws -> Status { try _complete(effect, false, { _ in }) }
    private let _complete: (UInt64, Bool, BatchSink) throws -> Status

    /// Appends the current state.
    public func writeState(into out: inout [UInt8]) throws { try _writeState(&out) }
    private let _writeState: (inout [UInt8]) throws -> Void

    /// Appends the value of the named state query.
    /// - Throws: `.notFound` for an unknown name, with the valid names.
    public func writeQuery(_ name: String, into out: inout [UInt8]) throws { try _writeQuery(name, &out) }
    private let _writeQuery: (String, inout [UInt8]) throws -> Void

    /// Appends the running effects: `[{"id":1,"feedback":"loadPage","request":{...}}]`.
    public func writeEffects(into out: inout [UInt8]) throws { try _writeEffects(&out) }
    private let _writeEffects: (inout [UInt8]) throws -> Void

    /// Appends the feature's invariants that do not hold in the current state, in
    /// declaration order: `[{"name":"itemsUniqueByID","message":"id 7 appears twice"}]`,
    /// `[]` when every one holds. Evaluates them now; a running system never does.
    public func writeBrokenInvariants(into out: inout [UInt8]) { _writeBrokenInvariants(&out) }
    private let _writeBrokenInvariants: (inout [UInt8]) -> Void

    /// Sets (or with nil removes) the handler called with each command's JSON (NUL-terminated).
    public func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { _setCommandHandler(handler) }
    private let _setCommandHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void

    /// Sets (or with nil removes) the handler called with each new state's JSON (NUL-terminated).
    public func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { _setStateHandler(handler) }
    private let _setStateHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void

    /// Starts writing a trace to `sink` (replacing any previous one), or with nil stops
    /// (docs/inspector.md). The first line is written before this returns.
    /// - Throws: `.io` when the sink refuses the first line; tracing is then off.
    public func setTrace(_ sink: TraceSink?) throws { try _setTrace(sink) }
    private let _setTrace: (TraceSink?) throws -> Void

    /// The next effect id the system will hand out.
    public var nextEffectID: UInt64 { _nextEffectID() }
    private let _nextEffectID: () -> UInt64

    /// Stops the system (see ``System/close()``). A journal stays open until
    /// ``closeJournal()``.
    public func close() { _close() }
    private let _close: () -> Void

    // MARK: Persistence (docs/persistence.md)

    /// Journals every accepted input into `directory` from now on: creates the directory
    /// (one level) if needed, locks it, and writes the first snapshot. On error nothing is
    /// left behind and the system journals nothing.
    /// - Throws: `.arg` if the system already journals or the directory already holds a
    ///   journal (restore it instead); `.io` naming the path and the system's reason.
    public func openJournal(directory: FileSystemPath, durability: Durability) throws {
        try _openJournal(directory, durability)
    }
    private let _openJournal: (FileSystemPath, Durability) throws -> Void

    /// As above, with the directory spelled as text (its UTF-8 bytes).
    /// - Throws: `.arg` also when the path holds a NUL.
    public func openJournal(directory: String, durability: Durability) throws {
        guard let path = FileSystemPath(directory) else { throw CoreLogicError(.arg, "the directory path holds a NUL byte") }
        try _openJournal(path, durability)
    }

    /// Writes a snapshot and starts a fresh journal segment (docs/persistence.md).
    /// - Throws: `.arg` without a journal; `.io` when the snapshot cannot be written.
    public func checkpoint() throws { try _checkpoint() }
    private let _checkpoint: () throws -> Void

    /// Forces written records to stable storage (interval durability; a no-op otherwise).
    public func syncJournal() throws { try _syncJournal() }
    private let _syncJournal: () throws -> Void

    /// Stops journaling and releases the directory, waiting for a call running on another
    /// thread; a no-op without a journal.
    public func closeJournal() { _closeJournal() }
    private let _closeJournal: () -> Void

    /// Restores `descriptor`'s system from a journal `directory` (docs/persistence.md): the
    /// snapshot, every record after it replayed through the reducer, then the feedbacks
    /// evaluated once. The system journals on into the directory.
    /// - Returns: the system, the restore report (`{"snapshot":true,...}`) and the creation
    ///   batch, whose commands start the effects the restored state asks for.
    /// - Throws: `.io` (no such directory, locked by another journal), `.corrupt` naming the
    ///   file and line of damage.
    public static func restore(_ descriptor: FeatureDescriptor, directory: FileSystemPath) throws
        -> (system: AnySystem, report: [UInt8], batch: [UInt8]) {
        let restored = try Restore.run(descriptor, directory: directory)
        return (restored.system, restored.report, restored.batch)
    }

    /// As above, with the directory spelled as text (its UTF-8 bytes).
    /// - Throws: `.arg` also when the path holds a NUL.
    public static func restore(_ descriptor: FeatureDescriptor, directory: String) throws
        -> (system: AnySystem, report: [UInt8], batch: [UInt8]) {
        guard let path = FileSystemPath(directory) else { throw CoreLogicError(.arg, "the directory path holds a NUL byte") }
        return try restore(descriptor, directory: path)
    }

    /// Takes over `journal` (restore): checkpoints the restored state into it and journals on.
    func adopt(_ journal: Journal) throws { try _adopt(journal) }
    private let _adopt: (Journal) throws -> Void
}
