/// Receives a batch's bytes while the system is still locked.
public typealias BatchSink = (UnsafeRawBufferPointer) -> Void

/// What batches and the state handler carry (see `corelogic_system_set_output`).
public enum OutputMode: Int32, Sendable {
    /// The whole state: `{"state":{...},...}`. The default.
    case full = 0
    /// An RFC 6902 patch from the last emitted state: `{"revision":4,"base":3,"patch":[...],...}`.
    case patch = 1
}

/// A running system driven with JSON bytes: what the C ABI and the golden-file runners
/// use. Each call is one ``System`` call plus decoding and encoding; see ``System`` for
/// the loop's rules (queue, stale inputs, re-entrancy, threads).
///
/// Calls that write a batch take a `batch` sink: it receives the batch's bytes while the
/// system is still locked, so a host copies them before another thread can run a step.
///
/// The class is not generic: it holds closures made where the feature's type is known,
/// so the code behind every call is specialized for that feature (no generic dispatch
/// on the per-event path).
public final class JSONSystem {
    /// The feature this system runs.
    public let featureName: String
    private let initialBatch: (inout [UInt8]) throws -> Void
    // The sink parameters are not optional so that they need not escape: a caller's sink
    // that captures something is then built on its stack, not on the heap. The Bool says
    // whether a batch is wanted at all.
    private let sendEvent: (UnsafeRawBufferPointer, Bool, (UnsafeRawBufferPointer) -> Void) throws -> Status
    private let deliverEvent: (UInt64, UnsafeRawBufferPointer, Bool, (UnsafeRawBufferPointer) -> Void) throws -> Status
    private let completeEffect: (UInt64, Bool, (UnsafeRawBufferPointer) -> Void) throws -> Status
    private let state: (inout [UInt8]) throws -> Void
    private let query: (String, inout [UInt8]) throws -> Void
    private let effects: (inout [UInt8]) throws -> Void
    private let commandHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void
    private let stateHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void
    private let inputHook: (((InputRecord) throws -> Void)?) -> Void
    private let effectID: () -> UInt64
    private let stop: () -> Void
    private let exclusive: (() throws -> Void) throws -> Void
    private let output: (OutputMode, inout [UInt8]?) throws -> Void
    private let resyncState: (inout [UInt8]) throws -> Void
    private let watch: ([String], inout [UInt8]?) throws -> Void
    private let trace: (TraceSink?) throws -> Void

    init<F: Feature>(_ typed: JSONFeatureSystem<F>) {
        featureName = F.name
        initialBatch = { try typed.writeInitialBatch(into: &$0) }
        sendEvent = { try typed.send($0, wantsBatch: $1, sink: $2) }
        deliverEvent = { try typed.deliver($0, $1, wantsBatch: $2, sink: $3) }
        completeEffect = { try typed.complete($0, wantsBatch: $1, sink: $2) }
        state = { try typed.writeState(into: &$0) }
        query = { try typed.writeQuery($0, into: &$1) }
        effects = { try typed.writeEffects(into: &$0) }
        commandHandler = { typed.setCommandHandler($0) }
        stateHandler = { typed.setStateHandler($0) }
        inputHook = { typed.setInputHook($0) }
        effectID = { typed.nextEffectID }
        stop = { typed.close() }
        exclusive = { body in try typed.withExclusiveAccess(body) }
        output = { try typed.setOutput($0, snapshot: &$1) }
        resyncState = { try typed.resync(into: &$0) }
        watch = { try typed.watchQueries($0, values: &$1) }
        trace = { try typed.setTrace($0) }
    }

    /// Sets what batches and the state handler carry. Switching to `.patch` starts a new
    /// baseline; `snapshot`, if non-nil, receives `{"revision":R,"state":{...}}`: the state
    /// the next patch applies to. On error nothing changes.
    public func setOutput(_ mode: OutputMode, snapshot: inout [UInt8]?) throws { try output(mode, &snapshot) }

    /// Appends `{"revision":R,"state":{...}}`, the current state and its revision; in patch
    /// mode the next patch continues from it (how a host that missed a patch catches up).
    public func resync(into out: inout [UInt8]) throws { try resyncState(&out) }

    /// Watches the named state queries (empty: none); every later batch carries
    /// `"queries":{...}` with those whose JSON changed since the previous batch. `values`,
    /// if non-nil, receives the current value of each. Unknown names throw `.notFound`
    /// and change nothing.
    public func watchQueries(_ names: [String], values: inout [UInt8]?) throws { try watch(names, &values) }

