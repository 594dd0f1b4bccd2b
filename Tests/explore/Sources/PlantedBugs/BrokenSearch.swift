import CoreLogic
import Cookbook

/// The cookbook's `search` with one bug planted: `retry` after a failure asks for the
/// next page whether or not there is one. The real feature loads again only when a
/// next page exists, and says so in its invariant `loadsOnlyWithNextPage`, which this
/// variant declares too (it reuses the feature's types, feedbacks, queries and
/// invariants). The bug shows only after a particular interleaving: a failure, no next
/// page, then a retry.
public enum BrokenSearch: Feature {
    public typealias State = Search.State
    public typealias Event = Search.Event

    /// The same name as the real feature, so that one golden file runs against both
    /// libraries: it fails against this one and passes against the cookbook's.
    public static let name = Search.name
    public static var initialState: State { Search.initialState }

    public static func reduce(_ state: inout State, _ event: Event) {
        if case .retry = event, state.lastError != nil {
            state.lastError = nil
            state.shouldLoadNextPage = true  // the bug: Search sets `state.nextURL != nil`
            return
        }
        Search.reduce(&state, event)
    }

    public static var feedbacks: [Feedback<State>] { Search.feedbacks }
    public static var queries: [StateQuery<State>] { Search.queries }
    public static var invariants: [Invariant<State>] { Search.invariants }
}

/// The features the planted library serves.
public let catalog = AppFeatures([.feature(BrokenSearch.self), .feature(BrokenLookup.self)])
