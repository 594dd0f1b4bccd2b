import CoreLogic

// Traces (include/corelogic.h, "Traces"; the format is in docs/inspector.md). The wire
// layer switches tracing (CoreLogic/Wire/WireSystem+Trace.swift); CoreLogic/Trace/
// builds each line and owns the file.

@c(corelogic_system_trace)
public func corelogic_system_trace(_ system: UInt64, _ path: UnsafePointer<CChar>?) -> Int32 {
    abiCall("corelogic_system_trace") {
        let box = try HandleTable.shared.lookup(system)
        guard let path else {
            try box.system.setTrace(nil)
            return .ok
        }
        let name = try borrowedPath(path)
        guard !name.isEmpty else { throw argumentError("path is empty") }
        try box.system.setTrace(TraceSink.file(name))
        return .ok
    }
}
