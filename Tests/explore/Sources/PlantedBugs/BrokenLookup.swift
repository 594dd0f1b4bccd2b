import CoreLogic

/// A lookup whose answers carry the query they answer, with a hand-written guard that is
/// wrong on purpose: it should drop an answer for another query than the current one, but
/// only drops answers for an empty query. The engine cannot help: the answer comes from
/// the running effect, or from the host, so only the guard stands between a stale answer
/// and the reducer. The invariant `resultIsForTheQuery` catches it after an interleaving:
/// type "a", type "b", then an answer for "a" arrives.
public enum BrokenLookup: Feature {
    public struct State: Codable, Equatable, Sendable {
        public var query = ""
        public var loading = false
        public var result: String?
        public var resultFor: String?
    }

    public enum Event: Codable, Equatable, Sendable {
        case typed(text: String)
        case answered(query: String, result: String)
        case failed(query: String)

        public enum CodingKeys: String, CodingKey, CaseIterable { case typed, answered, failed }
    }

    public struct LookupRequest: Codable, Equatable, Sendable {
        public var query: String
    }

    public static let name = "lookup"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .typed(let text):
            state.query = text
            state.result = nil
            state.resultFor = nil
            state.loading = !text.isEmpty
        case .answered(let query, let result):
            guard !query.isEmpty else { return }  // the bug: the guard should be `query == state.query`
            state.result = result
            state.resultFor = query
            state.loading = false
        case .failed(let query):
            guard JSONIdentity.same(query, state.query) else { return }
            state.loading = false
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.react("lookup") { state in state.loading ? LookupRequest(query: state.query) : nil }]
    }

    public static var invariants: [Invariant<State>] {
        [Invariant("resultIsForTheQuery") { state in
            guard let resultFor = state.resultFor, !JSONIdentity.same(resultFor, state.query) else { return nil }
            return "the result shown is for \"\(resultFor)\", the query is \"\(state.query)\""
        }]
    }
}
