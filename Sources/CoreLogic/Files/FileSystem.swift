#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's path as the bytes the system calls take. POSIX paths are bytes, not text: a
/// path is never decoded to a `String` and encoded back, so a name that is not UTF-8
/// reaches the kernel exactly as the host gave it, never a look-alike. `description`
/// is for messages only: a byte that is not part of valid UTF-8 shows as `\xNN`.
public struct FileSystemPath: Equatable, CustomStringConvertible {
    /// The path's bytes and a final NUL, ready for a system call.
    private var cString: [UInt8]

    /// The path made of `bytes`; nil when they hold a NUL, which no system call can take
    /// (the path would end there: another path).
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard !bytes.contains(0) else { return nil }
        cString = Array(bytes)
        cString.append(0)
    }

    /// The path spelled by `text`, as its UTF-8 bytes; nil when it holds a NUL.
    public init?(_ text: String) {
        self.init(bytes: text.utf8)
    }

    /// The path's bytes, without the final NUL.
    public var bytes: ArraySlice<UInt8> { cString[..<(cString.count - 1)] }

    public var isEmpty: Bool { cString.count == 1 }

    /// `self` with `name` (one component, written by the library) appended.
    func appending(_ name: String) -> FileSystemPath {
        var result = self
        result.cString.removeLast()
        if result.cString.last != UInt8(ascii: "/") { result.cString.append(UInt8(ascii: "/")) }
        result.cString.append(contentsOf: name.utf8)
        result.cString.append(0)
        return result
    }

    /// `self` with `suffix` appended to its last component.
    func appendingSuffix(_ suffix: String) -> FileSystemPath {
        var result = self
        result.cString.removeLast()
        result.cString.append(contentsOf: suffix.utf8)
        result.cString.append(0)
        return result
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try cString.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path for a message: its valid UTF-8 as text, every other byte as `\xNN`.
    public var description: String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in cString[offset..<(offset + length)] {
                    let hex = String(byte, radix: 16, uppercase: false)
                    text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                }
                offset += length
            case .emptyInput:
                return text
            }
        }
    }
}

/// The few file operations persistence needs, over the C library, each throwing
/// `CoreLogicError(.io)` with the path and the system's reason. Paths are
/// ``FileSystemPath``s: bytes, end to end.
enum FileSystem {
    static func ioError(_ what: String, _ path: FileSystemPath, _ code: Int32 = errno) -> CoreLogicError {
        CoreLogicError(.io, "\(what) \(path): \(String(cString: strerror(code)))")
    }

    /// `open(2)` of `path`.
    static func openFile(_ path: FileSystemPath, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        path.withCString { open($0, flags, mode) }
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
    static func identity(ofPath path: FileSystemPath) throws -> Identity {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw ioError("cannot stat", path) }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    static func join(_ directory: FileSystemPath, _ name: String) -> FileSystemPath {
        directory.appending(name)
    }

    /// Whether `path` names an existing directory.
    static func isDirectory(_ path: FileSystemPath) throws -> Bool {
        var info = stat()
        if path.withCString({ stat($0, &info) }) != 0 {
            if errno == ENOENT { return false }
            throw ioError("cannot stat", path)
        }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// Creates `path` (one level) unless it exists.
    static func makeDirectory(_ path: FileSystemPath) throws {
        if path.withCString({ mkdir($0, 0o755) }) != 0, errno != EEXIST { throw ioError("cannot create directory", path) }
        guard try isDirectory(path) else { throw CoreLogicError(.io, "\(path) exists and is not a directory") }
    }

    /// The names in `directory`, without "." and "..". A name that is not UTF-8 is left
    /// out rather than decoded to a look-alike: the library names its files in ASCII, so
    /// such a file is never one of them.
    static func list(_ directory: FileSystemPath) throws -> [String] {
        guard let handle = directory.withCString({ opendir($0) }) else { throw ioError("cannot open directory", directory) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            // d_name is NUL-terminated inside a fixed buffer whose tail is uninitialized:
            // read it in place up to the NUL, never as a whole.
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { tuple in
                UnsafeRawPointer(tuple).withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(validatingCString: $0)
                }
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func readAll(_ path: FileSystemPath) throws -> [UInt8] {
        let fd = openFile(path, O_RDONLY | O_CLOEXEC)
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
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: FileSystemPath) throws {
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

    static func sync(_ fd: Int32, path: FileSystemPath, dataOnly: Bool = false) throws {
        let result = dataOnly ? fdatasync(fd) : fsync(fd)
        if result != 0 { throw ioError("cannot fsync", path) }
    }

    /// Makes renames and removals in `directory` durable.
    static func syncDirectory(_ directory: FileSystemPath) throws {
        let fd = openFile(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw ioError("cannot open directory", directory) }
        defer { close(fd) }
        try sync(fd, path: directory)
    }

    /// Replaces `directory/name` with `bytes` atomically and durably: write a temporary
    /// file, fsync it, rename it over the name, fsync the directory. A crash leaves
    /// either the old file or the new one, never a mix.
    static func replaceAtomically(_ directory: FileSystemPath, _ name: String, _ bytes: UnsafeRawBufferPointer) throws {
        var renamed = false
        try replaceAtomically(directory, name, bytes, renamed: &renamed)
    }

    /// ``replaceAtomically(_:_:_:)``; `renamed` is set once the new file took the name, so
    /// a caller knows whether a failure came before or after the replacement.
    static func replaceAtomically(_ directory: FileSystemPath, _ name: String, _ bytes: UnsafeRawBufferPointer,
                                  renamed: inout Bool) throws {
        let path = join(directory, name)
        let temporary = path.appendingSuffix(".tmp")
        let fd = openFile(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw ioError("cannot create", temporary) }
        do {
            try writeAll(fd, bytes, path: temporary)
            try sync(fd, path: temporary)
        } catch {
            close(fd)
            temporary.withCString { _ = unlink($0) }
            throw error
        }
        close(fd)
        if temporary.withCString({ from in path.withCString { to in rename(from, to) } }) != 0 {
            let code = errno
            temporary.withCString { _ = unlink($0) }
            throw ioError("cannot rename \(temporary) to", path, code)
        }
        renamed = true
        try syncDirectory(directory)
    }

    static func remove(_ path: FileSystemPath) throws {
        if path.withCString({ unlink($0) }) != 0, errno != ENOENT { throw ioError("cannot remove", path) }
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
