final class WireSystem<F: Feature> {
    let system: System<F>
    /// Bytes of the command or state being handed to a handler; reused, drained under the lock.
    /// Unchecked exclusivity (both buffers): used only under the system's lock, by one
    /// writer at a time (see ``System``'s stored properties).
    @exclusivity(unchecked) private var handlerScratch = ByteScratch(capacity: 256)
    /// The batch being written: one buffer for the life of the system, handed to the sink
    /// in place.
    @exclusivity(unchecked) private var batchScratch = ByteScratch(capacity: 512)
    /// The trace being written, if any (Trace/); read and written under the system's lock.
    #if !hasFeature(Embedded)
    var tracer: TraceRecorder<F>?
    #endif
    /// The journal every accepted input is written to before it is applied, if any
    /// (Journal/); read and written under the system's lock.
    #if !hasFeature(Embedded)
    @exclusivity(unchecked) var journal: Journal?
    #endif

    private let payloadless: PayloadlessCases<F.Event>
    /// `F.queries` is computed; it is read once here, not on every query.
    let queries: [StateQuery<F.State>]

    // Output (read and written only while the system's lock is held, never passed inout,
    // so no two accesses overlap: unchecked exclusivity, as for the scratch buffers).
    /// True in patch mode.
    @exclusivity(unchecked) private var patchMode = false
    /// In patch mode, once the state has outgrown ``wholeStateBytes``: the shadow of the last
    /// state emitted, which the next patch starts from. Nil while the state is sent whole.
    @exclusivity(unchecked) private var differ: StateDiffer<F.State>?
    /// The revision of the last state emitted in patch mode: the next patch's `base`.
    @exclusivity(unchecked) private var emittedRevision: UInt64 = 0
    /// In patch mode, a state whose JSON is at most this long is sent whole
    /// (`{"revision":R,"state":{...}}`) rather than as a patch: a host reads such a state
    /// for no more than the smallest patch, whose one operation alone is
    /// `{"op":"replace","path":"/count","value":1}`, and no differ runs (docs/performance.md,
    /// "Small states are sent whole"). From a baseline on, batches carry the whole state
    /// while it stays this small; the first larger one is sent whole too and starts the
    /// patches, which go on until the next baseline.
    static var wholeStateBytes: Int { 64 }
    /// Full mode with a state handler: the JSON the handler was given and the revision of
    /// that state, so the batch of the same step reuses it instead of encoding the state a
    /// second time (nil: nothing reusable).
    @exclusivity(unchecked) private var handledState = ByteScratch(capacity: 256)
    @exclusivity(unchecked) private var handledRevision: UInt64?
    /// Watched queries with a copy of the JSON of the value last reported (written in the
    /// batch buffer, compared there with the next value).
    @exclusivity(unchecked) private var watched: [(name: String, query: StateQuery<F.State>, last: [UInt8])] = []

    init(_ system: System<F>, payloadless: PayloadlessCases<F.Event>) {
        self.system = system
        self.payloadless = payloadless
        self.queries = F.queries
    }

    deinit {
        handlerScratch.release()
        batchScratch.release()
        handledState.release()
    }

    var nextEffectID: UInt64 { system.nextEffectID }

    static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> F.State {
        try mapErrors("state") { () throws(JSONFailure) in try JSONCoding.decode(F.State.self, from: bytes) }
    }

    /// A state from a tree (a snapshot's, after migration); the library wrote it, so no
    /// size limit applies.
    static func decodeState(_ value: JSONValue) throws(CoreLogicFailure) -> F.State {
        try mapErrors("state") { () throws(JSONFailure) in try JSONCoding.decode(F.State.self, from: value) }
    }

    static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> F.Event {
        try mapErrors("event") { () throws(JSONFailure) in try JSONCoding.decode(F.Event.self, from: bytes) }
    }

    func writeInitialBatch(to sink: JSONSink) throws(CoreLogicFailure) {
        try output(to: sink) { (out) throws(CoreLogicFailure) in try writeBatch(system.initialBatch, queued: false, into: &out) }
    }

