#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif
import CoreLogic

/// Each thread's last error message (`corelogic_last_error`), kept as a malloc'd C
/// string in a pthread key whose destructor frees it when the thread exits.
#if hasFeature(Embedded)
/// The last error message of the WebAssembly build, which runs on one thread.
enum LastError {
    nonisolated(unsafe) private static var message: UnsafeMutablePointer<CChar>?
    private static let empty = immortalCString("")

    static var current: UnsafePointer<CChar> { message.map { UnsafePointer($0) } ?? empty }

    static func set(_ text: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 1)
        for byte in text.utf8 {
            if byte == 0 { bytes.append(contentsOf: #"\u0000"#.utf8) } else { bytes.append(byte) }
        }
        let copy = bytes.withUnsafeBytes { mallocCString($0) }
        free(message)
        message = copy
    }

    static func clear() {
        free(message)
        message = nil
    }
}
#else
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in free(pointer) }
        return key
    }()

    private static let empty = immortalCString("")

    /// The calling thread's message; "" when the thread's last call succeeded.
    static var current: UnsafePointer<CChar> {
        guard let pointer = pthread_getspecific(key) else { return empty }
        return UnsafePointer(pointer.assumingMemoryBound(to: CChar.self))
    }

    /// Stores `message` as the thread's last error. A NUL inside it (a name from a host's
    /// JSON, say) is written as `\u0000`: the message is read as a C string, which would
    /// end there.
    static func set(_ message: String) {
        let old = pthread_getspecific(key)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(message.utf8.count + 1)
        for byte in message.utf8 {
            if byte == 0 { bytes.append(contentsOf: #"\u0000"#.utf8) } else { bytes.append(byte) }
        }
        bytes.append(0)
        let copy = bytes.withUnsafeBytes { raw -> UnsafeMutableRawPointer? in
            guard let memory = malloc(raw.count), let base = raw.baseAddress else { return nil }
            memcpy(memory, base, raw.count)
            return memory
        }
        pthread_setspecific(key, copy)
        free(old)
    }

    static func clear() {
        guard let old = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        free(old)
    }
}
#endif

/// Runs one ABI call: maps thrown errors to their status and message, so nothing a
/// host does surfaces as a Swift error, and records the thread's last error.
@inline(__always)
func abiCall(_ function: StaticString, _ body: () throws(CoreLogicFailure) -> Status) -> Int32 {
    do {
        let status = try body()
        if status == .ok { LastError.clear() }
        return status.rawValue
    } catch {
        let (status, message) = failure(error)
        LastError.set("\(function): \(message)")
        return status.rawValue
    }
}

/// The status and message of what an ABI call threw. The WebAssembly build throws
/// ``CoreLogicError`` alone; natively anything else is an argument the call could not take,
/// but for running out of memory.
#if hasFeature(Embedded)
private func failure(_ error: CoreLogicError) -> (Status, String) { (error.status, error.message) }
#else
private func failure(_ error: any Error) -> (Status, String) {
    if let error = error as? CoreLogicError { return (error.status, error.message) }
    if let error = error as? OutOfMemory { return (.nomem, "out of memory" + (error.detail.isEmpty ? "" : ": " + error.detail)) }
    return (.arg, "\(error)")
}
#endif

func argumentError(_ what: String) -> CoreLogicError {
    CoreLogicError(.arg, what)
}
