/// Direct JSON for the search feature's hot types: the state goes out in every
/// batch and `pageLoaded` brings a page of items in, so both skip the `Codable`
/// machinery (see `JSONDirectCodable`). The shapes are exactly the synthesized
/// `Codable` ones; `JSONDirectTests` checks both paths agree, byte for byte and
/// error for error.

extension Search.Repository: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("id", id)
        try out.field("name", name)
        try out.field("stars", stars)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.Repository {
        try input.beginObject()
        let r = Search.Repository(id: try input.field("id"), name: try input.field("name"), stars: try input.field("stars"))
        try input.endObject()
        return r
    }
}

extension Search.LoadError: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        switch self {
        case .offline:
            out.payloadlessCase("offline")
        case .rateLimited(let retryAfter):
            out.beginCase("rateLimited")
            try out.field("retryAfter", retryAfter)
            out.endCase()
        }
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.LoadError {
        let error: Search.LoadError
        switch try input.beginCase() {
        case "offline": error = .offline
        case "rateLimited": error = .rateLimited(retryAfter: try input.field("retryAfter"))
        default: throw input.mismatch()
        }
        try input.endCase()
        return error
    }
}

extension Search.State: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("query", query)
        try out.field("items", items)
        try out.field("nextURL", nextURL)
        try out.field("shouldLoadNextPage", shouldLoadNextPage)
        try out.field("lastError", lastError)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.State {
        try input.beginObject()
        let state = Search.State(
            query: try input.field("query"),
            items: try input.field("items"),
            nextURL: try input.optionalField("nextURL"),
            shouldLoadNextPage: try input.field("shouldLoadNextPage"),
            lastError: try input.optionalField("lastError"))
        try input.endObject()
        return state
    }
}

extension Search.Event: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        switch self {
        case .queryChanged(let text):
            out.beginCase("queryChanged")
            try out.field("text", text)
            out.endCase()
        case .reachedBottom:
            out.payloadlessCase("reachedBottom")
        case .pageLoaded(let items, let nextURL):
            out.beginCase("pageLoaded")
            try out.field("items", items)
            try out.field("nextURL", nextURL)
            out.endCase()
        case .loadFailed(let error):
            out.beginCase("loadFailed")
            try out.field("error", error)
            out.endCase()
        case .retry:
            out.payloadlessCase("retry")
        }
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.Event {
        let event: Search.Event
        switch try input.beginCase() {
        case "queryChanged": event = .queryChanged(text: try input.field("text"))
        case "reachedBottom": event = .reachedBottom
        case "pageLoaded": event = .pageLoaded(items: try input.field("items"), nextURL: try input.optionalField("nextURL"))
        case "loadFailed": event = .loadFailed(error: try input.field("error"))
        case "retry": event = .retry
        default: throw input.mismatch()
        }
        try input.endCase()
        return event
    }
}

extension Search.PageRequest: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("url", url)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.PageRequest {
        try input.beginObject()
        let request = Search.PageRequest(url: try input.field("url"))
        try input.endObject()
        return request
    }
}

extension Search.RetryRequest: JSONDirectCodable {
    public func writeJSON(to out: inout JSONOutput) throws {
        out.beginObject()
        try out.field("seconds", seconds)
        out.endObject()
    }

    public static func readJSON(from input: inout JSONInput) throws -> Search.RetryRequest {
        try input.beginObject()
        let request = Search.RetryRequest(seconds: try input.field("seconds"))
        try input.endObject()
        return request
    }
}
