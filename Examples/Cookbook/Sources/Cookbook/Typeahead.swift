import CoreLogic

/// Search as you type, with a debounce and latest-wins searches.
///
/// Time is an effect: the core has no clock. Two feedbacks, both derived from state:
///
/// - `debounce` asks for a timer while the typed text is not yet the query:
///   `{"text":"dro","milliseconds":300}`. Each keystroke changes the request, so the
///   running timer is cancelled and a new one starts. When it fires, the host delivers
///   `debounceElapsed(text:)` and the text becomes the query.
/// - `search` asks for a search of the query: `{"query":"drop"}`. A new query cancels
///   the running search (latest wins), so a result for an older query arrives on a
///   cancelled effect and is stale: it never reaches the reducer.
///
/// Rules:
/// - Typing fast (each keystroke within the debounce) searches only the last text.
/// - A query equal to the last searched query is not searched again (the `search`
///   request does not change); typing back the text that is already the query cancels
///   the pending debounce and keeps the results.
/// - An empty text clears the query and the results at once, with no timer and no
///   search; a running search is cancelled.
/// - `debounceElapsed` for a text that is no longer the typed text is ignored, and so
///   are results for a query that is not the current one.
public enum Typeahead: Feature {
    /// One search result.
    public struct Match: Codable, Equatable, Hashable, Sendable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    public struct State: Codable, Equatable, Sendable {
        /// The text in the field, as typed.
        public var text: String
        /// The text that survived the debounce: what is (or was last) searched. Nil when
        /// the field was cleared.
        public var query: String?
        /// The results of `resultsQuery`.
        public var results: [Match]
        /// The query `results` belong to; equal to `query` once its search answered.
        public var resultsQuery: String?
        /// The last search failure for `query`, until the query changes.
        public var failure: String?
        /// How long a keystroke waits before it becomes the query.
        public var debounceMilliseconds: Int

        public init(text: String = "", query: String? = nil, results: [Match] = [],
                    resultsQuery: String? = nil, failure: String? = nil,
                    debounceMilliseconds: Int = 300) {
            self.text = text
            self.query = query
            self.results = results
            self.resultsQuery = resultsQuery
            self.failure = failure
            self.debounceMilliseconds = debounceMilliseconds
        }

        /// Whether the current query's search has not answered yet.
        public var isSearching: Bool { query != nil && !JSONIdentity.same(resultsQuery, query) && failure == nil }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The field's text changed (every keystroke).
        case textChanged(text: String)
        /// The debounce timer for `text` fired (from the `debounce` effect).
        case debounceElapsed(text: String)
        /// The search for `query` answered (from the `search` effect).
        case resultsLoaded(query: String, matches: [Match])
        /// The search for `query` failed (from the `search` effect).
        case searchFailed(query: String, message: String)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case textChanged, debounceElapsed, resultsLoaded, searchFailed
        }
    }

    /// The `debounce` effect's request: wait `milliseconds`, then deliver
    /// `debounceElapsed(text:)` with this text.
    public struct DebounceRequest: Codable, Equatable, Sendable {
        public var text: String
        public var milliseconds: Int
    }

    /// The `search` effect's request: search `query`, then deliver `resultsLoaded` or
    /// `searchFailed` with the same query.
    public struct SearchRequest: Codable, Equatable, Sendable {
        public var query: String
    }

    public static let name = "typeahead"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .textChanged(let text):
            state.text = text
            if text.isEmpty {
                state.query = nil
                state.results = []
                state.resultsQuery = nil
                state.failure = nil
            }
        case .debounceElapsed(let text):
            guard JSONIdentity.same(text, state.text), !text.isEmpty, !JSONIdentity.same(text, state.query) else { return }
            state.query = text
            state.failure = nil
        case .resultsLoaded(let query, let matches):
            guard JSONIdentity.same(query, state.query) else { return }
            state.results = matches
            state.resultsQuery = query
            state.failure = nil
        case .searchFailed(let query, let message):
            guard JSONIdentity.same(query, state.query) else { return }
            state.failure = message
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [
            .react("debounce") { state in
                state.text.isEmpty || JSONIdentity.same(state.text, state.query)
                    ? nil
                    : DebounceRequest(text: state.text, milliseconds: state.debounceMilliseconds)
            },
            .react("search") { state in state.query.map { SearchRequest(query: $0) } },
        ]
    }

    /// Empty text searches nothing and shows nothing; a query is never empty.
    public static var invariants: [Invariant<State>] {
        [
            Invariant("emptyTextHasNoQuery") { state in
                state.text.isEmpty && (state.query != nil || !state.results.isEmpty)
                    ? "the text is empty but a query or results remain" : nil
            },
            Invariant("queryNotEmpty") { state in state.query == "" ? "the query is empty" : nil },
        ]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("results") { $0.results },
            StateQuery("isSearching") { $0.isSearching },
            StateQuery("isWaitingForTyping") { !$0.text.isEmpty && !JSONIdentity.same($0.text, $0.query) },
        ]
    }
}
