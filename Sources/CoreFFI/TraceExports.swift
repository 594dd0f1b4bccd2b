#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreLogic

// Traces (include/corelogic.h, "Traces"; the format is in docs/inspector.md). The engine
// builds each line (CoreLogic/Trace/); this file only owns the file it goes to.

/// An open trace file. Lines go to the kernel one write() each, so a trace read after a
/// crash holds every line up to the last step. Closed when the last step that may write
/// to it is gone (tracing stopped, another trace started, or the system freed).
final class TraceFile {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw FileSystem.ioError("cannot open the trace", path) }
        fd = opened
    }

    deinit { _ = close(fd) }

    func write(_ line: UnsafeRawBufferPointer) -> Bool {
        (try? FileSystem.writeAll(fd, line, path: path)) != nil
    }

    var sink: TraceSink {
        TraceSink(write: { [self] line in write(line) }, now: monotonicNanoseconds)
    }
}

private func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

@_cdecl("corelogic_system_trace")
public func corelogic_system_trace(_ system: UInt64, _ path: UnsafePointer<CChar>?) -> Int32 {
    abiCall("corelogic_system_trace") {
        let box = try HandleTable.shared.lookup(system)
        guard let path else {
            try box.system.setTrace(nil)
            return .ok
        }
        let name = String(cString: path)
        guard !name.isEmpty else { throw argumentError("path is empty") }
        let file = try TraceFile(path: name)
        try box.system.setTrace(file.sink)
        return .ok
    }
}
