/// Where a trace goes, supplied by whoever turns tracing on (the C ABI writes a file).
/// The engine does no I/O: it builds each line and hands it over.
public struct TraceSink {
    /// Receives one complete line (a JSON object and its `\n`). Returns false when the line
    /// could not be kept (disk full, closed file): tracing then stops for good.
    public var write: (UnsafeRawBufferPointer) -> Bool
    /// A monotonic clock in nanoseconds, read before and after each step.
    public var now: () -> UInt64
    /// Why the last line `write` refused could not be kept (for a file: its path and the
    /// system's reason), for the error of a trace whose first line failed; nil if unknown.
    public var failure: () -> String? = { nil }

    public init(write: @escaping (UnsafeRawBufferPointer) -> Bool, now: @escaping () -> UInt64) {
        self.write = write
        self.now = now
    }
}

/// The trace format version written in every trace's first line (docs/inspector.md).
public let traceFormatVersion = 1

/// Writes a system's trace (docs/inspector.md): a first line with the feature, the state,
/// every query's value and the running effects; then one line per input the system was
/// given, in the order it handled them, with the state change as an RFC 6902 patch from
/// the previous line's state (the differ of patch output, so a step costs what changed):
///
///     {"seq":1,"input":"send","event":{...},"status":"ok","patch":[...],
///      "queries":{"isLoading":true},"effects":[{"start":{...}}],"ns":5120}
///     {"seq":2,"input":"deliver","effect":1,"event":{...},"status":"stale"}
///     {"seq":3,"input":"send","raw":"{\"nope\":1}","status":"error:schema","message":"..."}
///
/// `queries` holds only the queries whose JSON changed in that step. Every method runs
/// while the system is locked (the loop's observer, or exclusive access).
final class TraceRecorder<F: Feature> {
    private let sink: TraceSink
    private let queries: [StateQuery<F.State>]
    /// A copy of the JSON each query had on the last line that carried it.
    private var queryValues: [[UInt8]]
    private var seq: UInt64 = 0
    /// The system's revision (steps run since creation), kept in step with it: every ok
    /// line carries the revision it produced, so a reader sees when a state change is
    /// missing (a lost line) rather than applying the next patch to the wrong state.
    private var revision: UInt64 = 0
    private var stepStarted: UInt64 = 0
    /// The JSON of the event the step being run took, written before the step.
    private var stepEvent = _ByteBuffer(capacity: 64)
    /// The line being written; reused by every line.
    private var line = _ByteBuffer(capacity: 1024)
    /// Follows the state from line to line; nil after a state it could not encode, and the
    /// next ok line then carries the whole `"state"` and starts it again.
    private var differ: StateDiffer<F.State>?
    private(set) var stopped = false

    init(sink: TraceSink, queries: [StateQuery<F.State>]) {
        self.sink = sink
        self.queries = queries
        queryValues = Array(repeating: [], count: queries.count)
    }

    deinit {
        stepEvent.release()
        line.release()
    }

