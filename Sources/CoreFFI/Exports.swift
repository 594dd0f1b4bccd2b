#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif
import CoreFFIHook
import CoreLogic

// The C ABI of include/corelogic.h. Each export is a thin wrapper: check arguments,
// find the system, call the wire layer (Sources/CoreLogic/Wire/), map errors to a status.
// No policy here: journals, restore and output modes are decided in the wire layer.

public typealias OutString = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
/// The C type of both handlers, `corelogic_command_fn` and `corelogic_state_fn`.
public typealias HandlerFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void

/// CORELOGIC_VERSION_STRING and CORELOGIC_ABI_VERSION of include/corelogic.h (through
/// CoreFFIHook), the one source of both: bump them there.
let libraryVersion = CORELOGIC_VERSION_STRING
let abiVersion: Int32 = CORELOGIC_ABI_VERSION

private let versionString = immortalCString(libraryVersion)
private let statusNames: [Int32: UnsafePointer<CChar>] = {
    var names: [Int32: UnsafePointer<CChar>] = [:]
    for status in Status.allCases { names[status.rawValue] = immortalCString(status.constantName) }
    return names
}()
private let unknownStatusName = immortalCString("CORELOGIC_UNKNOWN_STATUS")

@c(corelogic_version)
public func corelogic_version() -> UnsafePointer<CChar> { versionString }

@c(corelogic_abi_version)
public func corelogic_abi_version() -> Int32 { abiVersion }

@c(corelogic_status_name)
public func corelogic_status_name(_ status: Int32) -> UnsafePointer<CChar> {
    statusNames[status] ?? unknownStatusName
}

@c(corelogic_last_error)
public func corelogic_last_error() -> UnsafePointer<CChar> { LastError.current }

@c(corelogic_free)
public func corelogic_free(_ json: UnsafeMutablePointer<CChar>?) {
    free(json)
}

@c(corelogic_features)
public func corelogic_features(_ out: OutString?) -> Int32 {
    abiCall("corelogic_features") { () throws(CoreLogicFailure) -> Status in
        guard let out else { throw argumentError("out_json is NULL") }
        out.pointee = nil
        let features = try ServedFeatures.all
        try store(out, JSONWriter.string(.array(features.map { $0.jsonValue })))
        return .ok
    }
}

// Schemas are derived from `Codable` (Schema/), which the WebAssembly build does not have:
// its hosts read the committed schemas (docs/web.md).
#if !hasFeature(Embedded)
@c(corelogic_feature_schema)
public func corelogic_feature_schema(_ feature: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    abiCall("corelogic_feature_schema") { () throws(CoreLogicFailure) -> Status in
        guard let out else { throw argumentError("out_json is NULL") }
        out.pointee = nil
        guard let feature else { throw argumentError("feature is NULL") }
        let schema = try ServedFeatures.named(String(cString: feature)).schema()
        try store(out, JSONWriter.string(schema))
        return .ok
    }
}
#endif

@c(corelogic_system_new)
public func corelogic_system_new(
    _ feature: UnsafePointer<CChar>?, _ state: UnsafePointer<CChar>?,
    _ outSystem: UnsafeMutablePointer<UInt64>?, _ outBatch: OutString?
) -> Int32 {
    abiCall("corelogic_system_new") { () throws(CoreLogicFailure) -> Status in
        outBatch?.pointee = nil
        guard let outSystem else { throw argumentError("out_system is NULL") }
        outSystem.pointee = 0
        guard let feature else { throw argumentError("feature is NULL") }
        let descriptor = try ServedFeatures.named(String(cString: feature))
        #if hasFeature(Embedded)
        // `??` would take the factory as an untyped-throwing autoclosure.
        let system: AnySystem
        if let state {
            system = try withBorrowedBytes(state) { (bytes) throws(CoreLogicFailure) in try descriptor.makeSystem(state: bytes) }
        } else {
            system = try descriptor.makeSystem()
        }
        #else
        let system = try state.map { text in
            try withBorrowedBytes(text) { try descriptor.makeSystem(state: $0) }
        } ?? descriptor.makeSystem()
        #endif
        if let outBatch {
            try store(outBatch) { (sink) throws(CoreLogicFailure) in try system.writeInitialBatch(to: sink) }
        }
        outSystem.pointee = HandleTable.shared.insert(SystemBox(system))
        return .ok
    }
}

@c(corelogic_system_free)
public func corelogic_system_free(_ system: UInt64) -> Int32 {
    abiCall("corelogic_system_free") { () throws(CoreLogicFailure) -> Status in
        let box = try HandleTable.shared.remove(system)
        box.system.close()
        // Like close_journal: the directory is released (and, in interval mode, synced)
        // before free returns, even when a call on the system is still running.
        #if !hasFeature(Embedded)
        box.system.closeJournal()
        #endif
        return .ok
    }
}

