/// One unit of business logic (docs/contract.md §1): a state, the events that change it, a pure
/// reducer, named state queries and feedbacks.
///
/// A feature is a namespace of static members; a running instance is a ``System``.
/// The reducer must be pure and total: the same state and event always give the same
/// new state, and it never fails. Effects are never started by the reducer: each
/// ``Feedback`` says, from the state alone, which effects must be running.
///
/// Event enums should declare their case keys as
/// `enum CodingKeys: String, CodingKey, CaseIterable { ... }` so that an unknown case
/// is reported with the list of valid ones, and hosts see them in `corelogic_features`.
public protocol Feature {
    associatedtype State: Codable
    associatedtype Event: Codable

    /// The stable lowercase name hosts use to create a system (`"counter"`).
    static var name: String { get }
    /// The state a system starts from when the host gives none.
    static var initialState: State { get }
    /// Applies one event to the state. Pure: no effects, no clock, no randomness.
    static func reduce(_ state: inout State, _ event: Event)
    /// The effect queries, in declaration order (the order of commands within a step).
    static var feedbacks: [Feedback<State>] { get }
    /// Read-only projections of state a host may ask for by name.
    static var queries: [StateQuery<State>] { get }
    /// Properties every state this feature reaches must have (``Invariant``). Never
    /// evaluated while a system runs; checked when asked (`corelogic_system_check`, the
    /// explorer, `TestStore`). None by default.
    static var invariants: [Invariant<State>] { get }
    /// The version of `State`'s JSON shape, stored in snapshots (see docs/persistence.md).
    static var stateVersion: Int { get }
    /// Turns the JSON of a state written by an older `stateVersion` into the current shape.
    /// The default has no migration and throws.
    static func migrate(_ state: JSONValue, from version: Int) throws(CoreLogicFailure) -> JSONValue
}

extension Feature {
    public static var feedbacks: [Feedback<State>] { [] }
    public static var queries: [StateQuery<State>] { [] }
    public static var invariants: [Invariant<State>] { [] }
    public static var stateVersion: Int { 1 }
    public static func migrate(_ state: JSONValue, from version: Int) throws(CoreLogicFailure) -> JSONValue {
        throw CoreLogicError(.corrupt,
            "\(name): snapshot has state version \(version), this build reads version \(stateVersion) and has no migration")
    }
}

/// A named, read-only projection of a feature's state (`isLoadingNextPage`).
public struct StateQuery<State> {
    public let name: String
    let evaluate: (State) -> AnyJSONEncodable
    /// The value's type when it is also `Decodable`, for the feature's schema
    /// (docs/schemas.md); nil for an `Encodable`-only value, which has no schema.
    let valueType: AnyDecodableType?

    /// - Parameters:
    ///   - name: unique within the feature; hosts pass it to `corelogic_system_query`.
    ///   - evaluate: a pure function of the state; its result is returned as JSON.
    public init<Value: Encodable>(_ name: String, _ evaluate: @escaping (State) -> Value) {
        self.name = name
        self.evaluate = { _anyEncodable(evaluate($0)) }
        self.valueType = nil
    }

    /// A query whose value is `Codable`, so the feature's schema describes it.
    public init<Value: Codable>(_ name: String, _ evaluate: @escaping (State) -> Value) {
        self.name = name
        self.evaluate = { _anyEncodable(evaluate($0)) }
        self.valueType = _decodableType(Value.self)
    }

    /// This query seen through a parent state (composition): evaluated on the child state
    /// when `child` returns one, otherwise on `fallback`.
    public func pullback<Parent>(prefix: String, _ child: @escaping (Parent) -> State?, fallback: State) -> StateQuery<Parent> {
        let evaluate = self.evaluate
        return StateQuery<Parent>(name: prefix + "." + name, valueType: valueType) { parent in evaluate(child(parent) ?? fallback) }
    }

    init(name: String, valueType: AnyDecodableType?, evaluate: @escaping (State) -> AnyJSONEncodable) {
        self.name = name
        self.valueType = valueType
        self.evaluate = evaluate
    }
}