    /// Appends the creation batch (`steps` is 0): the effects the first state asks for.
    public func writeInitialBatch(into out: inout [UInt8]) throws { try initialBatch(&out) }

    /// `send(event)`; returns `.ok` (also when queued from inside a handler).
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path; the state is unchanged.
    public func send(_ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        if let batch { return try sendEvent(event, true, batch) }
        return try sendEvent(event, false, { _ in })
    }

    /// `deliver(effect, event)`; returns `.ok`, or `.stale` when the effect is not running.
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        if let batch { return try deliverEvent(effect, event, true, batch) }
        return try deliverEvent(effect, event, false, { _ in })
    }

    /// `complete(effect)`; returns `.ok`, or `.stale` when the effect is not running.
    public func complete(_ effect: UInt64, batch: BatchSink?) throws -> Status {
        if let batch { return try completeEffect(effect, true, batch) }
        return try completeEffect(effect, false, { _ in })
    }

    /// ``send(_:batch:)`` with a sink that does not escape (the C ABI's: no heap context).
    public func send(_ event: UnsafeRawBufferPointer, batchTo sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        try sendEvent(event, true, sink)
    }

    /// ``deliver(_:_:batch:)`` with a sink that does not escape.
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batchTo sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        try deliverEvent(effect, event, true, sink)
    }

    /// ``complete(_:batch:)`` with a sink that does not escape.
    public func complete(_ effect: UInt64, batchTo sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        try completeEffect(effect, true, sink)
    }

    /// Appends the current state.
    public func writeState(into out: inout [UInt8]) throws { try state(&out) }

    /// Appends the value of the named state query.
    /// - Throws: `.notFound` for an unknown name, with the valid names.
    public func writeQuery(_ name: String, into out: inout [UInt8]) throws { try query(name, &out) }

    /// Appends the running effects: `[{"id":1,"feedback":"loadPage","request":{...}}]`.
    public func writeEffects(into out: inout [UInt8]) throws { try effects(&out) }

    /// Sets (or with nil removes) the handler called with each command's JSON (NUL-terminated).
    public func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { commandHandler(handler) }

    /// Sets (or with nil removes) the handler called with each new state's JSON (NUL-terminated).
    public func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) { stateHandler(handler) }

    /// Sets (or with nil removes) the hook that sees every accepted input before it is
    /// applied; throwing rejects the input (journaling).
    public func setInputHook(_ hook: ((InputRecord) throws -> Void)?) { inputHook(hook) }

    /// Starts writing a trace to `sink` (replacing any previous one), or with nil stops
    /// (docs/inspector.md). The first line is written before this returns.
    /// - Throws: `.io` when the sink refuses the first line; tracing is then off.
    public func setTrace(_ sink: TraceSink?) throws { try trace(sink) }

    /// The next effect id the system will hand out.
    public var nextEffectID: UInt64 { effectID() }

    /// Stops the system (see ``System/close()``).
    public func close() { stop() }

    /// ``withExclusiveAccess(_:)`` for a body that cannot fail.
    public func withLock(_ body: () -> Void) {
        try? exclusive { body() }
    }

    /// Runs `body` with no step running meanwhile (see ``System/withExclusiveAccess(_:)``);
    /// checkpoints use it to read state, next effect id and journal position at one point.
    public func withExclusiveAccess<R>(_ body: () throws -> R) throws -> R {
        var result: R?
        try exclusive { result = try body() }
        guard let result else { throw CoreLogicError(.arg, "\(featureName): exclusive access produced no result") }
        return result
    }
}

final class JSONFeatureSystem<F: Feature> {
    let system: System<F>
    /// Bytes of the command or state being handed to a handler; reused, drained under the lock.
    /// Unchecked exclusivity (both buffers): used only under the system's lock, by one
    /// writer at a time (see ``System``'s stored properties).
    @exclusivity(unchecked) private var handlerScratch = ByteScratch(capacity: 256)
    /// The batch being written: one buffer for the life of the system, handed to the sink
    /// in place.
    @exclusivity(unchecked) private var batchScratch = ByteScratch(capacity: 512)
    /// The trace being written, if any (Trace/); read and written under the system's lock.
    var tracer: TraceRecorder<F>?

