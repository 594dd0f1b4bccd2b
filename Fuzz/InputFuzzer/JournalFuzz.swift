#if canImport(Glibc)
import Glibc
#endif
import CoreFFI
import CoreLogic

/// Fuzzing the journal reader and restore: an input is a whole journal directory.
///
///     journal:<feature>\n
///     <file name>\n<file bytes>\0<file name>\n<file bytes>\0...
///
/// Only the names a journal directory may hold are written (`snapshot.json` and
/// `journal-<20 digits>.jsonl`; others are skipped, so nothing is written outside the
/// directory). The files go into a scratch directory (in /dev/shm when there is one:
/// restore checkpoints, and fsync there costs nothing) and are restored through the C
/// ABI, exactly as a host would. Any status is fine; a trap is a crash. One property is
/// checked too: a directory that restored once restores again, after the first system
/// was freed, to the same state (restore's own checkpoint reads back).
enum JournalFuzz {
    static let prefix = Array("journal:".utf8)

    static func isJournalInput(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= prefix.count && bytes.prefix(prefix.count).elementsEqual(prefix)
    }

    private static let directory: String = {
        var info = stat()
        let base = stat("/dev/shm", &info) == 0 ? "/dev/shm" : "/tmp"
        let path = "\(base)/corelogic-journal-fuzz-\(getpid())"
        mkdir(path, 0o755)
        atexit { JournalFuzz.removeScratch() }
        return path
    }()

    private static func removeScratch() {
        clear(directory)
        rmdir(directory)
    }

    static func restore(_ bytes: UnsafeRawBufferPointer) {
        let body = Array(bytes.dropFirst(prefix.count))
        guard let newline = body.firstIndex(of: UInt8(ascii: "\n")) else { return }
        let feature = Array(body[..<newline]) + [0]
        clear(directory)
        var files = 0
        for part in body[(newline + 1)...].split(separator: 0, omittingEmptySubsequences: true) where files < 8 {
            guard let end = part.firstIndex(of: UInt8(ascii: "\n")) else { continue }
            let name = String(decoding: part[part.startIndex..<end], as: UTF8.self)
            guard isJournalFileName(name) else { continue }
            write(directory + "/" + name, part[(end + 1)...])
            files += 1
        }
        guard let first = restoredState(feature) else { return }
        guard let second = restoredState(feature) else {
            fatalError("restored once, then failed to restore again: \(String(cString: corelogic_last_error()))")
        }
        if first != second {
            fatalError("restored twice to different states:\n\(first)\n\(second)")
        }
    }

    /// Restores the scratch directory, reads the state, sends one event and frees the
    /// system; nil if restore did not return OK.
    private static func restoredState(_ feature: [UInt8]) -> String? {
        var system: UInt64 = 0
        var report: UnsafeMutablePointer<CChar>?
        var batch: UnsafeMutablePointer<CChar>?
        let status = feature.withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { name in
                corelogic_system_restore(name.baseAddress, directory, &system, &report, &batch)
            }
        }
        corelogic_free(report)
        corelogic_free(batch)
        guard status == 0 else { return nil }
        var json: UnsafeMutablePointer<CChar>?
        var state = ""
        if corelogic_system_state(system, &json) == 0, let json {
            state = String(cString: json)
        }
        corelogic_free(json)
        _ = corelogic_system_complete(system, 1, nil)
        _ = corelogic_system_free(system)
        return state
    }

    private static func isJournalFileName(_ name: String) -> Bool {
        if name == "snapshot.json" { return true }
        let utf8 = Array(name.utf8)
        let head = Array("journal-".utf8), tail = Array(".jsonl".utf8)
        guard utf8.count == head.count + 20 + tail.count,
              utf8.prefix(head.count).elementsEqual(head), utf8.suffix(tail.count).elementsEqual(tail) else { return false }
        return utf8[head.count..<(head.count + 20)].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func write(_ path: String, _ bytes: ArraySlice<UInt8>) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { break }
                offset += n
            }
        }
        close(fd)
    }

    private static func clear(_ path: String) {
        guard let handle = opendir(path) else { return }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(handle)
    }
}
