#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif
import CoreLogic

// Incremental output (include/corelogic.h, "Output"): patch mode, resync, watched queries.

@c(corelogic_system_set_output)
public func corelogic_system_set_output(_ system: UInt64, _ mode: Int32, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_set_output") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let outputMode = OutputMode(rawValue: mode) else {
            throw argumentError("unknown output mode \(mode); use CORELOGIC_OUTPUT_FULL (0) or CORELOGIC_OUTPUT_PATCH (1)")
        }
        if let out {
            try store(out) { (sink) throws(CoreLogicFailure) in try box.system.setOutput(outputMode, snapshot: sink) }
        } else {
            try box.system.setOutput(outputMode, snapshot: { _ in })
        }
        return .ok
    }
}

@c(corelogic_system_resync)
public func corelogic_system_resync(_ system: UInt64, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_resync") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let out else { throw argumentError("out_json is NULL") }
        try store(out) { (sink) throws(CoreLogicFailure) in try box.system.resync(to: sink) }
        return .ok
    }
}

@c(corelogic_system_watch_queries)
public func corelogic_system_watch_queries(_ system: UInt64, _ namesJSON: UnsafePointer<CChar>?, _ out: OutString?) -> Int32 {
    abiCall("corelogic_system_watch_queries") { () throws(CoreLogicFailure) -> Status in
        out?.pointee = nil
        let box = try HandleTable.shared.lookup(system)
        guard let namesJSON else { throw argumentError("names_json is NULL") }
        let names = try withBorrowedBytes(namesJSON) { (bytes) throws(CoreLogicFailure) in try queryNames(bytes) }
        if let out {
            try store(out) { (sink) throws(CoreLogicFailure) in try box.system.watchQueries(names, values: sink) }
        } else {
            try box.system.watchQueries(names, values: { _ in })
        }
        return .ok
    }
}

/// The names in a JSON array of strings (`["isLoading","count"]`).
private func queryNames(_ bytes: UnsafeRawBufferPointer) throws(CoreLogicFailure) -> [String] {
    let value: JSONValue
    #if hasFeature(Embedded)
    do {
        value = try JSONParser.parse(bytes)
    } catch {
        throw CoreLogicError(.json, "names_json: \(error.message)")
    }
    #else
    do {
        value = try JSONParser.parse(bytes)
    } catch let error as JSONError {
        throw CoreLogicError(.json, "names_json: \(error.message)")
    }
    #endif
    guard case .array(let elements) = value else {
        throw argumentError("names_json must be a JSON array of query names, e.g. [\"isLoading\"]")
    }
    return try elements.map { (element) throws(CoreLogicFailure) -> String in
        guard case .string(let name) = element else {
            throw argumentError("names_json must be a JSON array of query names (strings), e.g. [\"isLoading\"]")
        }
        return name
    }
}
