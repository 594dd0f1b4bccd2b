import CoreLogic

/// Paginated repository search, the example of the feedback-loop talk.
///
/// Typing a query asks for its first page; reaching the bottom of the list asks for the
/// next one. The `loadPage` request is the URL to load while loading is wanted, so a new
/// query while a page loads changes the request: the old load is cancelled (latest
/// wins) and its late result is stale. Failures are state too: `retryTimer` asks the host
/// to wait before the feature retries by itself.
public enum Search: Feature {
    public struct Repository: Codable, Equatable, Hashable, Sendable {
        public var id: Int64
        public var name: String
        public var stars: Int

        public init(id: Int64, name: String, stars: Int) {
            self.id = id
            self.name = name
            self.stars = stars
        }
    }

    public enum LoadError: Codable, Equatable, Sendable {
        /// No connection, or the connection dropped.
        case offline
        /// The server refused for now; try again after `retryAfter` seconds.
        case rateLimited(retryAfter: Double)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case offline, rateLimited
        }
    }

    public struct State: Codable, Equatable, Sendable {
        /// The text typed so far.
        public var query: String
        /// The results of every page loaded for `query`, in order. A `TrackedArray`, so
        /// that appending a page to a long list costs the page in patch mode.
        public var items: TrackedArray<Repository>
        /// The URL of the next page, relative to the API base; nil when there is none
        /// (no query, or the last page was loaded). The state is journaled and restored
        /// by later runs, so it must not hold what changes between runs: a host turns
        /// the server's absolute next-page links into paths relative to the server
        /// before delivering them, and resolves them against its current server.
        public var nextURL: String?
        /// Whether the next page should be loading now.
        public var shouldLoadNextPage: Bool
        /// The last load's failure, until a retry or a new query.
        public var lastError: LoadError?

        public init(query: String = "", items: [Repository] = [], nextURL: String? = nil,
                    shouldLoadNextPage: Bool = false, lastError: LoadError? = nil) {
            self.query = query
            self.items = TrackedArray(items)
            self.nextURL = nextURL
            self.shouldLoadNextPage = shouldLoadNextPage
            self.lastError = lastError
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The search field's text changed: start over with its first page.
        case queryChanged(text: String)
        /// The list was scrolled to its end: load the next page, if there is one.
        case reachedBottom
        /// A page arrived (from the `loadPage` effect).
        case pageLoaded(items: [Repository], nextURL: String?)
        /// Loading a page failed (from the `loadPage` effect).
        case loadFailed(error: LoadError)
        /// Try the failed load again (the user asked, or `retryTimer` fired).
        case retry

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case queryChanged, reachedBottom, pageLoaded, loadFailed, retry
        }
    }

    /// The `loadPage` effect's request: GET this URL and deliver `pageLoaded` or `loadFailed`.
    public struct PageRequest: Codable, Equatable, Sendable {
        public var url: String
    }

    /// The `retryTimer` effect's request: wait this long, then deliver `retry`.
    public struct RetryRequest: Codable, Equatable, Sendable {
        public var seconds: Double
    }

    public static let name = "search"
    public static var initialState: State { State() }

    /// The first page of a query, relative to the host's API base.
    public static func firstPageURL(for query: String) -> String {
        "/search/repositories?q=" + percentEncoded(query)
    }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .queryChanged(let text):
            state.query = text
            state.items = []
            state.nextURL = text.isEmpty ? nil : firstPageURL(for: text)
            state.shouldLoadNextPage = !text.isEmpty
            state.lastError = nil
        case .reachedBottom:
            guard state.nextURL != nil else { return }
            state.shouldLoadNextPage = true
            state.lastError = nil
        case .pageLoaded(let items, let nextURL):
            state.items.append(contentsOf: items)
            state.nextURL = nextURL
            state.shouldLoadNextPage = false
            state.lastError = nil
        case .loadFailed(let error):
            state.shouldLoadNextPage = false
            state.lastError = error
        case .retry:
            guard state.lastError != nil else { return }
            state.lastError = nil
            state.shouldLoadNextPage = state.nextURL != nil
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [
            .react("loadPage") { state in
                state.shouldLoadNextPage ? state.nextURL.map { PageRequest(url: $0) } : nil
            },
            .react("retryTimer") { (state: State) -> RetryRequest? in
                switch state.lastError {
                case nil: return nil
                case .offline: return RetryRequest(seconds: 1)
                case .rateLimited(let seconds): return RetryRequest(seconds: max(seconds, 0))
                }
            },
        ]
    }

    /// What the docs above promise of every state: a page loads only while there is a
    /// next page to load, and a failed load waits (for `retry`) instead of loading again.
    public static var invariants: [Invariant<State>] {
        [
            Invariant("loadsOnlyWithNextPage") { state in
                state.shouldLoadNextPage && state.nextURL == nil ? "shouldLoadNextPage is true without a nextURL" : nil
            },
            Invariant("failedLoadWaits") { state in
                state.lastError != nil && state.shouldLoadNextPage ? "a page loads while lastError is set" : nil
            },
        ]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("isLoadingNextPage") { $0.shouldLoadNextPage && $0.nextURL != nil },
            StateQuery("canLoadMore") { $0.nextURL != nil && !$0.shouldLoadNextPage && $0.lastError == nil },
        ]
    }

    /// RFC 3986 query-component encoding of UTF-8 (unreserved characters kept).
    static func percentEncoded(_ text: String) -> String {
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
