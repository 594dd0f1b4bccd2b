import CoreFFI
import CoreLogic
import CoreLogicTesting
import Cookbook

// libFuzzer entry point: every byte string a host could send goes through the parser,
// and into every feature as an event (send and deliver) and as a first state. Any
// outcome but a trap is fine: errors are the expected answer to most inputs.
// The direct JSON conformances must also decode every input exactly as Codable does;
// a disagreement is reported as a crash so that libFuzzer keeps the input.
// An input starting with "journal:" is a journal directory instead (JournalFuzz.swift):
// its files are written out and restored through the C ABI.

private let systems: [AnySystem] = Cookbook.catalog.all.compactMap { try? $0.makeSystem() }

@c(LLVMFuzzerTestOneInput)
public func fuzzInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if JournalFuzz.isJournalInput(bytes) {
        JournalFuzz.restore(bytes)
        return 0
    }
    _ = try? JSONParser.parse(bytes)
    let array = Array(bytes)
    if let d = JSONDirectCheck.disagreement(Search.State.self, on: array) ?? JSONDirectCheck.disagreement(Search.Event.self, on: array) {
        fatalError("direct JSON disagrees with Codable: \(d)")
    }
    for system in systems {
        _ = try? system.send(bytes, batch: { _ in })
        _ = try? system.deliver(1, bytes)
    }
    for feature in Cookbook.catalog.all {
        if let system = try? feature.makeSystem(state: bytes) {
            _ = try? system.writeState { _ in }
            _ = try? system.writeInitialBatch { _ in }
        }
    }
    return 0
}

// SwiftPM links an executable's entry point as `<Target>_main`; hand over to libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@c(InputFuzzer_main)
public func inputFuzzerMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzInput(data, size) }
}
