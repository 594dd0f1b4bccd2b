/// How a feedback's answer maps to running effects (see ``Feedback``).
public enum FeedbackKind: String, Sendable {
    case react
    case reactSet
}

/// An effect query (docs/contract.md §2): from the state alone, which effects must be running.
///
/// The engine evaluates every feedback after every step and compares the answer with
/// what is running:
///
/// - ``react(_:_:)``: one effect at a time, keyed by an `Equatable` request.
///   `nil` means no effect (a running one is cancelled). A request equal to the current
///   one changes nothing, whether that effect is still running or has completed. A
///   different request cancels the running effect and starts a new one (latest wins).
///   To run an equal request again the state must pass through `nil` or another value.
/// - ``reactSet(_:_:)``: a set of effects, each keyed by its request's value. A request
///   that appears is started, one that disappears is cancelled (if still running), one
///   that stays is untouched. The query returns unique elements in an order of the
///   feature's choosing; that order is the order of the start commands.
public struct Feedback<State> {
    /// Unique within the feature; appears in every `start` command.
    public let name: String
    public let kind: FeedbackKind
    let makeTracker: (_ name: String) -> EffectTracker<State>

    /// One effect at a time; see the type's documentation for the rules.
    public static func react<Request: Codable & Equatable>(
        _ name: String, _ query: @escaping (State) -> Request?
    ) -> Feedback {
        Feedback(name: name, kind: .react) { ReactTracker(feedback: $0, query: query) }
    }

    /// A set of effects keyed by request value; see the type's documentation for the rules.
    public static func reactSet<Request: Codable & Hashable>(
        _ name: String, _ query: @escaping (State) -> [Request]
    ) -> Feedback {
        Feedback(name: name, kind: .reactSet) { ReactSetTracker(feedback: $0, query: query) }
    }

    /// This feedback embedded in a parent feature (composition).
    ///
    /// Its name becomes `prefix.name`, so its effects are told apart from the parent's.
    /// While `child` returns nil (the child's state was removed), the feedback asks for
    /// no effect, so every running effect of the child is cancelled.
    public func pullback<Parent>(prefix: String, _ child: @escaping (Parent) -> State?) -> Feedback<Parent> {
        let makeChild = makeTracker
        let make: (String) -> EffectTracker<Parent> = { scopedName in
            ScopedTracker<Parent, State>(child: makeChild(scopedName), project: child)
        }
        return Feedback<Parent>(name: prefix + "." + name, kind: kind, makeTracker: make)
    }

    init(name: String, kind: FeedbackKind, makeTracker: @escaping (_ name: String) -> EffectTracker<State>) {
        self.name = name
        self.kind = kind
        self.makeTracker = makeTracker
    }
}
