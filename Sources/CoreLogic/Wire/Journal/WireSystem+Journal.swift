/// Persistence for a system (docs/persistence.md): the directory policy (create one
/// level, lock it, refuse a directory that already holds a journal, write the first
/// snapshot), checkpoints, and the input hook that journals each accepted input before
/// the loop applies it. The C exports only check their arguments and call these.
extension WireSystem {
    func openJournal(directory path: FileSystemPath, durability: Durability) throws {
        guard !path.isEmpty else { throw CoreLogicError(.arg, "directory is empty") }
        try system.withExclusiveAccess {
            if let journal {
                throw CoreLogicError(.arg, "the system already journals into \(journal.directory)")
            }
            try FileSystem.makeDirectory(path)
            let lock = try Journal.lockDirectory(path)
            let journal = Journal(directory: path, feature: F.name, stateVersion: F.stateVersion,
                                  durability: durability, lockFD: lock, seq: 0)
            let names: [String]
            do {
                names = try FileSystem.list(path)
            } catch {
                journal.close()
                throw error
            }
            if let existing = names.first(where: { $0 == JournalFormat.snapshotName || JournalFormat.segmentFirst($0) != nil }) {
                journal.close()
                throw CoreLogicError(.arg, "\(path) already holds a journal (\(existing)); restore it or use an empty directory")
            }
            do {
                try checkpoint(into: journal)
            } catch {
                // The directory held no journal before: take back what the first checkpoint
                // wrote, so a retry (once there is room) starts afresh instead of finding a
                // snapshot it must restore.
                for name in (try? FileSystem.list(path)) ?? []
                where name == JournalFormat.snapshotName || JournalFormat.segmentFirst(name) != nil || name.hasSuffix(".tmp") {
                    try? FileSystem.remove(FileSystem.join(path, name))
                }
                journal.close()
                throw error
            }
            attach(journal)
        }
    }

    func checkpoint() throws {
        try system.withExclusiveAccess {
            guard let journal else { throw CoreLogicError(.arg, "the system has no journal") }
            try checkpoint(into: journal)
        }
    }

    func syncJournal() throws {
        try system.withExclusiveAccess {
            guard let journal else { throw CoreLogicError(.arg, "the system has no journal") }
            try journal.sync()
        }
    }

    /// Stops journaling: syncs pending records, closes the segment and releases the
    /// directory's lock, waiting for a call running on another thread (from inside a
    /// handler, on the draining thread, it runs at once). A no-op without a journal.
    func closeJournal() {
        system.withExclusiveAccess {
            guard let journal else { return }
            system.willApply = nil
            journal.close()
            self.journal = nil
        }
    }

    /// Snapshot of the current state (the caller holds the system exclusively), written
    /// straight into the journal's line.
    private func checkpoint(into journal: Journal) throws {
        let state = system.state
        try journal.checkpoint(next: system.nextEffectID) { line in
            try Self.mapErrors("state") { try JSONCoding.encode(state, into: &line) }
        }
    }

    /// Makes `journal` see every accepted input before it is applied (the system's
    /// ``System/willApply``): the event is written in the library's compact encoding, the
    /// form every host's spelling of it decodes to. Called with the system held.
    func attach(_ journal: Journal) {
        self.journal = journal
        system.willApply = { [unowned self] input in
            guard let journal = self.journal else { return }
            let next = system.nextEffectID
            switch input {
            case .send(let event):
                try journal.append(.send, effect: nil, next: next) { line in try Self.encodeEvent(event, into: &line) }
            case .deliver(let effect, let event):
                try journal.append(.deliver, effect: effect, next: next) { line in try Self.encodeEvent(event, into: &line) }
            case .complete(let effect):
                try journal.append(.complete, effect: effect, next: next) { _ in }
            }
        }
    }

    private static func encodeEvent(_ event: F.Event, into line: inout _ByteBuffer) throws {
        try mapErrors("event") { try JSONCoding.encode(event, into: &line) }
    }
}

extension WireSystem {
    /// Restore: checkpoints the restored state into `journal` (a fresh snapshot and
    /// segment) and journals on into it.
    func adopt(_ journal: Journal) throws {
        try system.withExclusiveAccess {
            try checkpoint(into: journal)
            attach(journal)
        }
    }
}
