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
/// Requests cross the boundary as JSON, so **two requests are the same effect if and only
/// if their JSON is identical** (``JSONIdentity``): `"café"` with a precomposed é and
/// `"cafe\u{301}"` are two requests although Swift's `String ==` calls them equal, and so
/// are `0.0` and `-0.0`. The check is `==` first, then a bitwise comparison, and encodes
/// both requests only when they are `==` but not bit-for-bit identical. A request type's
/// `==` must hold for values with identical JSON (synthesized conformances do).
///
/// - ``react(_:_:)``: one effect at a time, keyed by its request. `nil` means no effect
///   (a running one is cancelled). A request the same as the current one changes
///   nothing, whether that effect is still running or has completed. A different
///   request cancels the running effect and starts a new one (latest wins). To run the
///   same request again the state must pass through `nil` or another value.
/// - ``reactSet(_:_:)``: a set of effects, each keyed by its request (its JSON). A
///   request that appears is started, one that disappears is cancelled (if still
///   running), one that stays is untouched. The query returns unique elements in an
///   order of the feature's choosing; that order is the order of the start commands.
public struct Feedback<State> {
    /// Unique within the feature; appears in every `start` command.
    public let name: String
    public let kind: FeedbackKind
    /// The request's type, for the feature's schema (docs/schemas.md).
    @usableFromInline let requestType: AnyDecodableType
    @usableFromInline let makeTracker: (_ name: String) -> EffectTracker<State>

    // The three factories below are @inlinable so that a feature in another module (an
    // app's package) creates its trackers in its own module, where the request type is
    // concrete: the tracker's step is then specialized code, not generic code that looks
    // up type metadata on every step (about 10,000 instructions a search event).

    /// One effect at a time; see the type's documentation for the rules.
    @inlinable
    public static func react<Request: Codable & Equatable>(
        _ name: String, _ query: @escaping (State) -> Request?
    ) -> Feedback {
        Feedback(name: name, kind: .react, requestType: _decodableType(Request.self)) { name in
            let tracker = ReactTracker(feedback: name, query: query)
            return tracker.bind(tracker)
        }
    }

    /// A set of effects keyed by request value; see the type's documentation for the rules.
    @inlinable
    public static func reactSet<Request: Codable & Hashable>(
        _ name: String, _ query: @escaping (State) -> [Request]
    ) -> Feedback {
        Feedback(name: name, kind: .reactSet, requestType: _decodableType(Request.self)) { name in
            let tracker = ReactSetTracker(feedback: name, query: query)
            return tracker.bind(tracker)
        }
    }

    /// This feedback embedded in a parent feature (composition).
    ///
    /// Its name becomes `prefix.name`, so its effects are told apart from the parent's.
    /// While `child` returns nil (the child's state was removed), the feedback asks for
    /// no effect, so every running effect of the child is cancelled.
    @inlinable
    public func pullback<Parent>(prefix: String, _ child: @escaping (Parent) -> State?) -> Feedback<Parent> {
        let makeChild = makeTracker
        let make: (String) -> EffectTracker<Parent> = { scopedName in
            let tracker = ScopedTracker<Parent, State>(child: makeChild(scopedName), project: child)
            return tracker.bind(tracker)
        }
        return Feedback<Parent>(name: prefix + "." + name, kind: kind, requestType: requestType, makeTracker: make)
    }

    @usableFromInline
    init(name: String, kind: FeedbackKind, requestType: AnyDecodableType,
         makeTracker: @escaping (_ name: String) -> EffectTracker<State>) {
        self.name = name
        self.kind = kind
        self.requestType = requestType
        self.makeTracker = makeTracker
    }
}
