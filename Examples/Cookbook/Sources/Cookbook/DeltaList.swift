import CoreLogic

/// A list kept up to date by deltas (`add`, `remove`, `move`) applied to an initial
/// set of items, with no delta lost.
///
/// Two feedbacks run from the start, in this order:
/// - `deltas` is the subscription to changes; it runs for the system's whole life, so
///   the host subscribes before it fetches the initial items and no change can fall
///   between the two.
/// - `loadInitial` fetches the initial items while the list is `loading`.
///
/// Rules:
/// - A delta that arrives before the initial items is kept in `buffered`, in arrival
///   order. When the initial items arrive they replace the list, then every buffered
///   delta is applied in order and the buffer is emptied. After that, deltas apply at
///   once. A delta is never dropped for arriving early, and never applied twice.
/// - Deltas are idempotent where it matters: `add` of an id already in the list is
///   ignored, `remove` and `move` of an id not in the list are ignored. So a change the
///   initial items already contain is harmless when its delta is applied after them.
/// - Indexes are clamped to the list: `add` at a nil or too large index appends,
///   `move` to a too large index moves to the end.
/// - A failed initial load keeps the buffer; `retry` loads again.
public enum DeltaList: Feature {
    public struct Item: Codable, Equatable, Hashable, Sendable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// One change to the list.
    public enum Delta: Codable, Equatable, Sendable {
        /// Insert `item` at `index` (nil: at the end).
        case add(item: Item, index: Int?)
        /// Remove the item with this id.
        case remove(id: String)
        /// Move the item with this id to `index` (its index after the move).
        case move(id: String, index: Int)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case add, remove, move
        }
    }

    public enum Phase: Codable, Equatable, Sendable {
        /// The initial items are being fetched (the `loadInitial` effect runs).
        case loading
        /// Fetching the initial items failed; `retry` fetches again.
        case failed(message: String)
        /// The initial items were applied; deltas apply at once.
        case ready

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case loading, failed, ready
        }
    }

    public struct State: Codable, Equatable, Sendable {
        public var phase: Phase
        /// The items, after the initial items and every delta applied so far.
        public var items: [Item]
        /// Deltas that arrived before the initial items, in arrival order.
        public var buffered: [Delta]

        public init(phase: Phase = .loading, items: [Item] = [], buffered: [Delta] = []) {
            self.phase = phase
            self.items = items
            self.buffered = buffered
        }
    }

    public enum Event: Codable, Equatable, Sendable {
        /// The initial items arrived (from `loadInitial`).
        case initialLoaded(items: [Item])
        /// Fetching the initial items failed (from `loadInitial`).
        case initialFailed(message: String)
        /// Fetch the initial items again after a failure.
        case retry
        /// Insert `item` at `index` (from `deltas`).
        case add(item: Item, index: Int?)
        /// Remove the item with this id (from `deltas`).
        case remove(id: String)
        /// Move the item with this id to `index` (from `deltas`).
        case move(id: String, index: Int)

        public enum CodingKeys: String, CodingKey, CaseIterable {
            case initialLoaded, initialFailed, retry, add, remove, move
        }
    }

    /// The `deltas` effect's request: subscribe to changes and deliver each one as
    /// `add`, `remove` or `move`, in the order they happen.
    public struct SubscribeRequest: Codable, Equatable, Sendable {}

    /// The `loadInitial` effect's request: fetch the items, deliver `initialLoaded` or
    /// `initialFailed`.
    public struct LoadRequest: Codable, Equatable, Sendable {}

    public static let name = "list"
    public static var initialState: State { State() }

    public static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .initialLoaded(let items):
            guard state.phase == .loading else { return }
            state.items = items
            for delta in state.buffered { apply(delta, to: &state.items) }
            state.buffered = []
            state.phase = .ready
        case .initialFailed(let message):
            guard state.phase == .loading else { return }
            state.phase = .failed(message: message)
        case .retry:
            guard case .failed = state.phase else { return }
            state.phase = .loading
        case .add(let item, let index):
            receive(.add(item: item, index: index), &state)
        case .remove(let id):
            receive(.remove(id: id), &state)
        case .move(let id, let index):
            receive(.move(id: id, index: index), &state)
        }
    }

    private static func receive(_ delta: Delta, _ state: inout State) {
        if state.phase == .ready {
            apply(delta, to: &state.items)
        } else {
            state.buffered.append(delta)
        }
    }

    /// Applies one delta with the rules above.
    public static func apply(_ delta: Delta, to items: inout [Item]) {
        switch delta {
        case .add(let item, let index):
            guard !items.contains(where: { JSONIdentity.same($0.id, item.id) }) else { return }
            items.insert(item, at: min(max(index ?? items.count, 0), items.count))
        case .remove(let id):
            items.removeAll { JSONIdentity.same($0.id, id) }
        case .move(let id, let index):
            guard let from = items.firstIndex(where: { JSONIdentity.same($0.id, id) }) else { return }
            let item = items.remove(at: from)
            items.insert(item, at: min(max(index, 0), items.count))
        }
    }

    public static var feedbacks: [Feedback<State>] {
        [
            .react("deltas") { _ in SubscribeRequest() },
            .react("loadInitial") { $0.phase == .loading ? LoadRequest() : nil },
        ]
    }

    /// Deltas wait in the buffer only until the initial items are applied.
    public static var invariants: [Invariant<State>] {
        [Invariant("bufferEmptyWhenReady") { state in
            state.phase == .ready && !state.buffered.isEmpty ? "\(state.buffered.count) delta(s) buffered while ready" : nil
        }]
    }

    public static var queries: [StateQuery<State>] {
        [
            StateQuery("items") { $0.items },
            StateQuery("isLoading") { $0.phase == .loading },
            StateQuery("bufferedCount") { $0.buffered.count },
        ]
    }
}