    private let payloadless: PayloadlessEvents<F.Event>
    /// `F.queries` is computed; it is read once here, not on every query.
    let queries: [StateQuery<F.State>]

    // Output (read and written only while the system's lock is held, never passed inout,
    // so no two accesses overlap: unchecked exclusivity, as for the scratch buffers).
    /// Non-nil in patch mode: the shadow of the last state emitted.
    @exclusivity(unchecked) private var differ: StateDiffer<F.State>?
    /// The revision of the last state emitted in patch mode: the next patch's `base`.
    @exclusivity(unchecked) private var emittedRevision: UInt64 = 0
    /// Watched queries with the JSON of the value last reported.
    @exclusivity(unchecked) private var watched: [(name: String, query: StateQuery<F.State>, last: [UInt8])] = []

    init(_ system: System<F>, payloadless: PayloadlessEvents<F.Event>) {
        self.system = system
        self.payloadless = payloadless
        self.queries = F.queries
    }

    deinit {
        handlerScratch.release()
        batchScratch.release()
    }

    var nextEffectID: UInt64 { system.nextEffectID }

    static func decodeState(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws -> F.State {
        try mapErrors("state") { try JSONCoding.decode(F.State.self, from: bytes, limits: limits) }
    }

    static func decodeEvent(_ bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default) throws -> F.Event {
        try mapErrors("event") { try JSONCoding.decode(F.Event.self, from: bytes, limits: limits) }
    }

    func writeInitialBatch(into out: inout [UInt8]) throws {
        // Under the lock: the batch is written in the shared buffer.
        try system.withExclusiveAccess {
            batchScratch.removeAll()
            try writeBatch(system.initialBatch, queued: false, into: &batchScratch)
            out.append(contentsOf: batchScratch.bytes)
        }
    }

    func send(_ event: UnsafeRawBufferPointer, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        do {
            let decoded = try payloadless.match(event) ?? Self.decodeEvent(event)
            return try run(.send(decoded), source: event, wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.send, effect: nil, raw: event, error)
            throw error
        }
    }

    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        do {
            let decoded = try payloadless.match(event) ?? Self.decodeEvent(event)
            return try run(.deliver(effect: effect, event: decoded), source: event, wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.deliver, effect: effect, raw: event, error)
            throw error
        }
    }

