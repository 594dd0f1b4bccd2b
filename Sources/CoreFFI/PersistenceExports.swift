#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreLogic

// The persistence part of the C ABI (include/corelogic.h, "Persistence"; formats in
// docs/persistence.md): journals, checkpoints and restore. Not only wrappers: these
// exports decide the directory policy (create one level, lock it, refuse a directory
// that already holds a journal, write the first snapshot); the file formats and I/O live in
// Journal/, and the engine only replays.

@_cdecl("corelogic_system_open_journal")
public func corelogic_system_open_journal(_ system: UInt64, _ directory: UnsafePointer<CChar>?, _ durability: Int32) -> Int32 {
    abiCall("corelogic_system_open_journal") {
        let box = try HandleTable.shared.lookup(system)
        guard let directory else { throw argumentError("directory is NULL") }
        guard let mode = Durability(rawValue: durability) else {
            throw argumentError("durability \(durability) is not CORELOGIC_DURABILITY_EVERY_INPUT (0) or CORELOGIC_DURABILITY_INTERVAL (1)")
        }
        let path = String(cString: directory)
        guard !path.isEmpty else { throw argumentError("directory is empty") }
        let descriptor = try FeatureCatalog.named(box.system.featureName)
        return try box.system.withExclusiveAccess {
            if let journal = box.journal {
                throw argumentError("the system already journals into \(journal.directory)")
            }
            try FileSystem.makeDirectory(path)
            let lock = try Journal.lockDirectory(path)
            let names: [String]
            do {
                names = try FileSystem.list(path)
            } catch {
                _ = close(lock)
                throw error
            }
            if let existing = names.first(where: { $0 == JournalFormat.snapshotName || JournalFormat.segmentFirst($0) != nil }) {
                _ = close(lock)
                throw argumentError("\(path) already holds a journal (\(existing)); restore it with corelogic_system_restore or use an empty directory")
            }
            let journal = Journal(directory: path, feature: descriptor.name, stateVersion: descriptor.stateVersion,
                                  durability: mode, lockFD: lock, seq: 0)
            try journal.checkpoint(box.system)
            journal.attach(to: box.system)
            box.journal = journal
            return .ok
        }
    }
}

@_cdecl("corelogic_system_checkpoint")
public func corelogic_system_checkpoint(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_checkpoint") {
        let box = try HandleTable.shared.lookup(system)
        return try box.system.withExclusiveAccess {
            guard let journal = box.journal else { throw argumentError("the system has no journal (corelogic_system_open_journal)") }
            try journal.checkpoint(box.system)
            return .ok
        }
    }
}

@_cdecl("corelogic_system_sync_journal")
public func corelogic_system_sync_journal(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_sync_journal") {
        let box = try HandleTable.shared.lookup(system)
        return try box.system.withExclusiveAccess {
            guard let journal = box.journal else { throw argumentError("the system has no journal (corelogic_system_open_journal)") }
            try journal.sync()
            return .ok
        }
    }
}

@_cdecl("corelogic_system_close_journal")
public func corelogic_system_close_journal(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_close_journal") {
        let box = try HandleTable.shared.lookup(system)
        return try box.system.withExclusiveAccess {
            guard let journal = box.journal else { return .ok }
            box.system.setInputHook(nil)
            journal.close()
            box.journal = nil
            return .ok
        }
    }
}

@_cdecl("corelogic_system_restore")
public func corelogic_system_restore(
    _ feature: UnsafePointer<CChar>?, _ directory: UnsafePointer<CChar>?,
    _ outSystem: UnsafeMutablePointer<UInt64>?, _ outReport: OutString?, _ outBatch: OutString?
) -> Int32 {
    abiCall("corelogic_system_restore") {
        outReport?.pointee = nil
        outBatch?.pointee = nil
        guard let outSystem else { throw argumentError("out_system is NULL") }
        outSystem.pointee = 0
        guard let feature else { throw argumentError("feature is NULL") }
        guard let directory else { throw argumentError("directory is NULL") }
        let descriptor = try FeatureCatalog.named(String(cString: feature))
        let restored = try Restore.run(descriptor, directory: String(cString: directory))
        var report: UnsafeMutablePointer<CChar>?
        var batch: UnsafeMutablePointer<CChar>?
        if let outReport {
            report = restored.report.withUnsafeBytes(mallocCString)
            if report == nil { restored.box.system.close(); throw OutOfMemory() }
        }
        if let outBatch {
            batch = restored.batch.withUnsafeBytes(mallocCString)
            if batch == nil { free(report); restored.box.system.close(); throw OutOfMemory() }
        }
        outReport?.pointee = report
        outBatch?.pointee = batch
        outSystem.pointee = HandleTable.shared.insert(restored.box)
        return .ok
    }
}
