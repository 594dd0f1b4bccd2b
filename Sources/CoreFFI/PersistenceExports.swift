#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreLogic

// The persistence part of the C ABI (include/corelogic.h, "Persistence"; formats in
// docs/persistence.md): argument checks, then the wire layer's journal calls
// (Sources/CoreLogic/Wire/Journal/), which own the directory policy and the formats.

@c(corelogic_system_open_journal)
public func corelogic_system_open_journal(_ system: UInt64, _ directory: UnsafePointer<CChar>?, _ durability: Int32) -> Int32 {
    abiCall("corelogic_system_open_journal") {
        let box = try HandleTable.shared.lookup(system)
        guard let directory else { throw argumentError("directory is NULL") }
        guard let mode = Durability(rawValue: durability) else {
            throw argumentError("durability \(durability) is not CORELOGIC_DURABILITY_EVERY_INPUT (0) or CORELOGIC_DURABILITY_INTERVAL (1)")
        }
        try box.system.openJournal(directory: try borrowedPath(directory), durability: mode)
        return .ok
    }
}

@c(corelogic_system_checkpoint)
public func corelogic_system_checkpoint(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_checkpoint") {
        try HandleTable.shared.lookup(system).system.checkpoint()
        return .ok
    }
}

@c(corelogic_system_sync_journal)
public func corelogic_system_sync_journal(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_sync_journal") {
        try HandleTable.shared.lookup(system).system.syncJournal()
        return .ok
    }
}

@c(corelogic_system_close_journal)
public func corelogic_system_close_journal(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_close_journal") {
        try HandleTable.shared.lookup(system).system.closeJournal()
        return .ok
    }
}

@c(corelogic_system_restore)
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
        let descriptor = try ServedFeatures.named(String(cString: feature))
        let restored = try AnySystem.restore(descriptor, directory: try borrowedPath(directory))
        var report: UnsafeMutablePointer<CChar>?
        var batch: UnsafeMutablePointer<CChar>?
        // Out of memory here gives the directory back: the restored system never existed.
        if outReport != nil {
            report = restored.report.withUnsafeBytes(mallocCString)
            if report == nil { restored.system.closeJournal(); restored.system.close(); throw OutOfMemory() }
        }
        if outBatch != nil {
            batch = restored.batch.withUnsafeBytes(mallocCString)
            if batch == nil { free(report); restored.system.closeJournal(); restored.system.close(); throw OutOfMemory() }
        }
        outReport?.pointee = report
        outBatch?.pointee = batch
        outSystem.pointee = HandleTable.shared.insert(SystemBox(restored.system))
        return .ok
    }
}
