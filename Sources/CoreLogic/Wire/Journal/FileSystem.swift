#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations persistence needs, over the C library, each throwing
/// `CoreLogicError(.io)` with the path and the system's reason.
enum FileSystem {
    static func ioError(_ what: String, _ path: String, _ code: Int32 = errno) -> CoreLogicError {
        CoreLogicError(.io, "\(what) \(path): \(String(cString: strerror(code)))")
    }

    /// A file's identity: device and inode.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The identity of an open file; nil if fstat fails.
    static func identity(of fd: Int32) -> Identity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of the file at `path`.
    static func identity(ofPath path: String) throws -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else { throw ioError("cannot stat", path) }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Whether `path` names an existing directory.
    static func isDirectory(_ path: String) throws -> Bool {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return false }
            throw ioError("cannot stat", path)
        }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` (one level) unless it exists.
    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw ioError("cannot create directory", path) }
        guard try isDirectory(path) else { throw CoreLogicError(.io, "\(path) exists and is not a directory") }
    }

    /// The names in `directory`, without "." and "..".
    static func list(_ directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw ioError("cannot open directory", directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            // d_name is NUL-terminated inside a fixed buffer whose tail is uninitialized:
            // read it in place up to the NUL, never as a whole.
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { tuple in
                UnsafeRawPointer(tuple).withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func readAll(_ path: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw ioError("cannot open", path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read", path)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and interrupts.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot write", path)
            }
            offset += count
        }
    }

    static func sync(_ fd: Int32, path: String, dataOnly: Bool = false) throws {
        let result = dataOnly ? fdatasync(fd) : fsync(fd)
        if result != 0 { throw ioError("cannot fsync", path) }
    }

    /// Makes renames and removals in `directory` durable.
    static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw ioError("cannot open directory", directory) }
        defer { close(fd) }
        try sync(fd, path: directory)
    }

    /// Replaces `directory/name` with `bytes` atomically and durably: write a temporary
    /// file, fsync it, rename it over the name, fsync the directory. A crash leaves
    /// either the old file or the new one, never a mix.
    static func replaceAtomically(_ directory: String, _ name: String, _ bytes: [UInt8]) throws {
        var renamed = false
        try replaceAtomically(directory, name, bytes, renamed: &renamed)
    }

    /// ``replaceAtomically(_:_:_:)``; `renamed` is set once the new file took the name, so
    /// a caller knows whether a failure came before or after the replacement.
    static func replaceAtomically(_ directory: String, _ name: String, _ bytes: [UInt8], renamed: inout Bool) throws {
        let path = join(directory, name)
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw ioError("cannot create", temporary) }
        do {
            try bytes.withUnsafeBytes { try writeAll(fd, $0, path: temporary) }
            try sync(fd, path: temporary)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw ioError("cannot rename \(temporary) to", path, code)
        }
        renamed = true
        try syncDirectory(directory)
    }

    static func remove(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT { throw ioError("cannot remove", path) }
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
