/// Tracing for the JSON system layer: turning it on and off, and the inputs refused
/// before they reach the loop. The loop reports steps and stale inputs itself, through
/// ``System/StepObserver``.
extension WireSystem {
    func setTrace(_ sink: TraceSink?) throws {
        try system.withExclusiveAccess {
            guard let sink else {
                tracer = nil
                system.stepObserver = nil
                return
            }
            let recorder = TraceRecorder<F>(sink: sink, queries: queries)
            recorder.writeHeader(state: system.state, running: system.runningEffects, nextEffect: system.nextEffectID,
                                 revision: system.revision)
            if recorder.stopped {
                let reason = sink.failure().map { ": " + $0 } ?? ""
                throw CoreLogicError(.io, "\(F.name): the trace's first line could not be written" + reason)
            }
            tracer = recorder
            system.stepObserver = recorder.observer
        }
    }

    /// Records a refused input. Only on error paths, so taking the lock costs nothing on
    /// the way of accepted inputs; a closed system traces nothing.
    func traceRejected(_ kind: InputKind, effect: UInt64?, raw: UnsafeRawBufferPointer?, _ error: Error) {
        if let error = error as? CoreLogicError, error.status == .handle { return }
        system.withExclusiveAccess {
            tracer?.writeRejected(kind, effect: effect, raw: raw, error: error)
        }
    }
}
