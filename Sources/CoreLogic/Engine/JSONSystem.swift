/// A running system driven with JSON bytes: what the C ABI and the golden-file runners
/// use. Each call is one ``System`` call plus decoding and encoding; see ``System`` for
/// the loop's rules (queue, stale inputs, re-entrancy, threads).
///
/// Calls that write a batch take a `batch` sink: it receives the batch's bytes while the
/// system is still locked, so a host copies them before another thread can run a step.
public protocol JSONSystem: AnyObject {
    /// The feature this system runs.
    var featureName: String { get }

    /// The creation batch (`steps` is 0): the effects the first state asks for.
    func writeInitialBatch(into out: inout [UInt8]) throws

    /// `send(event)`; returns `.ok`, or `.ok` with nothing run when queued from a handler.
    func send(_ event: UnsafeRawBufferPointer, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status
    /// `deliver(effect, event)`; returns `.ok` or `.stale`.
    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status
    /// `complete(effect)`; returns `.ok` or `.stale`.
    func complete(_ effect: UInt64, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status

    /// Appends the current state.
    func writeState(into out: inout [UInt8]) throws
    /// Appends the value of the named state query.
    /// - Throws: `.notFound` for an unknown name, with the valid names.
    func writeQuery(_ name: String, into out: inout [UInt8]) throws
    /// Appends the running effects: `[{"id":1,"feedback":"loadPage","request":{...}}]`.
    func writeEffects(into out: inout [UInt8]) throws

    /// Sets (or with nil removes) the handler called with each command's JSON (NUL-terminated).
    func setCommandHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?)
    /// Sets (or with nil removes) the handler called with each new state's JSON (NUL-terminated).
    func setStateHandler(_ handler: ((UnsafePointer<CChar>) -> Void)?)
    /// Sets (or with nil removes) the hook that sees every accepted input before it is applied;
    /// throwing rejects the input (journaling).
    func setInputHook(_ hook: ((InputRecord) throws -> Void)?)

    /// The next effect id the system will hand out.
    var nextEffectID: UInt64 { get }

    /// Stops the system (see ``System/close()``).
    func close()
}

final class JSONFeatureSystem<F: Feature>: JSONSystem {
    private let system: System<F>
    /// Bytes of the command or state being handed to a handler; reused, drained under the lock.
    private var handlerScratch: [UInt8] = []
    private var batchScratch: [UInt8] = []

    init(_ system: System<F>) {
        self.system = system
        handlerScratch.reserveCapacity(256)
        batchScratch.reserveCapacity(512)
    }

    var featureName: String { F.name }
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

    func send(_ event: UnsafeRawBufferPointer, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status {
        let decoded = try Self.decodeEvent(event)
        return try run(.send(decoded), batch: batch)
    }

    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status {
        let decoded = try Self.decodeEvent(event)
        return try run(.deliver(effect: effect, event: decoded), batch: batch)
    }

    func complete(_ effect: UInt64, batch: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status {
        try run(.complete(effect: effect), batch: batch)
    }

    private func run(_ input: System<F>.Input, batch sink: ((UnsafeRawBufferPointer) -> Void)?) throws -> Status {
        // The sink runs inside the system's lock (submit's batch is built under it), so the
        // scratch buffer cannot be overwritten by another thread's step in between.
        var status = Status.ok
        try system.submit(input) { outcome in
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

    private static func emit(_ batch: System<F>.Batch, using scratch: inout [UInt8], to sink: (UnsafeRawBufferPointer) -> Void) throws {
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
        appendDecimal(UInt64(batch.steps), to: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func writeCommand(_ command: EffectCommand, into out: inout [UInt8]) throws {
        switch command {
        case .cancel(let id):
            out.append(contentsOf: #"{"cancel":"#.utf8)
            appendDecimal(id, to: &out)
            out.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            out.append(contentsOf: #"{"start":{"id":"#.utf8)
            appendDecimal(id, to: &out)
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
        guard let query = F.queries.first(where: { $0.name == name }) else {
            let valid = F.queries.map(\.name).joined(separator: ", ")
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
            appendDecimal(effect.id, to: &out)
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
        system.willApply = { input in
            switch input {
            case .send(let event):
                try hook(InputRecord(kind: .send, effect: nil, event: try Self.mapErrors("event") { try JSONCoding.encode(event) }))
            case .deliver(let effect, let event):
                try hook(InputRecord(kind: .deliver, effect: effect, event: try Self.mapErrors("event") { try JSONCoding.encode(event) }))
            case .complete(let effect):
                try hook(InputRecord(kind: .complete, effect: effect, event: []))
            }
        }
    }

    func close() { system.close() }

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

/// Appends the decimal digits of `value`.
func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
    var digits = 1
    var rest = value / 10
    while rest > 0 {
        digits += 1
        rest /= 10
    }
    let end = out.count + digits
    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
    var remaining = value
    var index = end - 1
    while remaining > 0 {
        out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
        remaining /= 10
        index -= 1
    }
}