    /// The first line: what the following lines start from.
    func writeHeader(state: F.State, running: [RunningEffect], nextEffect: UInt64, revision: UInt64) {
        self.revision = revision
        line.truncate(to: 0)
        line.append(#"{"corelogicTrace":"#)
        line.appendDecimal(UInt64(traceFormatVersion))
        line.append(#","feature":"#)
        JSONWriter.writeString(F.name, into: &line)
        line.append(#","stateVersion":"#)
        line.appendDecimal(UInt64(max(F.stateVersion, 0)))
        line.append(#","revision":"#)
        line.appendDecimal(revision)
        line.append(#","state":"#)
        writeState(state)
        resetDiffer(to: state)
        line.append(#","queries":"#)
        writeQueries(state, all: true)
        line.append(#","effects":["#)
        for (index, effect) in running.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(#"{"id":"#)
            line.appendDecimal(effect.id)
            line.append(#","feedback":"#)
            JSONWriter.writeString(effect.feedback, into: &line)
            line.append(#","request":"#)
            Self.writeEncoded(effect.request, into: &line)
            line.append(UInt8(ascii: "}"))
        }
        line.append(#"],"nextEffect":"#)
        line.appendDecimal(nextEffect)
        finishLine()
    }

    /// The loop's observer: timing and lines for steps and stale inputs.
    var observer: System<F>.StepObserver {
        System<F>.StepObserver(
            willStep: { [self] input in
                captureEvent(input)
                stepStarted = sink.now()
            },
            didStep: { [self] input, state, commands in
                let elapsed = sink.now() &- stepStarted
                revision &+= 1
                guard !stopped else { return }
                beginInput(input, event: stepEvent)
                line.append(#","status":"ok","revision":"#)
                line.appendDecimal(revision)
                line.append(UInt8(ascii: ","))
                writeChange(to: state)
                line.append(#","queries":"#)
                writeQueries(state, all: false)
                line.append(#","effects":["#)
                for (index, command) in commands.enumerated() {
                    if index > 0 { line.append(UInt8(ascii: ",")) }
                    writeCommand(command)
                }
                line.append(#"],"ns":"#)
                line.appendDecimal(elapsed)
                finishLine()
            },
            dropped: { [self] input in
                guard !stopped else { return }
                captureEvent(input)
                beginInput(input, event: stepEvent)
                line.append(#","status":"stale"}"#)
                line.append(UInt8(ascii: "\n"))
                emit()
            },
            rejected: { [self] input, error in
                // A queued input whose journal record failed: the event as the loop took
                // it (the host's bytes are gone by now), then the error.
                guard !stopped else { return }
                captureEvent(input)
                beginInput(input, event: stepEvent)
                appendError(error)
                finishLine()
            }
        )
    }

    /// `,"status":"error:<name>","message":"..."` for a refused input.
    private func appendError(_ error: Error) {
        let status: Status
        let message: String
        if let error = error as? CoreLogicError {
            status = error.status
            message = error.message
        } else {
            status = .arg
            message = "\(error)"
        }
        line.append(#","status":"#)
        JSONWriter.writeString(status.goldenName, into: &line)
        line.append(#","message":"#)
        JSONWriter.writeString(message, into: &line)
    }

    /// An input refused before it reached the loop (bad JSON, wrong shape, a journal that
    /// could not write it): the bytes as sent, as a string, and the error.
    func writeRejected(_ kind: InputKind, effect: UInt64?, raw: UnsafeRawBufferPointer?, error: Error) {
        guard !stopped else { return }
        seq += 1
        line.truncate(to: 0)
        line.append(#"{"seq":"#)
        line.appendDecimal(seq)
        line.append(#","input":"#)
        JSONWriter.writeString(kind.rawValue, into: &line)
        if let effect {
            line.append(#","effect":"#)
            line.appendDecimal(effect)
        }
        if let raw {
            line.append(#","raw":"#)
            JSONWriter.writeString(String(decoding: raw, as: UTF8.self), into: &line)
        }
        appendError(error)
        finishLine()
    }

    // MARK: - Line building

    /// Keeps the event's JSON for the line written after the step: the event the loop took,
    /// in the library's compact encoding (the bytes a refused input was sent as are in its
    /// `raw`, see ``writeRejected(_:effect:raw:error:)``).
    private func captureEvent(_ input: System<F>.Input) {
        stepEvent.truncate(to: 0)
        switch input {
        case .send(let event), .deliver(_, let event):
            Self.writeEncoded(event, into: &stepEvent)
        case .complete:
            break
        }
    }

    private func beginInput(_ input: System<F>.Input, event: _ByteBuffer) {
        seq += 1
        line.truncate(to: 0)
        line.append(#"{"seq":"#)
        line.appendDecimal(seq)
        switch input {
        case .send:
            line.append(#","input":"send","event":"#)
            line.appendBytes(event.buffer)
        case .deliver(let effect, _):
            line.append(#","input":"deliver","effect":"#)
            line.appendDecimal(effect)
            line.append(#","event":"#)
            line.appendBytes(event.buffer)
        case .complete(let effect):
            line.append(#","input":"complete","effect":"#)
            line.appendDecimal(effect)
        }
    }

    private func writeState(_ state: F.State) {
        Self.writeEncoded(state, into: &line)
    }

    private func resetDiffer(to state: F.State) {
        let fresh = StateDiffer<F.State>()
        differ = (try? fresh.reset(to: state)) != nil ? fresh : nil
    }

    /// `"patch":[...]` from the previous line's state, or `"state":{...}` when there is no
    /// baseline to patch (the previous state could not be encoded).
    private func writeChange(to state: F.State) {
        if let differ {
            let start = line.count
            line.append(#""patch":"#)
            if (try? differ.diff(to: state, into: &line)) != nil { return }
            line.truncate(to: start)
        }
        line.append(#""state":"#)
        writeState(state)
        resetDiffer(to: state)
    }

    /// Encodes `value`; a value that cannot be encoded (a non-finite Double) is written as
    /// null rather than breaking the line.
    private static func writeEncoded<T: Encodable>(_ value: T, into out: inout _ByteBuffer) {
        if (try? JSONCoding.encode(value, into: &out)) == nil { out.append("null") }
    }

    private func writeQueries(_ state: F.State, all: Bool) {
        line.append(UInt8(ascii: "{"))
        var first = true
        for index in queries.indices {
            // Written in place, and taken back when it is the value last written.
            let query = queries[index]
            let changed = line.appendMember(query.name, first: first, unlessSameAs: &queryValues[index], always: all) { value in
                Self.writeEncoded(query.evaluate(state), into: &value)
            }
            if changed { first = false }
        }
        line.append(UInt8(ascii: "}"))
    }

    private func writeCommand(_ command: EffectCommand) {
        switch command {
        case .cancel(let id):
            line.append(#"{"cancel":"#)
            line.appendDecimal(id)
            line.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            line.append(#"{"start":{"id":"#)
            line.appendDecimal(id)
            line.append(#","feedback":"#)
            JSONWriter.writeString(feedback, into: &line)
            line.append(#","request":"#)
            Self.writeEncoded(request, into: &line)
            line.append("}}")
        }
    }

    private func finishLine() {
        line.append("}\n")
        emit()
    }

    private func emit() {
        if !sink.write(UnsafeRawBufferPointer(line.buffer)) { stopped = true }
    }
}
