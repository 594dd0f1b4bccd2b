/// Direct JSON for the counter: its state goes out in every batch and its events are
/// the cheapest step there is, so the `Codable` machinery would be most of a step's cost
/// (see `JSONDirectCodable`). The shapes are exactly the synthesized `Codable` ones;
/// `JSONDirectTests` checks both paths agree, byte for byte and error for error.

extension Counter.State: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("count", count)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Counter.State {
        try input.beginObject()
        let state = Counter.State(count: try input.field("count"))
        try input.endObject()
        return state
    }
}

extension Counter.Event: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        switch self {
        case .increment: out.payloadlessCase("increment")
        case .decrement: out.payloadlessCase("decrement")
        }
    }

    public static func readJSON(from input: inout JSONInput) throws -> Counter.Event {
        let event: Counter.Event
        switch try input.beginCase() {
        case "increment": event = .increment
        case "decrement": event = .decrement
        default: throw input.mismatch()
        }
        try input.endCase()
        return event
    }
}
