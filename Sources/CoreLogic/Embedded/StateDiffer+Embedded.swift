// Patch mode in the WebAssembly build (docs/web.md): every state there has direct JSON, so
// the byte differ (Patch/DirectDiffer.swift) is the whole differ; the shadow tree of
// Patch/StateDiffer.swift, which walks `Codable`, is left out.
#if hasFeature(Embedded)

final class StateDiffer<State: Encodable> {
    private let direct = _DirectDiffer<State>.make()

    /// Starts over from `state`, as if the host had just received it whole.
    func reset(to state: State) throws(JSONFailure) {
        guard direct.reset(to: state) else { throw _DirectMismatch() }
    }

    /// Appends the operations from the last state to `state`, and makes it the last one.
    /// On error nothing is appended and the last state stays the one before.
    func diff(to state: State, into out: inout [UInt8]) throws(JSONFailure) {
        try _ByteBuffer.appending(to: &out) { (buffer) throws(JSONFailure) in try diff(to: state, into: &buffer) }
    }

    /// `diff(to:into:)` appending to a byte buffer (a batch's), in its memory.
    func diff(to state: State, into out: inout _ByteBuffer) throws(JSONFailure) {
        guard try direct.diff(to: state, into: &out) else { throw _DirectMismatch() }
    }
}

#endif
