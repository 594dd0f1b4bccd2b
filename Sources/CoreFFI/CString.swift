#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif
import CoreLogic

/// A malloc'd, NUL-terminated copy of `bytes`; the host frees it with `corelogic_free`.
/// Nil only if malloc fails.
func mallocCString(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutablePointer<CChar>? {
    guard let memory = malloc(bytes.count + 1) else { return nil }
    if let base = bytes.baseAddress, bytes.count > 0 {
        memcpy(memory, base, bytes.count)
    }
    memory.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
    return memory.assumingMemoryBound(to: CChar.self)
}

/// A string that lives as long as the process, for the `const char *` the ABI returns
/// without transferring ownership (version, status names). Made once at start-up; should
/// malloc fail then, the empty string stands in.
func immortalCString(_ text: String) -> UnsafePointer<CChar> {
    var text = text
    if let copy = text.withUTF8({ mallocCString(UnsafeRawBufferPointer($0)) }) {
        return UnsafePointer(copy)
    }
    return UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The bytes of a host's NUL-terminated string, borrowed for the duration of `body`.
#if hasFeature(Embedded)
func withBorrowedBytes<T, E: Error>(_ text: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
    try body(UnsafeRawBufferPointer(start: text, count: strlen(text)))
}
#else
func withBorrowedBytes<T>(_ text: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    try body(UnsafeRawBufferPointer(start: text, count: strlen(text)))
}
#endif

#if !hasFeature(Embedded)  // no files in the WebAssembly build
/// A host's path (journal directory, trace file) as its bytes, never decoded: a name
/// that is not UTF-8 reaches the file system as it is (`FileSystemPath`).
func borrowedPath(_ text: UnsafePointer<CChar>) throws(CoreLogicFailure) -> FileSystemPath {
    guard let path = withBorrowedBytes(text, { FileSystemPath(bytes: $0) }) else {
        throw CoreLogicError(.arg, "the path holds a NUL byte") // never: strlen stops there
    }
    return path
}
#endif

/// Writes to `out` a fresh C string of the bytes `write` hands to its sink.
func store(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ write: (JSONSink) throws(CoreLogicFailure) -> Void) throws(CoreLogicFailure) {
    var copy: UnsafeMutablePointer<CChar>?
    try write { copy = mallocCString($0) }   // called once, unless `write` throws
    guard let copy else { throw OutOfMemory() }
    out.pointee = copy
}

/// Writes to `out` a fresh C string of `text`.
func store(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ text: String) throws(CoreLogicFailure) {
    var text = text
    guard let copy = text.withUTF8({ mallocCString(UnsafeRawBufferPointer($0)) }) else { throw OutOfMemory() }
    out.pointee = copy
}

/// A malloc for a result failed; `detail` says what the call had already done.
#if hasFeature(Embedded)
// The WebAssembly build throws one error type: the same status and message.
func OutOfMemory(detail: String = "") -> CoreLogicError {
    CoreLogicError(.nomem, "out of memory" + (detail.isEmpty ? "" : ": " + detail))
}
#else
struct OutOfMemory: Error {
    var detail = ""
}
#endif