    func complete(_ effect: UInt64, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws -> Status {
        do {
            return try run(.complete(effect: effect), wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.complete, effect: effect, raw: nil, error)
            throw error
        }
    }

    private func run(
        _ input: System<F>.Input, source: UnsafeRawBufferPointer? = nil,
        wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void
    ) throws -> Status {
        guard wantsBatch else {
            // Nobody reads the batch: the system builds none (no copy of the state, no
            // command list) and nothing is written.
            return try system.submitDiscardingBatch(input, source: source) ? .ok : .stale
        }
        // The sink runs inside the system's lock (submit's batch is built under it), so the
        // scratch buffer cannot be overwritten by another thread's step in between.
        var status = Status.ok
        try system.submit(input, source: source) { outcome in
            switch outcome {
            case .stale:
                status = .stale
            case .queued:
                try emit(System<F>.Batch(state: system.state, commands: [], steps: 0), queued: true, to: sink)
            case .applied(let batch):
                try emit(batch, queued: false, to: sink)
            }
        }
        return status
    }

    private func emit(_ batch: System<F>.Batch, queued: Bool, to sink: (UnsafeRawBufferPointer) -> Void) throws {
        batchScratch.removeAll()
        try writeBatch(batch, queued: queued, into: &batchScratch)
        sink(batchScratch.bytes)
    }

    /// Writes a batch in the current output mode. A queued call's batch (steps 0) reports
    /// nothing new: an empty patch at the last emitted revision, no changed queries.
    private func writeBatch(_ batch: System<F>.Batch, queued: Bool, into out: inout ByteScratch) throws {
        if let differ {
            let revision = queued ? emittedRevision : system.revision
            writeRevisionHeader(revision: revision, base: emittedRevision, into: &out)
            if queued {
                out.append("[]")
            } else {
                try Self.mapErrors("state") { try out.appendPiece { try differ.diff(to: batch.state, into: &$0) } }
                emittedRevision = revision
            }
        } else {
            out.append(#"{"state":"#)
            try Self.mapErrors("state") { try out.appendPiece { try JSONCoding.encode(batch.state, into: &$0) } }
        }
        if !watched.isEmpty {
            out.append(#","queries":{"#)
            if !queued { try writeChangedQueries(batch.state, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
        out.append(#","effects":["#)
        for (index, command) in batch.commands.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            Self.writeCommand(command, into: &out)
        }
        out.append(#"],"steps":"#)
        JSONWriter.writeUInt(UInt64(batch.steps), into: &out)
        if !batch.dropped.isEmpty {
            out.append(#","dropped":["#)
            for (index, dropped) in batch.dropped.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.appendPiece { Self.writeDropped(dropped, into: &$0) }
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"input":{"send":<event>},"status":"CORELOGIC_ERR_IO","error":"..."}`: an input a
    /// handler queued that was rejected, in the journal's input shape.
    static func writeDropped(_ dropped: System<F>.DroppedInput, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"input":"#.utf8)
        func event(_ event: F.Event) {
            // An event that was decoded from JSON encodes again; null if it somehow cannot.
            if (try? JSONCoding.encode(event, into: &out)) == nil { out.append(contentsOf: "null".utf8) }
        }
        switch dropped.input {
        case .send(let sent):
            out.append(contentsOf: #"{"send":"#.utf8)
            event(sent)
            out.append(UInt8(ascii: "}"))
        case .deliver(let effect, let delivered):
            out.append(contentsOf: #"{"deliver":{"effect":"#.utf8)
            JSONWriter.writeUnsigned(effect, into: &out)
            out.append(contentsOf: #","event":"#.utf8)
            event(delivered)
            out.append(contentsOf: "}}".utf8)
        case .complete(let effect):
            out.append(contentsOf: #"{"complete":{"effect":"#.utf8)
            JSONWriter.writeUnsigned(effect, into: &out)
            out.append(contentsOf: "}}".utf8)
        }
        let error = dropped.error as? CoreLogicError ?? CoreLogicError(.io, "\(dropped.error)")
        out.append(contentsOf: #","status":"#.utf8)
        JSONWriter.writeString(error.status.constantName, into: &out)
        out.append(contentsOf: #","error":"#.utf8)
        JSONWriter.writeString(error.message, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func writeCommand(_ command: EffectCommand, into out: inout ByteScratch) {
        switch command {
        case .cancel(let id):
            out.append(#"{"cancel":"#)
            JSONWriter.writeUInt(id, into: &out)
            out.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            out.append(#"{"start":{"id":"#)
            JSONWriter.writeUInt(id, into: &out)
            out.append(#","feedback":"#)
            JSONWriter.writeString(feedback, into: &out)
            out.append(#","request":"#)
            // The step that started this effect has run, so the command must reach the
            // host: a request that cannot be written as JSON (a non-finite number, which
            // JSON input cannot produce, so a feature's bug) is written as null rather
            // than failing the call after the change or skipping the command.
            if (try? out.appendPiece({ try encodeOpened(request, into: &$0) })) == nil { out.append("null") }
            out.append("}}")
        }
    }

    private func writeRevisionHeader(revision: UInt64, base: UInt64, into out: inout ByteScratch) {
        out.append(#"{"revision":"#)
        JSONWriter.writeUInt(revision, into: &out)
        out.append(#","base":"#)
        JSONWriter.writeUInt(base, into: &out)
        out.append(#","patch":"#)
    }

    /// Appends `"name":value` for each watched query whose JSON changed since it was last
    /// reported, and remembers the new values.
    private func writeChangedQueries(_ state: F.State, into out: inout ByteScratch) throws {
        var first = true
        for index in watched.indices {
            var value: [UInt8] = []
            try Self.mapErrors("query") { try encodeOpened(watched[index].query.evaluate(state), into: &value) }
            if value == watched[index].last { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(watched[index].name, into: &out)
            out.append(UInt8(ascii: ":"))
            value.withUnsafeBufferPointer { out.appendBytes($0) }
            watched[index].last = value
        }
    }

    func setOutput(_ mode: OutputMode, snapshot: inout [UInt8]?) throws {
        try system.withExclusiveAccess {
            switch mode {
            case .full:
                differ = nil
            case .patch:
                try rebaseline()
            }
            if snapshot != nil { try writeSnapshot(into: &snapshot!) }
        }
    }

    func resync(into out: inout [UInt8]) throws {
        try system.withExclusiveAccess {
            if differ != nil { try rebaseline() }
            try writeSnapshot(into: &out)
        }
    }

    /// A new shadow of the current state; the previous one stays if this throws.
    private func rebaseline() throws {
        let fresh = StateDiffer<F.State>()
        try Self.mapErrors("state") { try fresh.reset(to: system.state) }
        differ = fresh
        emittedRevision = system.revision
    }

    private func writeSnapshot(into out: inout [UInt8]) throws {
        out.append(contentsOf: #"{"revision":"#.utf8)
        JSONWriter.writeUnsigned(system.revision, into: &out)
        out.append(contentsOf: #","state":"#.utf8)
        try Self.mapErrors("state") { try JSONCoding.encode(system.state, into: &out) }
        out.append(UInt8(ascii: "}"))
    }

    func watchQueries(_ names: [String], values: inout [UInt8]?) throws {
        var chosen: [(name: String, query: StateQuery<F.State>, last: [UInt8])] = []
        for name in names where !chosen.contains(where: { $0.name == name }) {
            guard let query = queries.first(where: { $0.name == name }) else {
                let valid = queries.map(\.name).joined(separator: ", ")
                throw CoreLogicError(.notFound, "\(F.name) has no query '\(name)'; queries: \(valid.isEmpty ? "(none)" : valid)")
            }
            chosen.append((name, query, []))
        }
        try system.withExclusiveAccess {
            let state = system.state
            var out: [UInt8] = [UInt8(ascii: "{")]
            for index in chosen.indices {
                try Self.mapErrors("query") { try encodeOpened(chosen[index].query.evaluate(state), into: &chosen[index].last) }
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(chosen[index].name, into: &out)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: chosen[index].last)
            }
            out.append(UInt8(ascii: "}"))
            watched = chosen
            if values != nil { values = out }
        }
    }

    func writeState(into out: inout [UInt8]) throws {
        let state = system.state
        try Self.mapErrors("state") { try JSONCoding.encode(state, into: &out) }
    }

    func writeQuery(_ name: String, into out: inout [UInt8]) throws {
        guard let query = queries.first(where: { $0.name == name }) else {
            let valid = queries.map(\.name).joined(separator: ", ")
            throw CoreLogicError(.notFound, "\(F.name) has no query '\(name)'; queries: \(valid.isEmpty ? "(none)" : valid)")
        }
        let value = query.evaluate(system.state)
        try Self.mapErrors("query") { try encodeOpened(value, into: &out) }
    }

    func writeEffects(into out: inout [UInt8]) throws {
        out.append(UInt8(ascii: "["))
        for (index, effect) in system.runningEffects.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"id":"#.utf8)
            JSONWriter.writeUnsigned(effect.id, into: &out)
            out.append(contentsOf: #","feedback":"#.utf8)
            JSONWriter.writeString(effect.feedback, into: &out)
            out.append(contentsOf: #","request":"#.utf8)
            // As in writeCommand: a request that cannot be written as JSON is null.
            if (try? encodeOpened(effect.request, into: &out)) == nil { out.append(contentsOf: "null".utf8) }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) {
        guard let handler else {
            system.onCommand = nil
            return
        }
        system.onCommand = { [unowned self] command in
            handlerScratch.removeAll()
            // Commands always encode (see writeCommand: a request that cannot is null).
            Self.writeCommand(command, into: &handlerScratch)
            Self.callWithCString(&handlerScratch, handler)
        }
    }

    func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) {
        guard let handler else {
            system.onState = nil
            return
        }
        system.onState = { [unowned self] state in
            handlerScratch.removeAll()
            if let differ {
                // One patch per step, continuing from the last one emitted.
                let revision = system.revision
                writeRevisionHeader(revision: revision, base: emittedRevision, into: &handlerScratch)
                guard (try? handlerScratch.appendPiece({ try differ.diff(to: state, into: &$0) })) != nil else { return }
                handlerScratch.append(UInt8(ascii: "}"))
                emittedRevision = revision
            } else {
                guard (try? handlerScratch.appendPiece({ try JSONCoding.encode(state, into: &$0) })) != nil else { return }
            }
            Self.callWithCString(&handlerScratch, handler)
        }
    }

    func setInputHook(_ hook: ((InputRecord) throws -> Void)?) {
        guard let hook else {
            system.willApply = nil
            return
        }
        // The journal stores the event as the host sent it (already validated by decoding,
        // compacted to one line); only inputs queued from handlers, which have no bytes of
        // their own here, are encoded again.
        func eventBytes(_ event: F.Event, _ source: UnsafeRawBufferPointer?) throws -> [UInt8] {
            if let source { return compactJSON(source) }
            return try Self.mapErrors("event") { try JSONCoding.encode(event) }
        }
        system.willApply = { input, source in
            switch input {
            case .send(let event):
                try hook(InputRecord(kind: .send, effect: nil, event: try eventBytes(event, source)))
            case .deliver(let effect, let event):
                try hook(InputRecord(kind: .deliver, effect: effect, event: try eventBytes(event, source)))
            case .complete(let effect):
                try hook(InputRecord(kind: .complete, effect: effect, event: []))
            }
        }
    }

    func close() { system.close() }

    func withExclusiveAccess(_ body: () throws -> Void) throws { try system.withExclusiveAccess(body) }

    private static func callWithCString(_ bytes: inout ByteScratch, _ body: (UnsafePointer<CChar>) -> Void) {
        bytes.append(0)
        body(UnsafeRawPointer(bytes.base).assumingMemoryBound(to: CChar.self))
    }

    /// Turns codec errors into statuses: bad JSON is `.json`, a wrong shape `.schema`.
    static func mapErrors<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JSONError {
            switch error.kind {
            case .syntax: throw CoreLogicError(.json, "\(F.name) \(what): \(error.message)")
            case .schema: throw CoreLogicError(.schema, "\(F.name) \(what): \(error.message)")
            }
        }
    }
}

/// The bytes of a batch (or of a command or state for a handler), written in place: one
/// allocation for the life of its owner, reused by every call, and read in place by the
/// sink. Appending to an `[UInt8]` costs about 90 instructions per piece (uniqueness and
/// capacity checks through a generic, non-inlined path) and the result was copied once
/// more; here a piece is a capacity check and a copy.
///
/// A plain struct over memory it owns: its owner calls ``release()`` once, in its deinit.
/// The owner uses it only under the system's lock.
struct ByteScratch: _ByteSink {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// Pieces written by an API that appends to an array (the JSON coder, the differ):
    /// kept, so that writing one allocates nothing once it has grown.
    private var piece: [UInt8] = []

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Frees the memory; the value must not be used afterwards.
    func release() { base.deallocate() }

    /// Starts over, keeping the memory.
    @inline(__always) mutating func removeAll() { count = 0 }

    /// The bytes written, valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always) mutating func append(_ byte: UInt8) {
        if count == capacity { grow(count + 1) }
        base[count] = byte
        count &+= 1
    }

    @inline(__always) mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let source = bytes.baseAddress else { return }
        if count &+ n > capacity { grow(count &+ n) }
        (base + count).update(from: source, count: n)
        count &+= n
    }

    /// Appends a literal's bytes.
    @inline(__always) mutating func append(_ literal: StaticString) {
        appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends what `write` appends to an array; on error nothing is appended.
    @inline(__always) mutating func appendPiece(_ write: (inout [UInt8]) throws -> Void) rethrows {
        // Pieces accumulate in `piece` and only the new bytes are copied: emptying an array
        // (`removeAll(keepingCapacity:)`, a generic replaceSubrange) costs more than a small
        // piece's copy, so it is emptied only once it holds a few kilobytes.
        let start = piece.count
        if start > 4096 { piece.removeAll(keepingCapacity: true) }
        let from = piece.count
        try write(&piece)
        piece.withUnsafeBufferPointer { appendBytes(UnsafeBufferPointer(rebasing: $0[from...])) }
    }

    private mutating func grow(_ needed: Int) {
        var bigger = Swift.max(capacity &* 2, 64)
        while bigger < needed { bigger &*= 2 }
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        memory.update(from: base, count: count)
        base.deallocate()
        base = memory
        capacity = bigger
    }
}

private func encodeOpened<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
    try JSONCoding.encode(value, into: &out)
}

/// `json` without the whitespace between tokens. `json` must be valid JSON (it was
/// decoded already): whitespace inside strings is kept, and strings never contain raw
/// newlines, so the result is one line.
func compactJSON(_ json: UnsafeRawBufferPointer) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(json.count)
    var inString = false
    var escaped = false
    for byte in json {
        if inString {
            out.append(byte)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            continue
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            continue
        case UInt8(ascii: "\""):
            inString = true
            out.append(byte)
        default:
            out.append(byte)
        }
    }
    return out
}
