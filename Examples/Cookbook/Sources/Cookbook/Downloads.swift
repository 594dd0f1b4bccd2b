import CoreLogic

/// A download queue: the host enqueues URLs and may cancel them; at most
/// `maxConcurrent` run at once, in enqueue order.
///
/// The `download` feedback (reactSet) asks for exactly the downloads that should be
/// running: the first `maxConcurrent` pending URLs. Finishing, failing or cancelling one
/// removes it from `pending`, so the engine cancels it if it still runs and starts the
/// next in line.
public enum Downloads: Feature {
    public struct Failure: Codable, Equatable, Sendable {
        public var url: String
        public var reason: String
    }

    public struct State: Codable, Equatable, Sendable {
        /// How many downloads may run at once (at least 1).
        public var maxConcurrent: Int
        /// Downloads not yet finished, in enqueue order, each once; the first
        /// `maxConcurrent` run.
        public var pending: OrderedQueue<String>
        /// Finished downloads, in the order they finished (a log: a URL enqueued again
        /// appears again when it finishes again).
        public var finished: [String]
        /// Failed downloads, in the order they failed (a log, like `finished`).
        public var failed: [Failure]

        public init(maxConcurrent: Int = 3, pending: [String] = [], finished: [String] = [], failed: [Failure] = []) {
            self.maxConcurrent = maxConcurrent
            self.pending = OrderedQueue(pending)
            self.finished = finished
            self.failed = failed
        }

        /// The downloads that should be running now.
        public var active: ArraySlice<String> { pending.prefix(max(maxConcurrent, 1)) }
        /// The downloads waiting for a free slot.
        public var waiting: ArraySlice<String> { pending.dropFirst(max(maxConcurrent, 1)) }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// Add a URL at the end of the queue; ignored if it is already pending.
        case enqueue(url: String)
        /// Remove a pending URL, running or waiting; ignored if it is not pending.
        case cancel(url: String)
        /// The download of `url` finished (from the `download` effect); ignored unless pending.
        case finished(url: String)
        /// The download of `url` failed (from the `download` effect); ignored unless pending.
        case failed(url: String, reason: String)
        /// Change how many downloads may run at once (values below 1 count as 1).
        case setMaxConcurrent(value: Int)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case enqueue, cancel, finished, failed, setMaxConcurrent
        }
    }

    /// The `download` effect's request: fetch `url`, then deliver `finished` or `failed`.
    public struct DownloadRequest: Codable, Hashable, Sendable {
        public var url: String
    }

    public static let name = "downloads"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .enqueue(let url):
            state.pending.append(url)
        case .cancel(let url):
            state.pending.remove(url)
        case .finished(let url):
            if state.pending.remove(url) { state.finished.append(url) }
        case .failed(let url, let reason):
            if state.pending.remove(url) { state.failed.append(Failure(url: url, reason: reason)) }
        case .setMaxConcurrent(let value):
            state.maxConcurrent = max(value, 1)
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [.reactSet("download") { state in state.active.map { DownloadRequest(url: $0) } }]
    }

    /// A URL is pending at most once (so it runs at most once), and at least one slot runs.
    public static var invariants: [Invariant<State>] {
        [
            Invariant("pendingUnique") { state in
                var seen = Set<String>()
                for url in state.pending where !seen.insert(url).inserted { return "\(url) is pending twice" }
                return nil
            },
            Invariant("maxConcurrentAtLeastOne") { state in
                state.maxConcurrent >= 1 ? nil : "maxConcurrent is \(state.maxConcurrent)"
            },
        ]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("active") { Array($0.active) },
            StateQuery("pending") { Array($0.waiting) },
            StateQuery("finished") { $0.finished },
        ]
    }
}
