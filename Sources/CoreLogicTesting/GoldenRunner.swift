import CoreLogic

/// Runs one golden file (docs/golden-files.md) in-process against the engine, through
/// the same JSON system the C ABI uses, and returns its failures and the expectations
/// the engine produces now (for update mode). ``GoldenFiles`` runs a whole directory.
public enum GoldenRunner {
    public struct Outcome {
        /// "step 3 (deliver): $.state.query: expected ..., got ..."
        public var failures: [String] = []
        /// The file with every expectation rewritten from the engine; nil when the file
        /// cannot be rewritten safely (a step no longer decodes, or the file is malformed).
        public var updated: JSONValue?
        /// Why `updated` is nil.
        public var notUpdatable: String?
    }

    private struct Failure: Error { let message: String }

    /// Runs `file` (a parsed golden file) against the feature it names in `catalog`.
    public static func run(_ file: JSONValue, catalog: AppFeatures) -> Outcome {
        var outcome = Outcome()
        do {
            outcome.updated = try run(file, catalog: catalog, failures: &outcome.failures)
        } catch let error as Failure {
            outcome.failures.append(error.message)
            outcome.notUpdatable = error.message
        } catch {
            outcome.failures.append("\(error)")
            outcome.notUpdatable = "\(error)"
        }
        return outcome
    }

    private static func run(_ file: JSONValue, catalog: AppFeatures, failures: inout [String]) throws -> JSONValue {
        guard case .object(var fields) = file else { throw Failure(message: "the file is not a JSON object") }
        guard case .string(let featureName)? = file["feature"] else { throw Failure(message: "missing \"feature\"") }
        guard case .array(let steps)? = file["steps"] else { throw Failure(message: "missing \"steps\" array") }
        let feature: FeatureDescriptor
        do { feature = try catalog.named(featureName) } catch { throw Failure(message: "\(error)") }

        let system: AnySystem
        do {
            switch file["state"] {
            case nil, .null?:
                system = try feature.makeSystem()
            case let state?:
                system = try Array(JSONWriter.string(state).utf8).withUnsafeBytes { try feature.makeSystem(state: $0) }
            }
        } catch {
            throw Failure(message: "\"state\": \(error)")
        }

        var initial: [UInt8] = []
        try system.writeInitialBatch { initial = Array($0) }
        let initialBatch = try JSONParser.parse(initial)
        let actualInitial = JSONValue.object([("state", initialBatch["state"] ?? .null), ("effects", initialBatch["effects"] ?? .array([]))])
        if let expected = file["expectInitial"] {
            failures += compare(expected, actualInitial).map { "expectInitial: \($0)" }
            set(&fields, "expectInitial", actualInitial)
        }

        var updatedSteps: [JSONValue] = []
        for (index, step) in steps.enumerated() {
            let label = "step \(index + 1)"
            guard case .object(var stepFields) = step, let action = stepFields.first?.0 else {
                throw Failure(message: "\(label): not an object whose first key is the action")
            }
            let expected = step["expect"] ?? .object([])
            let actual: JSONValue
            do {
                actual = try perform(action, step[action] ?? .null, on: system)
            } catch let error as Failure {
                throw Failure(message: "\(label) (\(action)): \(error.message)")
            }
            failures += compare(expected, actual).map { "\(label) (\(action)): \($0)" }

            if case .string(let was)? = expected["status"], was == "ok" || was == "stale",
               case .string(let now)? = actual["status"], now.hasPrefix("error:") {
                throw Failure(message: "\(label) (\(action)) no longer decodes: \(actual["message"].map(JSONWriter.string) ?? now)")
            }
            var rewritten = actual
            if case .object(var pairs) = rewritten {
                pairs.removeAll { $0.0 == "message" }
                if let kept = expected["error"] { pairs.append(("error", kept)) }
                rewritten = .object(pairs)
            }
            // The invariants that must hold are the file's to say, never the engine's:
            // an update keeps a check step's expectation as written.
            if action == "check" { rewritten = expected }
            set(&stepFields, "expect", rewritten)
            updatedSteps.append(.object(stepFields))
        }
        set(&fields, "steps", .array(updatedSteps))
        return .object(fields)
    }