/// Runs `call` with a sink that copies the batch into a malloc'd string for the host.
private func copyingBatch(to outBatch: OutString, _ call: (JSONSink) throws(CoreLogicFailure) -> Status) throws(CoreLogicFailure) -> Status {
    // The copy is left in a local the sink writes directly: the sink does not escape (the
    // engine hands it the batch under the system's lock and keeps it no longer), so it
    // needs no heap context. An escaping sink (measured: about 900 instructions more per
    // call), or a class instance to hold the copy, cost an allocation and its release.
    var copy: UnsafeMutablePointer<CChar>?
    let status = try call { bytes in copy = mallocCString(bytes) }
    if status == .ok {
        guard let copy else {
            throw OutOfMemory(detail: "input applied, but its batch could not be copied; read corelogic_system_state and corelogic_system_effects")
        }
        outBatch.pointee = copy
    } else {
        free(copy)
    }
    return status
}

private func staleError(_ effect: UInt64) -> Status {
    LastError.set("effect \(effect) is not running (cancelled, completed, or never started); input dropped")
    return .stale
}

@c(corelogic_system_send)
public func corelogic_system_send(_ system: UInt64, _ event: UnsafePointer<CChar>?, _ outBatch: OutString?) -> Int32 {
    abiCall("corelogic_system_send") { () throws(CoreLogicFailure) -> Status in
        outBatch?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let event else { throw argumentError("event_json is NULL") }
        return try withBorrowedBytes(event) { (bytes) throws(CoreLogicFailure) -> Status in
            guard let outBatch else { return try box.system.send(bytes) }
            return try copyingBatch(to: outBatch) { (sink) throws(CoreLogicFailure) -> Status in try box.system.send(bytes, batch: sink) }
        }
    }
}

@c(corelogic_system_deliver)
public func corelogic_system_deliver(
    _ system: UInt64, _ effect: UInt64, _ event: UnsafePointer<CChar>?, _ outBatch: OutString?
) -> Int32 {
    let status = abiCall("corelogic_system_deliver") { () throws(CoreLogicFailure) -> Status in
        outBatch?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let event else { throw argumentError("event_json is NULL") }
        return try withBorrowedBytes(event) { (bytes) throws(CoreLogicFailure) -> Status in
            guard let outBatch else { return try box.system.deliver(effect, bytes) }
            return try copyingBatch(to: outBatch) { (sink) throws(CoreLogicFailure) -> Status in try box.system.deliver(effect, bytes, batch: sink) }
        }
    }
    return status == Status.stale.rawValue ? staleError(effect).rawValue : status
}

@c(corelogic_system_complete)
public func corelogic_system_complete(_ system: UInt64, _ effect: UInt64, _ outBatch: OutString?) -> Int32 {
    let status = abiCall("corelogic_system_complete") { () throws(CoreLogicFailure) -> Status in
        outBatch?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let outBatch else { return try box.system.complete(effect) }
        return try copyingBatch(to: outBatch) { (sink) throws(CoreLogicFailure) -> Status in try box.system.complete(effect, batch: sink) }
    }
    return status == Status.stale.rawValue ? staleError(effect).rawValue : status
}

@c(corelogic_system_state)
public func corelogic_system_state(_ system: UInt64, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_state") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let out else { throw argumentError("out_json is NULL") }
        try store(out) { (sink) throws(CoreLogicFailure) in try box.system.writeState(to: sink) }
        return .ok
    }
}

@c(corelogic_system_query)
public func corelogic_system_query(_ system: UInt64, _ name: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_query") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let name else { throw argumentError("name is NULL") }
        guard let out else { throw argumentError("out_json is NULL") }
        let queryName = String(cString: name)
        try store(out) { (sink) throws(CoreLogicFailure) in try box.system.writeQuery(queryName, to: sink) }
        return .ok
    }
}

@c(corelogic_system_effects)
public func corelogic_system_effects(_ system: UInt64, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_effects") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let out else { throw argumentError("out_json is NULL") }
        try store(out) { box.system.writeEffects(to: $0) }
        return .ok
    }
}

/// The handler setters' one body: `install` gives the system its new handler, or nil
/// (a NULL function) to remove it; the host's context pointer travels with the function.
private func setHandler(
    _ name: StaticString, _ system: UInt64, _ handler: HandlerFunction?, _ context: UnsafeMutableRawPointer?,
    _ install: (SystemBox, ((UnsafePointer<CChar>) -> Void)?) -> Void
) -> Int32 {
    abiCall(name) { () throws(CoreLogicFailure) -> Status in
        let box = try HandleTable.shared.lookup(system)
        install(box, handler.map { function in { json in function(context, json) } })
        return .ok
    }
}

@c(corelogic_system_on_command)
public func corelogic_system_on_command(_ system: UInt64, _ handler: HandlerFunction?, _ context: UnsafeMutableRawPointer?) -> Int32 {
    setHandler("corelogic_system_on_command", system, handler, context) { box, handler in
        box.system.setCommandHandler(handler)
    }
}

@c(corelogic_system_on_state)
public func corelogic_system_on_state(_ system: UInt64, _ handler: HandlerFunction?, _ context: UnsafeMutableRawPointer?) -> Int32 {
    setHandler("corelogic_system_on_state", system, handler, context) { box, handler in
        box.system.setStateHandler(handler)
    }
}

@c(corelogic_system_check)
public func corelogic_system_check(_ system: UInt64, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_check") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let out else { throw argumentError("out_json is NULL") }
        try store(out) { box.system.writeBrokenInvariants(to: $0) }
        return .ok
    }
}
