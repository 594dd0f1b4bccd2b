/// Receives a batch's bytes while the system is still locked.
public typealias BatchSink = (UnsafeRawBufferPointer) -> Void

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
    private let sendEvent: (UnsafeRawBufferPointer, BatchSink?) throws -> Status
    private let deliverEvent: (UInt64, UnsafeRawBufferPointer, BatchSink?) throws -> Status
    private let completeEffect: (UInt64, BatchSink?) throws -> Status
    private let state: (inout [UInt8]) throws -> Void
    private let query: (String, inout [UInt8]) throws -> Void
    private let effects: (inout [UInt8]) throws -> Void
    private let commandHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void
    private let stateHandler: (((UnsafePointer<CChar>) -> Void)?) -> Void
    private let inputHook: (((InputRecord) throws -> Void)?) -> Void
    private let effectID: () -> UInt64
    private let stop: () -> Void
    private let exclusive: (() throws -> Void) throws -> Void
    private let trace: (TraceSink?) throws -> Void

    init<F: Feature>(_ typed: JSONFeatureSystem<F>) {
        featureName = F.name
        initialBatch = { try typed.writeInitialBatch(into: &$0) }
        sendEvent = { try typed.send($0, batch: $1) }
        deliverEvent = { try typed.deliver($0, $1, batch: $2) }
        completeEffect = { try typed.complete($0, batch: $1) }
        state = { try typed.writeState(into: &$0) }
        query = { try typed.writeQuery($0, into: &$1) }
        effects = { try typed.writeEffects(into: &$0) }
        commandHandler = { typed.setCommandHandler($0) }
        stateHandler = { typed.setStateHandler($0) }
        inputHook = { typed.setInputHook($0) }
        effectID = { typed.nextEffectID }
        stop = { typed.close() }
        exclusive = { body in try typed.withExclusiveAccess(body) }
        trace = { try typed.setTrace($0) }
    }

    /// Appends the creation batch (`steps` is 0): the effects the first state asks for.
    public func writeInitialBatch(into out: inout [UInt8]) throws { try initialBatch(&out) }

    /// `send(event)`; returns `.ok` (also when queued from inside a handler).
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path; the state is unchanged.
    public func send(_ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        try sendEvent(event, batch)
    }

    /// `deliver(effect, event)`; returns `.ok`, or `.stale` when the effect is not running.
    public func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        try deliverEvent(effect, event, batch)
    }

    /// `complete(effect)`; returns `.ok`, or `.stale` when the effect is not running.
    public func complete(_ effect: UInt64, batch: BatchSink?) throws -> Status {
        try completeEffect(effect, batch)
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
    private var handlerScratch: [UInt8] = []
    private var batchScratch: [UInt8] = []
    /// The trace being written, if any (Trace/); read and written under the system's lock.
    var tracer: TraceRecorder<F>?

    private let payloadless: PayloadlessEvents<F.Event>
    /// `F.queries` is computed; it is read once here, not on every query.
    let queries: [StateQuery<F.State>]

    init(_ system: System<F>, payloadless: PayloadlessEvents<F.Event>) {
        self.system = system
        self.payloadless = payloadless
        self.queries = F.queries
        handlerScratch.reserveCapacity(256)
        batchScratch.reserveCapacity(512)
    }

    var nextEffectID: UInt64 { system.nextEffectID }

    static func decodeState(_ bytes: UnsafeRawBufferPointer) throws -> F.State {
        try mapErrors("state") { try JSONCoding.decode(F.State.self, from: bytes) }
    }

    static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws -> F.Event {
        try mapErrors("event") { try JSONCoding.decode(F.Event.self, from: bytes) }
    }

    func writeInitialBatch(into out: inout [UInt8]) throws {
        try Self.writeBatch(system.initialBatch, into: &out)
    }

    func send(_ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        do {
            let decoded = try payloadless.match(event) ?? Self.decodeEvent(event)
            return try run(.send(decoded), source: event, batch: batch)
        } catch {
            traceRejected(.send, effect: nil, raw: event, error)
            throw error
        }
    }

    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: BatchSink?) throws -> Status {
        do {
            let decoded = try payloadless.match(event) ?? Self.decodeEvent(event)
            return try run(.deliver(effect: effect, event: decoded), source: event, batch: batch)
        } catch {
            traceRejected(.deliver, effect: effect, raw: event, error)
            throw error
        }
    }

    func complete(_ effect: UInt64, batch: BatchSink?) throws -> Status {
        do {
            return try run(.complete(effect: effect), batch: batch)
        } catch {
            traceRejected(.complete, effect: effect, raw: nil, error)
            throw error
        }
    }

    private func run(_ input: System<F>.Input, source: UnsafeRawBufferPointer? = nil, batch sink: BatchSink?) throws -> Status {
        // The sink runs inside the system's lock (submit's batch is built under it), so the
        // scratch buffer cannot be overwritten by another thread's step in between.
        var status = Status.ok
        try system.submit(input, source: source) { outcome in
            switch outcome {
            case .stale:
                status = .stale
            case .queued:
                guard let sink else { return }
                try Self.emit(System<F>.Batch(state: system.state, commands: [], steps: 0), using: &batchScratch, to: sink)
            case .applied(let batch):
                guard let sink else { return }
                try Self.emit(batch, using: &batchScratch, to: sink)
            }
        }
        return status
    }

    private static func emit(_ batch: System<F>.Batch, using scratch: inout [UInt8], to sink: BatchSink) throws {
        scratch.removeAll(keepingCapacity: true)
        try writeBatch(batch, into: &scratch)
        scratch.withUnsafeBytes(sink)
    }

    static func writeBatch(_ batch: System<F>.Batch, into out: inout [UInt8]) throws {
        out.append(contentsOf: #"{"state":"#.utf8)
        try mapErrors("state") { try JSONCoding.encode(batch.state, into: &out) }
        out.append(contentsOf: #","effects":["#.utf8)
        for (index, command) in batch.commands.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            try writeCommand(command, into: &out)
        }
        out.append(contentsOf: #"],"steps":"#.utf8)
        JSONWriter.writeUnsigned(UInt64(batch.steps), into: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func writeCommand(_ command: EffectCommand, into out: inout [UInt8]) throws {
        switch command {
        case .cancel(let id):
            out.append(contentsOf: #"{"cancel":"#.utf8)
            JSONWriter.writeUnsigned(id, into: &out)
            out.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            out.append(contentsOf: #"{"start":{"id":"#.utf8)
            JSONWriter.writeUnsigned(id, into: &out)
            out.append(contentsOf: #","feedback":"#.utf8)
            JSONWriter.writeString(feedback, into: &out)
            out.append(contentsOf: #","request":"#.utf8)
            try mapErrors("request") { try encodeOpened(request, into: &out) }
            out.append(contentsOf: "}}".utf8)
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
            try Self.mapErrors("request") { try encodeOpened(effect.request, into: &out) }
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
            handlerScratch.removeAll(keepingCapacity: true)
            // Commands always encode: their requests were encoded when the feedback was
            // declared Codable; a request that cannot (a non-finite Double) is skipped.
            guard (try? Self.writeCommand(command, into: &handlerScratch)) != nil else { return }
            Self.callWithCString(&handlerScratch, handler)
        }
    }

    func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?) {
        guard let handler else {
            system.onState = nil
            return
        }
        system.onState = { [unowned self] state in
            handlerScratch.removeAll(keepingCapacity: true)
            guard (try? JSONCoding.encode(state, into: &handlerScratch)) != nil else { return }
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

    private static func callWithCString(_ bytes: inout [UInt8], _ body: (UnsafePointer<CChar>) -> Void) {
        bytes.append(0)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { body(base) }
            }
        }
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
