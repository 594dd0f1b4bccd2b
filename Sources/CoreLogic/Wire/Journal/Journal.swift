#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The journal of one system: appends every accepted input to the current segment
/// before the input is applied, and writes checkpoints (snapshot + fresh segment).
///
/// Not locked itself: every method runs while the system is held exclusively (the input
/// hook runs inside the system's step lock; ``WireSystem`` wraps the rest in the system's
/// exclusive access), so one system's journal is never used by two
/// threads at once. The directory's `lock` file is held (flock) while the journal is
/// open, so two journals never write one directory.
final class Journal {
    /// In `interval` mode, an append fsyncs when the last fsync is older than this.
    static let syncInterval = 0.1

    let directory: FileSystemPath
    let feature: String
    let stateVersion: Int
    let durability: Durability
    /// The seq of the last record written (or covered by the snapshot).
    private(set) var seq: UInt64

    private var lockFD: Int32
    /// The directory's identity (device, inode) when its lock was taken: a directory
    /// deleted and re-created under the same path is another directory, whose lock this
    /// journal does not hold.
    private var identity: FileSystem.Identity?
    private var segmentFD: Int32 = -1
    private var segmentPath = FileSystemPath(bytes: [])!
    private var segmentSize: off_t = 0
    private var lastSync = 0.0
    private var unsynced = false
    /// Set when the segment may no longer match what was acknowledged; every append
    /// fails until a checkpoint writes a fresh snapshot and segment.
    private var failure: String?
    /// The record, snapshot or segment header being written; reused by every line.
    private var line = ByteScratch(capacity: 256)

    /// Opens `directory/lock` and takes it; fails if another journal holds it.
    static func lockDirectory(_ directory: FileSystemPath) throws -> Int32 {
        let path = FileSystem.join(directory, JournalFormat.lockName)
        let fd = FileSystem.openFile(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw FileSystem.ioError("cannot open", path) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            closeDescriptor(fd)
            if code == EWOULDBLOCK {
                throw CoreLogicError(.io, "\(directory) is in use: another open journal holds \(path)")
            }
            throw FileSystem.ioError("cannot lock", path, code)
        }
        return fd
    }

    /// A journal over a locked directory whose history ends at `seq`. Call
    /// ``checkpoint(next:writeState:)`` before the first append: it writes the snapshot and segment.
    init(directory: FileSystemPath, feature: String, stateVersion: Int, durability: Durability, lockFD: Int32, seq: UInt64) {
        self.directory = directory
        self.feature = feature
        self.stateVersion = stateVersion
        self.durability = durability
        self.lockFD = lockFD
        self.seq = seq
        self.identity = FileSystem.identity(of: lockFD)
    }

    /// Throws `.io` unless `directory` is still the directory whose lock this journal
    /// holds (it was not deleted, moved away or replaced).
    private func checkDirectory() throws {
        guard lockFD >= 0 else { throw CoreLogicError(.io, "journal in \(directory) is closed") }
        let lockPath = FileSystem.join(directory, JournalFormat.lockName)
        let current: FileSystem.Identity
        do {
            current = try FileSystem.identity(ofPath: lockPath)
        } catch let error as CoreLogicError {
            throw CoreLogicError(.io, "journal directory \(directory) was removed or replaced (\(error.message)); checkpoint to take it again, or close the journal")
        }
        if current != identity {
            throw CoreLogicError(.io, "journal directory \(directory) was removed or replaced since the journal locked it; checkpoint to take it again, or close the journal")
        }
    }

    /// Throws `.io` if the segment was unlinked (its directory deleted, or replaced by a
    /// new one): a record written there could never be restored. One fstat, no path walk,
    /// so it costs little per input; a moved directory keeps its files, and the next
    /// checkpoint notices that the path changed (``checkDirectory()``).
    private func checkSegmentLinked() throws {
        var info = stat()
        guard fstat(segmentFD, &info) == 0 else { throw FileSystem.ioError("cannot stat", segmentPath) }
        if info.st_nlink == 0 {
            throw CoreLogicError(.io, "journal segment \(segmentPath) was removed (its directory \(directory) deleted or replaced); nothing written, not applied; checkpoint to take the directory again, or close the journal")
        }
    }

    /// After the directory was replaced: takes the lock of the directory now at the path,
    /// if no other journal holds it and it holds no snapshot or journal of its own.
    private func retakeDirectory() throws {
        try FileSystem.makeDirectory(directory)
        let fd = try Journal.lockDirectory(directory)
        do {
            let names = try FileSystem.list(directory)
            if let existing = names.first(where: { $0 == JournalFormat.snapshotName || JournalFormat.segmentFirst($0) != nil }) {
                throw CoreLogicError(.io, "journal directory \(directory) was replaced by one holding another journal (\(existing)); close this journal")
            }
        } catch {
            closeDescriptor(fd)
            throw error
        }
        if lockFD >= 0 { closeDescriptor(lockFD) }
        lockFD = fd
        identity = FileSystem.identity(of: fd)
        // The old segment lives in the old directory (or nowhere): never append to it again.
        if segmentFD >= 0 {
            closeDescriptor(segmentFD)
            segmentFD = -1
        }
        failure = "the journal directory was replaced"
    }

    deinit {
        close()
        line.release()
    }

