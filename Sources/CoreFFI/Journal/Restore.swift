import CoreLogic

/// Opens a feature from a journal directory (docs/contract.md §7, docs/persistence.md): the snapshot,
/// the inputs after it replayed through the reducer (no effects), then the feedbacks
/// evaluated once, so the creation batch starts exactly the effects the restored state
/// asks for. The restored system journals on into the same directory, starting with a
/// checkpoint of the restored state.
enum Restore {
    struct Result {
        var box: SystemBox
        var report: [UInt8]
        var batch: [UInt8]
    }

    static func run(_ descriptor: FeatureDescriptor, directory: String) throws -> Result {
        guard !directory.isEmpty else { throw argumentError("directory is empty") }
        guard try FileSystem.isDirectory(directory) else {
            throw CoreLogicError(.io, "no journal directory \(directory)")
        }
        let lock = try Journal.lockDirectory(directory)
        let history: History
        var system: JSONSystem
        var firstEffectID: UInt64
        do {
            history = try JournalReader.read(directory, feature: descriptor)
            // Effect ids: the last recorded input saw `maxNext`; its step may have started at
            // most as many effects as its resulting state (the restored state) asks for, so
            // ids from `maxNext + that count` on were never handed out.
            firstEffectID = history.maxNext
            system = try replay(descriptor, history, firstEffectID: firstEffectID, directory: directory)
            var effects: [UInt8] = []
            try system.writeEffects(into: &effects)
            if case .array(let running) = try JSONParser.parse(effects), !running.isEmpty {
                var state: [UInt8] = []
                try system.writeState(into: &state)
                system.close()
                firstEffectID = history.maxNext + UInt64(running.count)
                system = try state.withUnsafeBytes { try descriptor.makeSystem(state: $0, firstEffectID: firstEffectID) }
            }
        } catch {
            closeLock(lock)
            throw error
        }
        let journal = Journal(directory: directory, feature: descriptor.name, stateVersion: descriptor.stateVersion,
                              durability: history.durability, lockFD: lock, seq: history.lastSeq)
        do {
            try system.withExclusiveAccess { try journal.checkpoint(system) }
        } catch {
            system.close()
            throw error
        }
        journal.attach(to: system)
        let box = SystemBox(system)
        box.journal = journal
        var batch: [UInt8] = []
        try system.writeInitialBatch(into: &batch)
        return Result(box: box, report: report(history, firstEffectID: firstEffectID), batch: batch)
    }

    private static func replay(_ descriptor: FeatureDescriptor, _ history: History, firstEffectID: UInt64, directory: String) throws -> JSONSystem {
        do {
            if let state = history.state {
                return try state.withUnsafeBytes {
                    try descriptor.restoreSystem(state: $0, inputs: history.inputs, firstEffectID: firstEffectID)
                }
            }
            return try descriptor.restoreSystem(state: nil, inputs: history.inputs, firstEffectID: firstEffectID)
        } catch let error as InputReplayError {
            let message = (error.underlying as? CoreLogicError)?.message ?? "\(error.underlying)"
            guard error.index < history.locations.count else { throw CoreLogicError(.corrupt, message) }
            let location = history.locations[error.index]
            throw CoreLogicError(.corrupt, "\(location.path) line \(location.line) (record seq \(location.seq)): the event does not decode: \(message)")
        } catch let error as CoreLogicError {
            let snapshot = FileSystem.join(directory, JournalFormat.snapshotName)
            throw CoreLogicError(.corrupt, "\(snapshot): the state does not decode: \(error.message)")
        }
    }

    private static func report(_ history: History, firstEffectID: UInt64) -> [UInt8] {
        var torn = JSONValue.null
        if let tail = history.tornTail {
            torn = .object([("file", .string(tail.path)), ("offset", .int(Int64(tail.offset))), ("bytes", .int(Int64(tail.bytes)))])
        }
        let value = JSONValue.object([
            ("snapshot", .bool(history.snapshotFound)),
            ("migratedFrom", history.migratedFrom.map { .int(Int64($0)) } ?? .null),
            ("seq", .uint(history.lastSeq)),
            ("replayed", .int(Int64(history.inputs.count))),
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
