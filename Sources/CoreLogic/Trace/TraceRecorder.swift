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
    private var queryValues: [[UInt8]]
    private var seq: UInt64 = 0
    /// The system's revision (steps run since creation), kept in step with it: every ok
    /// line carries the revision it produced, so a reader sees when a state change is
    /// missing (a lost line) rather than applying the next patch to the wrong state.
    private var revision: UInt64 = 0
    private var stepStarted: UInt64 = 0
    private var stepEvent: [UInt8] = []
    private var line: [UInt8] = []
    private var scratch: [UInt8] = []
    /// Follows the state from line to line; nil after a state it could not encode, and the
    /// next ok line then carries the whole `"state"` and starts it again.
    private var differ: StateDiffer<F.State>?
    private(set) var stopped = false

    init(sink: TraceSink, queries: [StateQuery<F.State>]) {
        self.sink = sink
        self.queries = queries
        queryValues = Array(repeating: [], count: queries.count)
        line.reserveCapacity(1024)
    }

    /// The first line: what the following lines start from.
    func writeHeader(state: F.State, running: [RunningEffect], nextEffect: UInt64, revision: UInt64) {
        self.revision = revision
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: #"{"corelogicTrace":"#.utf8)
        line.appendDecimal(UInt64(traceFormatVersion))
        line.append(contentsOf: #","feature":"#.utf8)
        JSONWriter.writeString(F.name, into: &line)
        line.append(contentsOf: #","stateVersion":"#.utf8)
        line.appendDecimal(UInt64(max(F.stateVersion, 0)))
        line.append(contentsOf: #","revision":"#.utf8)
        line.appendDecimal(revision)
        line.append(contentsOf: #","state":"#.utf8)
        writeState(state)
        resetDiffer(to: state)
        line.append(contentsOf: #","queries":"#.utf8)
        writeQueries(state, all: true)
        line.append(contentsOf: #","effects":["#.utf8)
        for (index, effect) in running.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(contentsOf: #"{"id":"#.utf8)
            line.appendDecimal(effect.id)
            line.append(contentsOf: #","feedback":"#.utf8)
            JSONWriter.writeString(effect.feedback, into: &line)
            line.append(contentsOf: #","request":"#.utf8)
            writeEncoded(effect.request)
            line.append(UInt8(ascii: "}"))
        }
        line.append(contentsOf: #"],"nextEffect":"#.utf8)
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
                line.append(contentsOf: #","status":"ok","revision":"#.utf8)
                line.appendDecimal(revision)
                line.append(UInt8(ascii: ","))
                writeChange(to: state)
                line.append(contentsOf: #","queries":"#.utf8)
                writeQueries(state, all: false)
                line.append(contentsOf: #","effects":["#.utf8)
                for (index, command) in commands.enumerated() {
                    if index > 0 { line.append(UInt8(ascii: ",")) }
                    writeCommand(command)
                }
                line.append(contentsOf: #"],"ns":"#.utf8)
                line.appendDecimal(elapsed)
                finishLine()
            },
            dropped: { [self] input in
                guard !stopped else { return }
                captureEvent(input)
                beginInput(input, event: stepEvent)
                line.append(contentsOf: #","status":"stale"}"#.utf8)
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
        line.append(contentsOf: #","status":"#.utf8)
        JSONWriter.writeString(status.goldenName, into: &line)
        line.append(contentsOf: #","message":"#.utf8)
        JSONWriter.writeString(message, into: &line)
    }

    /// An input refused before it reached the loop (bad JSON, wrong shape, a journal that
    /// could not write it): the bytes as sent, as a string, and the error.
    func writeRejected(_ kind: InputKind, effect: UInt64?, raw: UnsafeRawBufferPointer?, error: Error) {
        guard !stopped else { return }
        seq += 1
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: #"{"seq":"#.utf8)
        line.appendDecimal(seq)
        line.append(contentsOf: #","input":"#.utf8)
        JSONWriter.writeString(kind.rawValue, into: &line)
        if let effect {
            line.append(contentsOf: #","effect":"#.utf8)
            line.appendDecimal(effect)
        }
        if let raw {
            line.append(contentsOf: #","raw":"#.utf8)
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
        stepEvent.removeAll(keepingCapacity: true)
        switch input {
        case .send(let event), .deliver(_, let event):
            if (try? JSONCoding.encode(event, into: &stepEvent)) == nil {
                stepEvent = Array("null".utf8)
            }
        case .complete:
            break
        }
    }

    private func beginInput(_ input: System<F>.Input, event: [UInt8]) {
        seq += 1
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: #"{"seq":"#.utf8)
        line.appendDecimal(seq)
        switch input {
        case .send:
            line.append(contentsOf: #","input":"send","event":"#.utf8)
            line.append(contentsOf: event)
        case .deliver(let effect, _):
            line.append(contentsOf: #","input":"deliver","effect":"#.utf8)
            line.appendDecimal(effect)
            line.append(contentsOf: #","event":"#.utf8)
            line.append(contentsOf: event)
        case .complete(let effect):
            line.append(contentsOf: #","input":"complete","effect":"#.utf8)
            line.appendDecimal(effect)
        }
    }

    private func writeState(_ state: F.State) {
        writeEncoded(state)
    }

    private func resetDiffer(to state: F.State) {
        let fresh = StateDiffer<F.State>()
        differ = (try? fresh.reset(to: state)) != nil ? fresh : nil
    }

    /// `"patch":[...]` from the previous line's state, or `"state":{...}` when there is no
    /// baseline to patch (the previous state could not be encoded).
    private func writeChange(to state: F.State) {
        if let differ {
            scratch.removeAll(keepingCapacity: true)
            if (try? differ.diff(to: state, into: &scratch)) != nil {
                line.append(contentsOf: #""patch":"#.utf8)
                line.append(contentsOf: scratch)
                return
            }
        }
        line.append(contentsOf: #""state":"#.utf8)
        writeState(state)
        resetDiffer(to: state)
    }

    /// Encodes `value`; a value that cannot be encoded (a non-finite Double) is written as
    /// null rather than breaking the line.
    private func writeEncoded<T: Encodable>(_ value: T) {
        scratch.removeAll(keepingCapacity: true)
        if (try? JSONCoding.encode(value, into: &scratch)) != nil {
            line.append(contentsOf: scratch)
        } else {
            line.append(contentsOf: "null".utf8)
        }
    }

    private func writeQueries(_ state: F.State, all: Bool) {
        line.append(UInt8(ascii: "{"))
        var first = true
        for index in queries.indices {
            scratch.removeAll(keepingCapacity: true)
            if (try? encodeExistential(queries[index].evaluate(state), into: &scratch)) == nil {
                scratch = Array("null".utf8)
            }
            if !all && scratch == queryValues[index] { continue }
            queryValues[index] = scratch
            if !first { line.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(queries[index].name, into: &line)
            line.append(UInt8(ascii: ":"))
            line.append(contentsOf: scratch)
        }
        line.append(UInt8(ascii: "}"))
    }

    private func writeCommand(_ command: EffectCommand) {
        switch command {
        case .cancel(let id):
            line.append(contentsOf: #"{"cancel":"#.utf8)
            line.appendDecimal(id)
            line.append(UInt8(ascii: "}"))
        case .start(let id, let feedback, let request):
            line.append(contentsOf: #"{"start":{"id":"#.utf8)
            line.appendDecimal(id)
            line.append(contentsOf: #","feedback":"#.utf8)
            JSONWriter.writeString(feedback, into: &line)
            line.append(contentsOf: #","request":"#.utf8)
            scratch.removeAll(keepingCapacity: true)
            if (try? encodeExistential(request, into: &scratch)) != nil {
                line.append(contentsOf: scratch)
            } else {
                line.append(contentsOf: "null".utf8)
            }
            line.append(contentsOf: "}}".utf8)
        }
    }

    private func finishLine() {
        line.append(contentsOf: "}\n".utf8)
        emit()
    }

    private func emit() {
        let kept = line.withUnsafeBytes { sink.write($0) }
        if !kept { stopped = true }
    }
}

private func encodeExistential<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
    try JSONCoding.encode(value, into: &out)
}