    /// Appends one accepted input; throws `.io` (and writes nothing) if it cannot be
    /// made as durable as the journal's mode promises. `writeEvent` appends the event's
    /// compact JSON (nothing for `complete`).
    func append(_ kind: InputKind, effect: UInt64?, next: UInt64, writeEvent: (inout _ByteBuffer) throws -> Void) throws {
        if let failure { throw CoreLogicError(.io, "journal \(segmentPath) is unusable after an earlier error (\(failure)); checkpoint to start a fresh segment") }
        guard segmentFD >= 0 else { throw CoreLogicError(.io, "journal in \(directory) is closed") }
        let seq = self.seq + 1
        var eventBytes = 0
        defer { line.shrinkIfLarge() }
        try JournalFormat.record(kind, effect: effect, seq: seq, next: next, into: &line.buffer) { line in
            let before = line.count
            try writeEvent(&line)
            eventBytes = line.count - before
        }
        // What is acknowledged can be restored: an event the reader could not read back
        // is refused here, before anything is written or applied.
        guard eventBytes <= JSONLimits.default.maxBytes else {
            throw CoreLogicError(.json, "the event's journal form is \(eventBytes) bytes, over the input limit of \(JSONLimits.default.maxBytes) bytes; not journaled, not applied")
        }
        try checkSegmentLinked()
        do {
            try FileSystem.writeAll(segmentFD, line.bytes, path: segmentPath)
        } catch {
            // Take back whatever part of the record reached the file: a rejected input is
            // never in the journal.
            if ftruncate(segmentFD, segmentSize) != 0 {
                failure = "could not truncate a failed record: \(String(cString: strerror(errno)))"
            }
            throw error
        }
        do {
            let now = durability == .everyInput ? 0 : FileSystem.now()
            if durability == .everyInput || now - lastSync >= Self.syncInterval {
                try FileSystem.sync(segmentFD, path: segmentPath, dataOnly: true)
                lastSync = now
                unsynced = false
            } else {
                unsynced = true
            }
        } catch {
            // After a failed fsync the kernel may have dropped dirty pages of earlier
            // records too: nothing more is acknowledged until a checkpoint rewrites it all.
            _ = ftruncate(segmentFD, segmentSize)
            failure = "\(error)"
            throw error
        }
        segmentSize += off_t(line.count)
        self.seq = seq
    }

    /// Writes a snapshot of the state `writeState` appends (the system's compact JSON, with
    /// `next` its next effect id, read while the caller holds it exclusively) and starts a
    /// fresh segment after it, then removes the older segments:
    /// 1. `snapshot.json` replaced atomically (temp, fsync, rename, fsync directory);
    /// 2. the new segment created the same way, holding only its header;
    /// 3. older segments and stray temporary files removed.
    /// A crash between any two steps leaves a directory that restores to the same state.
    /// A state that cannot be written changes nothing.
    func checkpoint(next: UInt64, writeState: (inout _ByteBuffer) throws -> Void) throws {
        defer { line.shrinkIfLarge() }
        try JournalFormat.snapshot(feature: feature, stateVersion: stateVersion, seq: seq, next: next,
                                   durability: durability, into: &line.buffer, writeState: writeState)
        do {
            try checkDirectory()
        } catch {
            // The path now names another directory: take it over only if it is free.
            try retakeDirectory()
        }
        if segmentFD >= 0, unsynced { try FileSystem.sync(segmentFD, path: segmentPath, dataOnly: true) }
        var renamed = false
        do {
            try FileSystem.replaceAtomically(directory, JournalFormat.snapshotName, line.bytes, renamed: &renamed)
        } catch {
            // Once the new snapshot is in place (even if the directory's fsync then failed)
            // the old segment no longer counts: appending to it would lose inputs.
            if renamed { failure = "checkpoint failed after replacing the snapshot: \(error)" }
            throw error
        }
        // The snapshot is durable: from here on, the old segment no longer counts (its first
        // seq is not after the snapshot's), so appending to it would lose inputs.
        line.shrinkIfLarge()
        let name = JournalFormat.segmentName(first: seq + 1)
        let path = FileSystem.join(directory, name)
        JournalFormat.segmentHeader(feature: feature, stateVersion: stateVersion, first: seq + 1, next: next,
                                    durability: durability, into: &line.buffer)
        let fd: Int32
        do {
            try FileSystem.replaceAtomically(directory, name, line.bytes)
            fd = FileSystem.openFile(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            if fd < 0 { throw FileSystem.ioError("cannot open", path) }
        } catch {
            failure = "checkpoint could not start a new segment: \(error)"
            throw error
        }
        if segmentFD >= 0 { closeDescriptor(segmentFD) }
        segmentFD = fd
        segmentPath = path
        segmentSize = off_t(line.count)
        lastSync = FileSystem.now()
        unsynced = false
        failure = nil
        // Old segments only go once the snapshot that covers them is durable (above).
        // Failing to remove one is harmless: restore ignores segments the snapshot covers.
        if let names = try? FileSystem.list(directory) {
            for other in names where other != name && other != JournalFormat.snapshotName {
                if JournalFormat.segmentFirst(other) != nil || other.hasSuffix(".tmp") {
                    try? FileSystem.remove(FileSystem.join(directory, other))
                }
            }
            try? FileSystem.syncDirectory(directory)
        }
    }

    /// Forces written records to stable storage (interval mode; a no-op otherwise).
    func sync() throws {
        guard segmentFD >= 0, unsynced else { return }
        try FileSystem.sync(segmentFD, path: segmentPath, dataOnly: true)
        lastSync = FileSystem.now()
        unsynced = false
    }

    /// Syncs what is pending, closes the segment and releases the directory.
    func close() {
        if segmentFD >= 0 {
            if unsynced { _ = fdatasync(segmentFD) }
            closeDescriptor(segmentFD)
            segmentFD = -1
        }
        if lockFD >= 0 {
            closeDescriptor(lockFD)
            lockFD = -1
        }
    }

}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
