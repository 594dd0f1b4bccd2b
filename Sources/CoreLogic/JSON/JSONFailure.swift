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

/// The error type the engine, the wire layer and the C exports are declared to throw:
/// `any Error` in the native library, ``CoreLogicError`` alone in the WebAssembly build.
#if hasFeature(Embedded)
public typealias CoreLogicFailure = CoreLogicError
#else
public typealias CoreLogicFailure = any Error
#endif