    /// Writes an output that is not a step's batch (the creation batch, a state, a query,
    /// a snapshot) into the batch buffer under the system's lock, and hands it to `sink`
    /// there: every output of a system is written in that one buffer. If `write` throws,
    /// the sink is not called.
    private func output(to sink: JSONSink, _ write: (inout ByteScratch) throws(CoreLogicFailure) -> Void) throws(CoreLogicFailure) {
        try system.withExclusiveAccess { () throws(CoreLogicFailure) in
            batchScratch.removeAll()
            try write(&batchScratch)
            sink(batchScratch.bytes)
            batchScratch.shrinkIfLarge()
        }
    }

    /// A host's event: a payload-less case from the table, anything else decoded.
    @inline(__always) private func event(_ bytes: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> F.Event {
        if let matched = payloadless.match(bytes) { return matched }
        return try Self.decodeEvent(bytes)
    }

    func send(_ event: UnsafeRawBufferPointer, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws(CoreLogicFailure) -> Status {
        do throws(CoreLogicFailure) {
            let decoded = try self.event(event)
            return try run(.send(decoded), wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.send, effect: nil, raw: event, error)
            throw error
        }
    }

    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws(CoreLogicFailure) -> Status {
        do throws(CoreLogicFailure) {
            let decoded = try self.event(event)
            return try run(.deliver(effect: effect, event: decoded), wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.deliver, effect: effect, raw: event, error)
            throw error
        }
    }

    func complete(_ effect: UInt64, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws(CoreLogicFailure) -> Status {
        do throws(CoreLogicFailure) {
            return try run(.complete(effect: effect), wantsBatch: wantsBatch, sink: sink)
        } catch {
            traceRejected(.complete, effect: effect, raw: nil, error)
            throw error
        }
    }

    private func run(_ input: System<F>.Input, wantsBatch: Bool, sink: (UnsafeRawBufferPointer) -> Void) throws(CoreLogicFailure) -> Status {
        guard wantsBatch else {
            // Nobody reads the batch: the system builds none (no copy of the state, no
            // command list) and nothing is written.
            return try system.submitDiscardingBatch(input) ? .ok : .stale
        }
        // The sink runs inside the system's lock (submit's batch is built under it), so the
        // scratch buffer cannot be overwritten by another thread's step in between.
        var status = Status.ok
        try system.submit(input) { (outcome) throws(CoreLogicFailure) in
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

    private func emit(_ batch: System<F>.Batch, queued: Bool, to sink: (UnsafeRawBufferPointer) -> Void) throws(CoreLogicFailure) {
        batchScratch.removeAll()
        try writeBatch(batch, queued: queued, into: &batchScratch)
        sink(batchScratch.bytes)
        batchScratch.shrinkIfLarge()
    }

    /// Writes a batch in the current output mode. A queued call's batch (steps 0) reports
    /// nothing new: an empty patch at the last emitted revision, no changed queries.
    /// Called under the system's lock.
    private func writeBatch(_ batch: System<F>.Batch, queued: Bool, into out: inout ByteScratch) throws(CoreLogicFailure) {
        if patchMode {
            let revision = queued ? emittedRevision : system.revisionUnderLock
            if queued || emittedRevision == revision {
                // Nothing new since the last state emitted (a queued call, or the state
                // handler already sent this step's): an empty patch.
                writeRevisionHeader(revision: revision, base: emittedRevision, into: &out)
                out.append("[]")
            } else {
                try writeChange(to: batch.state, revision: revision, into: &out)
            }
        } else {
            out.append(#"{"state":"#)
            if let handledRevision, handledRevision == system.revisionUnderLock {
                out.appendBytes(handledState.buffer.buffer)
                if handledState.count > ByteScratch.keptBytes {
                    // Used: a large state's copy is not kept either.
                    self.handledRevision = nil
                    handledState.shrinkIfLarge()
                }
            } else {
                try Self.mapErrors("state") { () throws(JSONFailure) in try out.appendJSON(batch.state) }
            }
        }
        if !watched.isEmpty {
            out.append(#","queries":{"#)
            if !queued { try writeChangedQueries(batch.state, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
        if batch.commands.isEmpty {
            out.append(#","effects":[],"steps":"#)  // the usual case, in one copy
        } else {
            out.append(#","effects":["#)
            // Read in place: a copy of each command (its name and request) costs about 100
            // instructions a playcatch event (measured).
            for index in batch.commands.indices {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeCommand(batch.commands[index], into: &out)
            }
            out.append(#"],"steps":"#)
        }
        out.appendDecimal(UInt64(batch.steps))
        if !batch.dropped.isEmpty {
            out.append(#","dropped":["#)
            for (index, dropped) in batch.dropped.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeDropped(dropped, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"input":{"send":<event>},"status":"CORELOGIC_ERR_IO","error":"..."}`: an input a
    /// handler queued that was rejected, in the journal's input shape.
    static func writeDropped(_ dropped: System<F>.DroppedInput, into out: inout ByteScratch) {
        out.append(#"{"input":"#)
        func event(_ event: F.Event) {
            // An event that was decoded from JSON encodes again; null if it somehow cannot.
            if (try? out.appendJSON(event)) == nil { out.append("null") }
        }
        switch dropped.input {
        case .send(let sent):
            out.append(#"{"send":"#)
            event(sent)
            out.append(UInt8(ascii: "}"))
        case .deliver(let effect, let delivered):
            out.append(#"{"deliver":{"effect":"#)
            out.appendDecimal(effect)
            out.append(#","event":"#)
            event(delivered)
            out.append("}}")
        case .complete(let effect):
            out.append(#"{"complete":{"effect":"#)
            out.appendDecimal(effect)
            out.append("}}")
        }
        #if hasFeature(Embedded)
        let error = dropped.error
        #else
        let error = dropped.error as? CoreLogicError ?? CoreLogicError(.io, "\(dropped.error)")
        #endif
        out.append(#","status":"#)
        out.appendString(error.status.constantName)
        out.append(#","error":"#)
        out.appendString(error.message)
        out.append(UInt8(ascii: "}"))
    }

    static func writeCommand(_ command: EffectCommand, into out: inout ByteScratch) {
        switch command {
        case .cancel(let id):
            out.append(#"{"cancel":"#)
            out.appendDecimal(id)
            out.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            out.append(#"{"start":{"id":"#)
            out.appendDecimal(id)
            out.append(#","feedback":"#)
            out.appendString(feedback)
            out.append(#","request":"#)
            // The step that started this effect has run, so the command must reach the
            // host: a request that cannot be written as JSON (a non-finite number, which
            // JSON input cannot produce, so a feature's bug) is written as null rather
            // than failing the call after the change or skipping the command.
            if (try? out.appendRequest(request)) == nil { out.append("null") }
            out.append("}}")
        }
    }

    @inline(__always) private func writeRevisionHeader(revision: UInt64, base: UInt64, into out: inout ByteScratch) {
        out.append(#"{"revision":"#)
        out.appendDecimal(revision)
        out.append(#","base":"#)
        out.appendDecimal(base)
        out.append(#","patch":"#)
    }

    /// Patch mode: what changed since the last state emitted, up to `revision`, without the
    /// closing brace: `{"revision":R,"base":B,"patch":[...]` from the shadow, or, while the
    /// state is small (``wholeStateBytes``), `{"revision":R,"state":{...}`. A state that
    /// has outgrown the limit is sent whole once more and becomes the shadow the next patch
    /// starts from.
    @inline(__always)
    private func writeChange(to state: F.State, revision: UInt64, into out: inout ByteScratch) throws(CoreLogicFailure) {
        if let differ {
            writeRevisionHeader(revision: revision, base: emittedRevision, into: &out)
            try Self.mapErrors("state") { () throws(JSONFailure) in try differ.diff(to: state, into: &out.buffer) }
        } else if try writeState(state, revision: revision, into: &out) > Self.wholeStateBytes {
            // Patches from now on, starting from the state the host has whole. A state that
            // was just written encodes again; should it not, the state stays sent whole.
            differ = try? Self.shadow(of: state)
        }
        emittedRevision = revision
    }

    /// `{"revision":R,"state":{...}` without the closing brace; returns the length of the
    /// state's JSON.
    @inline(__always)
    private func writeState(_ state: F.State, revision: UInt64, into out: inout ByteScratch) throws(CoreLogicFailure) -> Int {
        out.append(#"{"revision":"#)
        out.appendDecimal(revision)
        out.append(#","state":"#)
        let start = out.count
        try Self.mapErrors("state") { () throws(JSONFailure) in try out.appendJSON(state) }
        return out.count - start
    }

    /// A differ whose last state is `state`.
    @inline(never)
    private static func shadow(of state: F.State) throws(CoreLogicFailure) -> StateDiffer<F.State> {
        let differ = StateDiffer<F.State>()
        try mapErrors("state") { () throws(JSONFailure) in try differ.reset(to: state) }
        return differ
    }

    /// Appends `"name":value` for each watched query whose JSON changed since it was last
    /// reported, and remembers the new values. Each value is written in place and taken
    /// back when it is the one last reported.
    private func writeChangedQueries(_ state: F.State, into out: inout ByteScratch) throws(CoreLogicFailure) {
        var first = true
        for index in watched.indices {
            if try Self.appendQuery(&watched[index], of: state, first: first, always: false, into: &out) { first = false }
        }
    }

    /// Appends `"name":value` for a watched query, and keeps a copy of the value; unless
    /// `always`, takes the member back when the value is the one kept (`appendMember`).
    private static func appendQuery(_ watched: inout (name: String, query: StateQuery<F.State>, last: [UInt8]), of state: F.State,
                                    first: Bool, always: Bool, into out: inout ByteScratch) throws(CoreLogicFailure) -> Bool {
        let query = watched.query
        return try out.buffer.appendMember(watched.name, first: first, unlessSameAs: &watched.last, always: always) {
            (value) throws(CoreLogicFailure) in
            try mapErrors("query") { () throws(JSONFailure) in try JSONCoding.encode(query.evaluate(state), into: &value) }
        }
    }

    func setOutput(_ mode: OutputMode, snapshot: JSONSink) throws(CoreLogicFailure) {
        try output(to: snapshot) { (out) throws(CoreLogicFailure) in
            // Written first: a state that cannot be encoded changes nothing.
            let stateBytes = try writeSnapshot(into: &out)
            switch mode {
            case .full:
                patchMode = false
                differ = nil
            case .patch:
                try rebaseline(stateBytes: stateBytes)
            }
        }
    }

    func resync(to sink: JSONSink) throws(CoreLogicFailure) {
        try output(to: sink) { (out) throws(CoreLogicFailure) in
            let stateBytes = try writeSnapshot(into: &out)
            if patchMode { try rebaseline(stateBytes: stateBytes) }
        }
    }

    /// Patch mode from the current state, whose JSON (just written for the host) is
    /// `stateBytes` long: sent whole while it is small, else a new shadow of it. Nothing
    /// changes if this throws.
    private func rebaseline(stateBytes: Int) throws(CoreLogicFailure) {
        let fresh = stateBytes > Self.wholeStateBytes ? try Self.shadow(of: system.state) : nil
        patchMode = true
        differ = fresh
        emittedRevision = system.revision
    }

    /// `{"revision":R,"state":{...}}`; returns the length of the state's JSON.
    private func writeSnapshot(into out: inout ByteScratch) throws(CoreLogicFailure) -> Int {
        let stateBytes = try writeState(system.state, revision: system.revision, into: &out)
        out.append(UInt8(ascii: "}"))
        return stateBytes
    }

    func watchQueries(_ names: [String], values: JSONSink) throws(CoreLogicFailure) {
        var chosen: [(name: String, query: StateQuery<F.State>, last: [UInt8])] = []
        for name in names where !chosen.contains(where: { $0.name == name }) {
            chosen.append((name, try query(named: name), []))
        }
        try output(to: values) { (out) throws(CoreLogicFailure) in
            let state = system.state
            out.append(UInt8(ascii: "{"))
            for index in chosen.indices {
                _ = try Self.appendQuery(&chosen[index], of: state, first: index == 0, always: true, into: &out)
            }
            out.append(UInt8(ascii: "}"))
            watched = chosen
        }
    }

    func writeState(to sink: JSONSink) throws(CoreLogicFailure) {
        try output(to: sink) { (out) throws(CoreLogicFailure) in
            try Self.mapErrors("state") { () throws(JSONFailure) in try out.appendJSON(system.state) }
        }
    }

    /// The query called `name`; `.notFound` listing the valid names otherwise.
    private func query(named name: String) throws(CoreLogicFailure) -> StateQuery<F.State> {
        guard let query = queries.first(where: { $0.name == name }) else {
            let valid = queries.map { $0.name }.joined(separator: ", ")
            throw CoreLogicError(.notFound, "\(F.name) has no query '\(_printableName(name))'; queries: \(valid.isEmpty ? "(none)" : valid)")
        }
        return query
    }

    func writeQuery(_ name: String, to sink: JSONSink) throws(CoreLogicFailure) {
        let query = try query(named: name)
        try output(to: sink) { (out) throws(CoreLogicFailure) in
            let value = query.evaluate(system.state)
            try Self.mapErrors("query") { () throws(JSONFailure) in try out.appendJSON(value) }
        }
    }

    func writeBrokenInvariants(to sink: JSONSink) {
        output(to: sink) { out in
            let broken = F.brokenInvariants(in: system.state)
            JSONWriter.write(.array(broken.map {
                .object([("name", .string($0.name)), ("message", .string($0.message))])
            }), to: &out.buffer)
        }
    }

    /// ``output(to:_:)`` for a writer that cannot fail.
    private func output(to sink: JSONSink, _ write: (inout ByteScratch) -> Void) {
        system.withExclusiveAccess {
            batchScratch.removeAll()
            write(&batchScratch)
            sink(batchScratch.bytes)
            batchScratch.shrinkIfLarge()
        }
    }

    func writeEffects(to sink: JSONSink) {
        output(to: sink) { out in
            out.append(UInt8(ascii: "["))
            for (index, effect) in system.runningEffects.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(#"{"id":"#)
                out.appendDecimal(effect.id)
                out.append(#","feedback":"#)
                out.appendString(effect.feedback)
                out.append(#","request":"#)
                // As in writeCommand: a request that cannot be written as JSON is null.
                if (try? out.appendRequest(effect.request)) == nil { out.append("null") }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) {
        guard let handler else {
            system.onCommand = nil
            return
        }
        #if hasFeature(Embedded)
        // Embedded Swift has no checked `unowned`: the system is this object's own.
        system.onCommand = { [unowned(unsafe) self] command in
            handlerScratch.removeAll()
            // Commands always encode (see writeCommand: a request that cannot is null).
            Self.writeCommand(command, into: &handlerScratch)
            Self.callWithCString(&handlerScratch, handler)
            handlerScratch.shrinkIfLarge()
        }
        #else
        system.onCommand = { [unowned self] command in
            handlerScratch.removeAll()
            // Commands always encode (see writeCommand: a request that cannot is null).
            Self.writeCommand(command, into: &handlerScratch)
            Self.callWithCString(&handlerScratch, handler)
            handlerScratch.shrinkIfLarge()
        }
        #endif
    }

    func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) {
        guard let handler else {
            system.onState = nil
            system.withExclusiveAccess { handledRevision = nil }
            return
        }
        // The system is this object's own. Embedded Swift has no checked `unowned`.
        #if hasFeature(Embedded)
        system.onState = { [unowned(unsafe) self] state in stateChanged(state, handler) }
        #else
        system.onState = { [unowned self] state in stateChanged(state, handler) }
        #endif
    }

    /// The state handler's work for one step: in patch mode what changed since the last
    /// state emitted, else the whole state, kept for this step's batch.
    private func stateChanged(_ state: F.State, _ handler: (UnsafePointer<CChar>) -> Void) {
        handlerScratch.removeAll()
        if patchMode {
            // One change per step, continuing from the last state emitted.
            guard (try? writeChange(to: state, revision: system.revisionUnderLock, into: &handlerScratch)) != nil else { return }
            handlerScratch.append(UInt8(ascii: "}"))
            Self.callWithCString(&handlerScratch, handler)
            handlerScratch.shrinkIfLarge()
        } else {
            // Kept for the batch of this step (see ``handledState``).
            handledRevision = nil
            handledState.removeAll()
            guard (try? handledState.appendJSON(state)) != nil else { return }
            let revision = system.revisionUnderLock
            Self.callWithCString(&handledState, handler)
            handledState.buffer.truncate(to: handledState.count - 1)
            // Offered to the batch only now: a call queued from inside the handler writes
            // its own batch while the bytes carry the handler's terminating NUL.
            handledRevision = revision
        }
    }

    func close() { system.close() }

    private static func callWithCString(_ bytes: inout ByteScratch, _ body: (UnsafePointer<CChar>) -> Void) {
        bytes.append(0)
        body(UnsafeRawPointer(bytes.base).assumingMemoryBound(to: CChar.self))
    }


    /// Turns codec errors into statuses: bad JSON is `.json`, a wrong shape `.schema`.
    #if hasFeature(Embedded)
    static func mapErrors<T>(_ what: String, _ body: () throws(JSONFailure) -> T) throws(CoreLogicFailure) -> T {
        do {
            return try body()
        } catch {
            switch error.kind {
            case .syntax: throw CoreLogicError(.json, "\(F.name) \(what): \(error.message)")
            case .schema: throw CoreLogicError(.schema, "\(F.name) \(what): \(error.message)")
            }
        }
    }
    #else
    static func mapErrors<T>(_ what: String, _ body: () throws(JSONFailure) -> T) throws(CoreLogicFailure) -> T {
        do {
            return try body()
        } catch let error as JSONError {
            switch error.kind {
            case .syntax: throw CoreLogicError(.json, "\(F.name) \(what): \(error.message)")
            case .schema: throw CoreLogicError(.schema, "\(F.name) \(what): \(error.message)")
            }
        }
    }
    #endif
}

/// A byte buffer reused by every call of its owner: a batch (or a command or state for a
/// handler), or a journal's record, snapshot or segment header, written in place and read
/// in place by whoever takes the bytes (a sink, a file). One allocation for the life of
/// its owner. The JSON coder's own byte buffer (`_ByteBuffer`), so a state, a patch or a
/// request is encoded straight into it.
///
/// Its owner calls ``release()`` once, in its deinit, and uses it only under the system's lock.
///
/// A buffer that a large state grew is given back after that use (``shrinkIfLarge()``), so
/// a system keeps memory in proportion to its small batches, not to its largest state.
struct ByteScratch {
    var buffer: _ByteBuffer
    private let initialCapacity: Int
    /// What a use may leave behind: past this, the memory is given back afterwards. Large
    /// enough that the batches of a small state never reallocate.
    static let keptBytes = 64 * 1024

    init(capacity: Int) {
        initialCapacity = capacity
        buffer = _ByteBuffer(capacity: capacity)
    }

    /// After a use that wrote more than ``keptBytes``: frees the memory and starts again
    /// at the initial capacity (the bytes are gone). One comparison otherwise.
    @inline(__always) mutating func shrinkIfLarge() {
        if buffer.count > Self.keptBytes { shrink() }
    }

    @inline(never)  // rare: kept out of the callers' hot paths
    private mutating func shrink() {
        buffer.release()
        buffer = _ByteBuffer(capacity: initialCapacity)
    }

    /// Frees the memory; the value must not be used afterwards.
    mutating func release() { buffer.release() }

    /// Starts over, keeping the memory.
    @inline(__always) mutating func removeAll() { buffer.truncate(to: 0) }

    var count: Int { buffer.count }

    /// The bytes written, valid until the next change.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(buffer.buffer) }

    /// Its memory, for the NUL-terminated string a handler gets.
    var base: UnsafeMutablePointer<UInt8> { buffer.base }

    @inline(__always) mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inline(__always) mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.appendBytes(bytes) }

    /// Appends `value` in decimal.
    @inline(__always) mutating func appendDecimal(_ value: UInt64) { buffer.appendDecimal(value) }

    /// Appends a literal's bytes.
    @inline(__always) mutating func append(_ literal: StaticString) { buffer.append(literal) }

    /// Appends `text` as a JSON string literal (quotes and escapes).
    @inline(__always) mutating func appendString(_ text: String) { JSONWriter.writeString(text, into: &buffer) }

    /// Appends the compact JSON of `value`; on error nothing is appended.
    @inline(__always) mutating func appendJSON<T: Encodable>(_ value: T) throws(JSONFailure) {
        try JSONCoding.encode(value, into: &buffer)
    }

    #if hasFeature(Embedded)
    /// Appends an effect's request; on error nothing is appended.
    mutating func appendRequest(_ request: AnyJSONEncodable) throws(JSONFailure) { try appendJSON(request) }
    #else
    /// The request types written so far, with their direct conformances.
    private var requestTypes = _DirectTypes()

    /// Appends an effect's request; on error nothing is appended.
    mutating func appendRequest(_ request: AnyJSONEncodable) throws(JSONFailure) {
        try JSONCoding.encode(request, into: &buffer, types: &requestTypes)
    }
    #endif
}