    /// Runs one step and describes what happened in the shape of an `expect` object.
    private static func perform(_ action: String, _ argument: JSONValue, on system: AnySystem) throws -> JSONValue {
        var stateBefore: [UInt8] = []
        try system.writeState { stateBefore = Array($0) }
        var batch: [UInt8] = []
        let sink: JSONSink = { batch = Array($0) }
        let status: Status
        var message = ""
        var queryValue: JSONValue?
        do {
            switch action {
            case "send":
                status = try bytes(of: argument) { try system.send($0, batch: sink) }
            case "sendRaw":
                guard case .string(let text) = argument else { throw Failure(message: "sendRaw takes a string") }
                status = try Array(text.utf8).withUnsafeBytes { try system.send($0, batch: sink) }
            case "deliver":
                let effect = try effectID(argument["effect"])
                if case .string(let raw)? = argument["raw"] {
                    status = try Array(raw.utf8).withUnsafeBytes { try system.deliver(effect, $0, batch: sink) }
                } else {
                    guard let event = argument["event"] else { throw Failure(message: "deliver needs \"event\" or \"raw\"") }
                    status = try bytes(of: event) { try system.deliver(effect, $0, batch: sink) }
                }
            case "complete":
                let effect = try effectID(argument["effect"] ?? argument)
                status = try system.complete(effect, batch: sink)
            case "query":
                guard case .string(let name) = argument else { throw Failure(message: "query takes a query name") }
                var out: [UInt8] = []
                try system.writeQuery(name) { out = Array($0) }
                queryValue = try JSONParser.parse(out)
                status = .ok
            case "check":
                var out: [UInt8] = []
                system.writeBrokenInvariants { out = Array($0) }
                queryValue = try JSONParser.parse(out)
                status = .ok
            default:
                throw Failure(message: "unknown action '\(action)'; actions: send, sendRaw, deliver, complete, query, check")
            }
        } catch let error as CoreLogicError {
            status = error.status
            message = error.message
        }

        var pairs: [(String, JSONValue)] = [("status", .string(status.goldenName))]
        if status == .ok, let queryValue {
            pairs.append(("value", queryValue))
        } else if status == .ok {
            let parsed = try JSONParser.parse(batch)
            pairs.append(("state", parsed["state"] ?? .null))
            pairs.append(("effects", parsed["effects"] ?? .array([])))
            if case .int(let steps)? = parsed["steps"], steps != 1 { pairs.append(("steps", .int(steps))) }
        } else {
            var stateAfter: [UInt8] = []
            try system.writeState { stateAfter = Array($0) }
            if stateAfter != stateBefore {
                pairs.append(("stateChanged", .string("the state changed on a \(status.goldenName) input")))
            }
            if !message.isEmpty { pairs.append(("message", .string(message))) }
        }
        return .object(pairs)
    }

    /// Compares an `expect` object with what happened: only the keys the file gives are
    /// checked, except that an unchanged state on stale/error is always checked, and
    /// `error` is a substring of the error message.
    private static func compare(_ expected: JSONValue, _ actual: JSONValue) -> [String] {
        guard case .object(let keys) = expected else { return ["expect is not an object"] }
        var out: [String] = []
        if let changed = actual["stateChanged"] { out.append(JSONWriter.string(changed)) }
        for (key, value) in keys {
            if key == "error" {
                guard case .string(let needle) = value else { out.append("error: expected a string"); continue }
                let message: String
                if case .string(let m)? = actual["message"] { message = m } else { message = "" }
                if !message.contains(needle) { out.append("error: expected a message containing \(JSONWriter.string(value)), got \(JSONWriter.string(.string(message)))") }
                continue
            }
            guard let other = actual[key] else {
                out.append("\(key): expected \(JSONWriter.string(value)), missing (status \(actual["status"].map(JSONWriter.string) ?? "?"))")
                continue
            }
            out += jsonDifferences(expected: value, actual: other, path: key == "status" ? "status" : "$.\(key)")
                .map { $0.hasPrefix("$.") ? $0 : $0 }
        }
        return out
    }

    private static func bytes<T>(of value: JSONValue, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try Array(JSONWriter.string(value).utf8).withUnsafeBytes(body)
    }

    private static func effectID(_ value: JSONValue?) throws -> UInt64 {
        switch value {
        case .int(let id)? where id >= 0: return UInt64(id)
        case .uint(let id)?: return id
        default: throw Failure(message: "expected an effect id (a non-negative integer)")
        }
    }

    private static func set(_ pairs: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let index = pairs.firstIndex(where: { $0.0 == key }) {
            pairs[index].1 = value
        } else {
            pairs.append((key, value))
        }
    }
}
