// The WebAssembly build writes no traces (Trace/ is left out, docs/web.md): a rejected
// input has nothing to be recorded in.
#if hasFeature(Embedded)
extension WireSystem {
    @inline(__always) func traceRejected(_ kind: InputKind, effect: UInt64?, raw: UnsafeRawBufferPointer?, _ error: CoreLogicFailure) {}
}
#endif
