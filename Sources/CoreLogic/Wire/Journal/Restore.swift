
/// Opens a feature from a journal directory (docs/contract.md §7, docs/persistence.md): the snapshot,
/// the inputs after it replayed through the reducer (no effects) as they are read, then the
/// feedbacks evaluated once, so the creation batch starts exactly the effects the restored
/// state asks for. The restored system journals on into the same directory, starting with a
/// checkpoint of the restored state.
enum Restore {
    struct Result {
        var system: AnySystem
        var report: [UInt8]
        var batch: [UInt8]
    }

    static func run(_ descriptor: FeatureDescriptor, directory: FileSystemPath) throws -> Result {
        guard !directory.isEmpty else { throw CoreLogicError(.arg, "directory is empty") }
        guard try FileSystem.isDirectory(directory) else {
            let exists = directory.withCString { access($0, F_OK) } == 0
            let reason = String(cString: strerror(exists ? ENOTDIR : ENOENT))
            throw CoreLogicError(.io, "no journal directory \(directory): \(reason)")
        }
        let lock = try Journal.lockDirectory(directory)
        let history: History
        let system: AnySystem
        let firstEffectID: UInt64
        do {
            let replay: JournalReplay
            (history, replay) = try JournalReader.read(directory, feature: descriptor)
            // Effect ids: the last recorded input saw `maxNext`; the ids its step may have
            // started are skipped by the restoring system itself.
            (system, firstEffectID) = replay.finish(previousNextEffectID: history.maxNext)
        } catch {
            closeLock(lock)
            throw error
        }
        let journal = Journal(directory: directory, feature: descriptor.name, stateVersion: descriptor.stateVersion,
                              durability: history.durability, lockFD: lock, seq: history.lastSeq)
        do {
            try system.adopt(journal)
        } catch {
            system.close()
            journal.close()
            throw error
        }
        var batch: [UInt8] = []
        try system.writeInitialBatch { batch = Array($0) }
        return Result(system: system, report: report(history, firstEffectID: firstEffectID), batch: batch)
    }

    private static func report(_ history: History, firstEffectID: UInt64) -> [UInt8] {
        var torn = JSONValue.null
        if let tail = history.tornTail {
            // A byte of the path that is not UTF-8 shows as \xNN: JSON text cannot hold it.
            torn = .object([("file", .string(tail.path.description)), ("offset", .int(Int64(tail.offset))), ("bytes", .int(Int64(tail.bytes)))])
        }
        let value = JSONValue.object([
            ("snapshot", .bool(history.snapshotFound)),
            ("migratedFrom", history.migratedFrom.map { .int(Int64($0)) } ?? .null),
            ("seq", .uint(history.lastSeq)),
            ("replayed", .int(Int64(history.replayed))),
            ("firstEffectId", .uint(firstEffectID)),
            ("durability", .string(history.durability.name)),
            ("tornTail", torn),
        ])
        var out: [UInt8] = []
        JSONWriter.write(value, into: &out)
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func closeLock(_ fd: Int32) {
    _ = close(fd)
}
