#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open trace file. Lines go to the kernel one write() each, so a trace read after a
/// crash holds every line up to the last step. Closed when the last step that may write
/// to it is gone (tracing stopped, another trace started, or the system freed).
final class TraceFile {
    let path: FileSystemPath
    private let fd: Int32
    /// Why the last line could not be written, naming the file.
    private(set) var failure: String?

    init(path: FileSystemPath) throws {
        self.path = path
        let opened = FileSystem.openFile(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw FileSystem.ioError("cannot open the trace", path) }
        fd = opened
    }

    deinit { _ = close(fd) }

    func write(_ line: UnsafeRawBufferPointer) -> Bool {
        do {
            try FileSystem.writeAll(fd, line, path: path)
            return true
        } catch let error as CoreLogicError {
            failure = error.message
        } catch {
            failure = "cannot write \(path): \(error)"
        }
        return false
    }

    var sink: TraceSink {
        var sink = TraceSink(write: { [self] line in write(line) }, now: monotonicNanoseconds)
        sink.failure = { [self] in failure }
        return sink
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

extension TraceSink {
    /// A sink writing to the file at `path` (created or truncated), one write() per line.
    /// - Throws: `.io` naming the path when the file cannot be opened.
    public static func file(_ path: FileSystemPath) throws -> TraceSink {
        try TraceFile(path: path).sink
    }

    /// As above, with the path spelled as text (its UTF-8 bytes).
    /// - Throws: `.arg` when the path holds a NUL; `.io` as above.
    public static func file(_ path: String) throws -> TraceSink {
        guard let bytes = FileSystemPath(path) else { throw CoreLogicError(.arg, "the trace path holds a NUL byte") }
        return try file(bytes)
    }
}
