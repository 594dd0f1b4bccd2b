/// Direct JSON for playcatch: the state goes out in every batch and the timer request in
/// every start command, so they skip the `Codable` machinery (see `JSONDirectCodable`).
/// The shapes are exactly the synthesized `Codable` ones; `JSONDirectTests` checks both
/// paths agree, byte for byte and error for error.

extension Playcatch.Player: JSONDirectCodable {
    /// A `String` raw value: the JSON is the raw value as a string.
    public func writeJSON(to out: inout JSONOutput) throws {
        try rawValue.writeJSON(to: &out)
    }

    public static func readJSON(from input: inout JSONInput) throws -> Playcatch.Player {
        guard let player = Playcatch.Player(rawValue: try String.readJSON(from: &input)) else { throw input.mismatch() }
        return player
    }
}

extension Playcatch.State: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("ball", ball)
        try out.field("throwCount", throwCount)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Playcatch.State {
        try input.beginObject()
        let state = Playcatch.State(ball: try input.field("ball"), throwCount: try input.field("throwCount"))
        try input.endObject()
        return state
    }
}

extension Playcatch.Event: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        switch self {
        case .humanThrows: out.payloadlessCase("humanThrows")
        case .machineThrows: out.payloadlessCase("machineThrows")
        }
    }

    public static func readJSON(from input: inout JSONInput) throws -> Playcatch.Event {
        let event: Playcatch.Event
        switch try input.beginCase() {
        case "humanThrows": event = .humanThrows
        case "machineThrows": event = .machineThrows
        default: throw input.mismatch()
        }
        try input.endCase()
        return event
    }
}

extension Playcatch.TimerRequest: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("seconds", seconds)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Playcatch.TimerRequest {
        try input.beginObject()
        let request = Playcatch.TimerRequest(seconds: try input.field("seconds"))
        try input.endObject()
        return request
    }
}
