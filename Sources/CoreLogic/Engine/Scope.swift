/// Composition: a child feature embedded in a parent feature.
///
/// The parent's state holds the child's state as an optional (nil: the child's screen
/// is gone), the parent's event enum wraps the child's events in one labelled case,
/// and the child's feedbacks and queries are pulled back under a name prefix:
///
/// ```swift
/// case .suggestions(let event):
///     Suggestions.reduce(ifPresent: &state.search, event)
/// ...
/// feedbacks: [.react("load") { ... }] + Suggestions.feedbacks(prefix: "suggestions", \.search)
/// queries:   [...] + Suggestions.queries(prefix: "suggestions", \.search)
/// invariants: [...] + Suggestions.invariants(prefix: "suggestions", \.search)
/// ```
///
/// The rules the pullback gives:
/// - a child feedback named `search` is `suggestions.search` in the parent: its commands,
///   ids and cancellations are told apart from the parent's and from other children's;
/// - while the child's state is nil, its feedbacks ask for nothing, so removing the
///   child's state cancels every running effect of the child, and putting it back
///   starts what the new child state asks for;
/// - a child event that arrives while the child's state is nil is dropped.
extension Feature {
    /// Applies `event` to optional child state; does nothing while `state` is nil.
    public static func reduce(ifPresent state: inout State?, _ event: Event) {
        // Moved out and back, not copied: the child's storage stays uniquely owned, so
        // the reducer mutates it in place.
        guard var child = state.take() else { return }
        reduce(&child, event)
        state = child
    }

    /// Every feedback of this feature, named `prefix.name`, evaluated on the child state
    /// `child` extracts from the parent's (nil: no effects, running ones are cancelled).
    public static func feedbacks<Parent>(
        prefix: String, _ child: @escaping (Parent) -> State?
    ) -> [Feedback<Parent>] {
        feedbacks.map { $0.pullback(prefix: prefix, child) }
    }

    /// Every query of this feature, named `prefix.name`, evaluated on the child state, or
    /// on `fallback` (by default the initial state) while the parent holds none.
    public static func queries<Parent>(
        prefix: String, _ child: @escaping (Parent) -> State?, fallback: State? = nil
    ) -> [StateQuery<Parent>] {
        let empty = fallback ?? initialState
        return queries.map { $0.pullback(prefix: prefix, child, fallback: empty) }
    }

    /// Every invariant of this feature, named `prefix.name`, checked on the child state
    /// `child` extracts from the parent's, and holding while the parent holds none.
    public static func invariants<Parent>(
        prefix: String, _ child: @escaping (Parent) -> State?
    ) -> [Invariant<Parent>] {
        invariants.map { $0.pullback(prefix: prefix, child) }
    }
}
