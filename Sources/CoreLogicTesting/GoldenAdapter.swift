#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreLogic

/// The golden driver's adapter for Swift (docs/golden-files.md, "The driver and the
/// adapters"): the driver's line protocol on standard input and output, over
/// ``AnySystem`` in-process, so the golden files run through the driver for Swift as for
/// every other host. An app's executable target calls it with its features:
///
/// ```swift
/// GoldenAdapter.run(catalog: catalog)
/// ```
///
/// It parses no JSON but a `watch` list: the library's JSON goes to the driver as it is,
/// which compares it and keeps the patch-mode mirror (`mirror` answers `none`). Errors
/// carry no class (`-`), as C's do, and the C function's name before the message.
public enum GoldenAdapter {
    public static func run(catalog: AppFeatures) {
        var system: AnySystem?
        while let line = readLine(strippingNewline: true) {
            var words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let command = words.removeFirst()
            var argument = words.first ?? ""
            var payload: [UInt8] = []
            // create, send and deliver end their line with the length of the payload that follows.
            if ["create", "send", "deliver"].contains(command) {
                var parts = argument.split(separator: " ").map(String.init)
                let size = Int(parts.popLast() ?? "") ?? 0
                argument = parts.joined(separator: " ")
                payload = [UInt8](repeating: 0, count: size + 1)
                guard fread(&payload, 1, size + 1, stdin) == size + 1 else { break }
                payload.removeLast()
            }
            do {
                var out: [UInt8] = []
                var status = Status.ok
                let sink: (UnsafeRawBufferPointer) -> Void = { out = Array($0) }
                switch command {
                case "features":
                    JSONWriter.write(.array(catalog.all.map(\.jsonValue)), into: &out)
                case "create":
                    let feature = try catalog.named(argument)
                    let made = try payload == Array("null".utf8)
                        ? feature.makeSystem() : payload.withUnsafeBytes { try feature.makeSystem(state: $0) }
                    try made.writeInitialBatch { out = Array($0) }
                    system = made
                case "output":
                    try live(system).setOutput(argument == "patch" ? .patch : .full) { out = Array($0) }
                case "watch":
                    guard case .array(let items) = try JSONParser.parse(Array(argument.utf8)) else {
                        throw CoreLogicError(.arg, "watch takes a JSON array of names")
                    }
                    try live(system).watchQueries(items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }) { out = Array($0) }
                case "send":
                    status = try payload.withUnsafeBytes { try live(system).send($0, batch: sink) }
                case "deliver":
                    status = try payload.withUnsafeBytes { try live(system).deliver(UInt64(argument) ?? 0, $0, batch: sink) }
                case "complete":
                    status = try live(system).complete(UInt64(argument) ?? 0, batch: sink)
                case "query":
                    try live(system).writeQuery(argument) { out = Array($0) }
                case "state":
                    try live(system).writeState { out = Array($0) }
                case "check":
                    try live(system).writeBrokenInvariants { out = Array($0) }
                case "free":
                    system?.close()
                    system = nil
                case "mirror":
                    answer("none")
                    continue
                default:
                    throw CoreLogicError(.arg, "unknown command \(command)")
                }
                answer(status == .stale ? "stale" : "ok " + String(decoding: out, as: UTF8.self))
            } catch let error as CoreLogicError {
                // Prefixed with the C function's name, as the C exports prefix their
                // messages, so a failure reads the same through every host.
                let function = functions[command].map { $0 + ": " } ?? ""
                answer("error \(error.status.constantName) - \(function)\(error.message.replacingNewlines())")
            } catch {
                answer("error CORELOGIC_ERR_ARG - \(error)".replacingNewlines())
            }
        }
        system?.close()
    }

    /// The C function each command stands for.
    private static let functions = [
        "features": "corelogic_features", "create": "corelogic_system_new", "output": "corelogic_system_set_output",
        "watch": "corelogic_system_watch_queries", "send": "corelogic_system_send", "deliver": "corelogic_system_deliver",
        "complete": "corelogic_system_complete", "query": "corelogic_system_query", "state": "corelogic_system_state",
        "check": "corelogic_system_check",
    ]

    private static func live(_ system: AnySystem?) throws -> AnySystem {
        guard let system else { throw CoreLogicError(.handle, "no system: create one first") }
        return system
    }

    private static func answer(_ line: String) {
        print(line)
        fflush(stdout)
    }
}

private extension String {
    func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
