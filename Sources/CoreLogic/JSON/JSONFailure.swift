/// The error type the JSON codec's functions are declared to throw.
///
/// In the native library it is `any Error`, so `throws(JSONFailure)` means exactly
/// `throws`. The WebAssembly build (Embedded Swift, docs/web.md) has no existential
/// errors: there the codec throws ``JSONError`` alone.
#if hasFeature(Embedded)
public typealias JSONFailure = JSONError
#else
public typealias JSONFailure = any Error
#endif
