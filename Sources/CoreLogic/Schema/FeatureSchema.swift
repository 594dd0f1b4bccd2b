/// The JSON Schema (draft 2020-12) of one feature, derived from its Swift types
/// (docs/schemas.md). Every entry point is a member of `$defs`:
///
/// - `state`, `event`: the feature's `State` and `Event`;
/// - `request.<feedback>`: the request of each feedback's `start` commands;
/// - `query.<name>`: the value of each state query;
/// - `command`, `runningEffect`, `batch`, `droppedInput`, `queries`, `patchOperation`,
///   `stateChange`, `stateAtRevision`: the envelopes the C ABI writes around them, in
///   full and in patch output mode.
///
/// The other members of `$defs` are the feature's structs and enums, named after the
/// Swift type (`Todo.Phase`). The document is the same bytes on every run.
public enum FeatureSchema {
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema document of feature `F`.
    /// - Throws: ``SchemaDerivationError`` naming a type whose shape cannot be derived.
    public static func derive<F: Feature>(_ feature: F.Type) throws -> JSONValue {
        let feedbacks = F.feedbacks
        let queries = F.queries
        var entries: [(String, JSONValue)] = []
        var reserved: Set<String> = ["state", "event", "effectId", "revision", "command", "runningEffect", "queries", "patchOperation",
                                     "batch", "droppedInput", "stateChange", "stateAtRevision"]
        for feedback in feedbacks { reserved.insert("request." + feedback.name) }
        for query in queries { reserved.insert("query." + query.name) }
        let deriver = SchemaDeriver(reservedNames: reserved)

        entries.append(("state", try deriver.node(for: F.State.self)))
        entries.append(("event", try deriver.node(for: F.Event.self)))
        for feedback in feedbacks {
            let request = try node(deriver, feedback.requestType)
            entries.append(("request." + feedback.name, request))
        }
        var queryMembers: [(String, JSONValue)] = []
        for query in queries {
            guard let valueType = query.valueType else {
                throw SchemaDerivationError(type: "query '\(query.name)'",
                    "its value type is Encodable but not Decodable; make it Codable")
            }
            entries.append(("query." + query.name, try node(deriver, valueType)))
            queryMembers.append((query.name, ref("query." + query.name)))
        }
        entries += envelope(feedbacks: feedbacks.map(\.name), queries: queryMembers)

        var defs = entries
        for definition in deriver.definitions { defs.append((definition.name, definition.schema)) }
        return .object([
            ("$schema", .string(dialect)),
            ("$id", .string("urn:corelogic:feature:" + F.name)),
            ("title", .string(F.name)),
            ("description", .string("The JSON of feature '\(F.name)' (state version \(F.stateVersion)), derived from its Swift types. Entry points: $defs/state, $defs/event, $defs/request.<feedback>, $defs/query.<name>, $defs/command, $defs/batch.")),
            ("$defs", .object(defs)),
        ])
    }

    private static func node(_ deriver: SchemaDeriver, _ type: any Decodable.Type) throws -> JSONValue {
        try deriver.node(for: type)
    }

    private static func ref(_ name: String) -> JSONValue { SchemaDeriver.reference(name) }

    private static func object(_ properties: [(String, JSONValue)], required: [String]) -> JSONValue {
        .object([
            ("type", .string("object")),
            ("properties", .object(properties)),
            ("required", .array(required.map { .string($0) })),
            ("additionalProperties", .bool(false)),
        ])
    }

    private static func type(_ name: String) -> JSONValue { .object([("type", .string(name))]) }

    private static func arrayOf(_ items: JSONValue) -> JSONValue {
        .object([("type", .string("array")), ("items", items)])
    }

    /// The commands, batches and patch shapes of include/corelogic.h, with this
    /// feature's requests and queries in them.
    private static func envelope(feedbacks: [String], queries: [(String, JSONValue)]) -> [(String, JSONValue)] {
        let counter: (Int64) -> JSONValue = { minimum in
            .object([("type", .string("integer")), ("minimum", .int(minimum)), ("maximum", .uint(UInt64.max))])
        }
        var commands: [JSONValue] = [
            object([("cancel", ref("effectId"))], required: ["cancel"]),
        ]
        var running: [JSONValue] = []
        for name in feedbacks {
            let effect = object([
                ("id", ref("effectId")),
                ("feedback", .object([("const", .string(name))])),
                ("request", ref("request." + name)),
            ], required: ["id", "feedback", "request"])
            commands.append(object([("start", effect)], required: ["start"]))
            running.append(effect)
        }
        let effects = arrayOf(ref("command"))
        let patch = arrayOf(ref("patchOperation"))
        let steps = counter(0)
        // Present only when an input a handler queued was dropped (its journal record
        // failed): never empty.
        let dropped: JSONValue = .object([("type", .string("array")), ("items", ref("droppedInput")), ("minItems", .int(1))])
        let full = object([("state", ref("state")), ("queries", ref("queries")), ("effects", effects), ("steps", steps),
                           ("dropped", dropped)],
                          required: ["state", "effects", "steps"])
        let patched = object([("revision", ref("revision")), ("base", ref("revision")), ("patch", patch),
                              ("queries", ref("queries")), ("effects", effects), ("steps", steps), ("dropped", dropped)],
                             required: ["revision", "base", "patch", "effects", "steps"])
        // Patch mode's batch for a small state: the state whole, at its revision.
        let whole = object([("revision", ref("revision")), ("state", ref("state")), ("queries", ref("queries")),
                            ("effects", effects), ("steps", steps), ("dropped", dropped)],
                           required: ["revision", "state", "effects", "steps"])
        // The dropped input in the journal's shape, with the status and message of its error.
        let droppedInput = object([
            ("input", .object([("oneOf", .array([
                object([("send", ref("event"))], required: ["send"]),
                object([("deliver", object([("effect", ref("effectId")), ("event", ref("event"))], required: ["effect", "event"]))],
                       required: ["deliver"]),
                object([("complete", object([("effect", ref("effectId"))], required: ["effect"]))], required: ["complete"]),
            ]))])),
            ("status", .object([("enum", .array(Status.allCases.filter { $0.rawValue < 0 }.map { .string($0.constantName) }))])),
            ("error", type("string")),
        ], required: ["input", "status", "error"])
        let pointer = type("string")
        let operation: JSONValue = .object([("oneOf", .array([
            object([("op", .object([("enum", .array([.string("add"), .string("replace")]))])), ("path", pointer), ("value", .object([]))],
                   required: ["op", "path", "value"]),
            object([("op", .object([("const", .string("remove"))])), ("path", pointer)], required: ["op", "path"]),
        ]))])
        return [
            ("effectId", counter(1)),
            ("revision", counter(0)),
            ("command", .object([("oneOf", .array(commands))])),
            // No feedback, no running effect: the schema that accepts nothing.
            ("runningEffect", running.isEmpty ? .bool(false) : .object([("oneOf", .array(running))])),
            ("queries", object(queries, required: [])),
            ("patchOperation", operation),
            ("batch", .object([("oneOf", .array([full, patched, whole]))])),
            ("droppedInput", droppedInput),
            ("stateChange", .object([("anyOf", .array([
                ref("state"),
                object([("revision", ref("revision")), ("base", ref("revision")), ("patch", patch)],
                       required: ["revision", "base", "patch"]),
                ref("stateAtRevision"),
            ]))])),
            ("stateAtRevision", object([("revision", ref("revision")), ("state", ref("state"))], required: ["revision", "state"])),
        ]
    }
}
