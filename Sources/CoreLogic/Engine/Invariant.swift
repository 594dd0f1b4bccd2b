/// A property a feature's state must have after every step, declared beside the reducer
/// (`Feature.invariants`): "the items are unique by id", "a page loads only when there
/// is a next page".
///
/// Invariants cost nothing while a system runs: the engine never evaluates them on its
/// own. They are evaluated when asked: by `corelogic_system_check` (the explorer,
/// `python -m corelogic explore`, asks after every step; a golden file's `check` step
/// asks once), by ``AnySystem/writeBrokenInvariants(into:)`` and by `TestStore`, which
/// checks them after every input.
public struct Invariant<State> {
    /// Unique within the feature; listed by `corelogic_features` ("invariants") and named
    /// in every report of a broken invariant.
    public let name: String
    let evaluate: (State) -> String?

    /// An invariant that says what is wrong.
    /// - Parameters:
    ///   - name: unique within the feature, e.g. `"itemsUniqueByID"`.
    ///   - violation: a pure function of the state: nil while the property holds, else a
    ///     message that says what is wrong in this state ("id 7 appears twice").
    public init(_ name: String, _ violation: @escaping (State) -> String?) {
        self.name = name
        self.evaluate = violation
    }

    /// An invariant that holds while `holds` returns true; when broken, its message is
    /// "<name> does not hold".
    public static func require(_ name: String, _ holds: @escaping (State) -> Bool) -> Invariant {
        Invariant(name) { holds($0) ? nil : "\(name) does not hold" }
    }

    /// nil when the invariant holds in `state`, else what is wrong.
    public func violation(in state: State) -> String? { evaluate(state) }

    /// This invariant seen through a parent state (composition): checked on the child
    /// state when `child` returns one, and holding otherwise.
    public func pullback<Parent>(prefix: String, _ child: @escaping (Parent) -> State?) -> Invariant<Parent> {
        let evaluate = self.evaluate
        return Invariant<Parent>(prefix + "." + name) { parent in child(parent).flatMap(evaluate) }
    }
}

/// An invariant that does not hold, as `corelogic_system_check` reports it.
public struct BrokenInvariant: Equatable, Sendable {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}

extension Feature {
    /// The invariants of `Self` broken in `state`, in declaration order (empty when all hold).
    public static func brokenInvariants(in state: State) -> [BrokenInvariant] {
        invariants.compactMap { invariant in
            invariant.violation(in: state).map { BrokenInvariant(name: invariant.name, message: $0) }
        }
    }
}
