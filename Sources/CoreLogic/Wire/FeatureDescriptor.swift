/// A feature as hosts see it: its name, the names of its events, feedbacks and
/// queries, and a factory of systems that speak JSON. The engine knows features only
/// through descriptors; a ``AppFeatures`` lists those one library serves.
public struct FeatureDescriptor {
    public let name: String
    /// Event case names in declaration order (empty if the event type does not list them).
    public let events: [String]
    public let feedbacks: [(name: String, kind: FeedbackKind)]
    public let queries: [String]
    /// The names of the feature's invariants, in declaration order.
    public let invariants: [String]
    public let stateVersion: Int
    private let make: (_ state: UnsafeRawBufferPointer?) throws(CoreLogicFailure) -> AnySystem
    private let migration: (_ state: JSONValue, _ version: Int) throws(CoreLogicFailure) -> JSONValue
    // Restores and schema derivation are left out of the WebAssembly build (docs/web.md).
    #if !hasFeature(Embedded)
    private let replay: (_ state: JSONValue?) throws(CoreLogicFailure) -> JournalReplay
    private let schemaDerivation: () throws(CoreLogicFailure) -> JSONValue
    #endif

    public init<F: Feature>(_ feature: F.Type) {
        name = F.name
        events = JSONCoding.caseNames(of: F.Event.self) ?? []
        feedbacks = F.feedbacks.map { ($0.name, $0.kind) }
        queries = F.queries.map { $0.name }
        invariants = F.invariants.map { $0.name }
        stateVersion = F.stateVersion
        let payloadless = PayloadlessCases<F.Event>(caseNames: events)
        make = { (state) throws(CoreLogicFailure) in
            let first = try state.map { (bytes) throws(CoreLogicFailure) in try WireSystem<F>.decodeState(bytes) } ?? F.initialState
            return AnySystem(WireSystem<F>(System<F>(state: first), payloadless: payloadless))
        }
        migration = { (state, version) throws(CoreLogicFailure) in try F.migrate(state, from: version) }
        #if !hasFeature(Embedded)
        replay = { state in
            try TypedReplay<F>(state: state.map { try WireSystem<F>.decodeState($0) }, payloadless: payloadless)
        }
        schemaDerivation = { try FeatureSchema.derive(F.self) }
        #endif
    }

    #if !hasFeature(Embedded)
    /// The feature's JSON Schema, derived from its Swift types when asked (docs/schemas.md).
    /// - Throws: ``CoreLogicError`` `.schema` naming a type whose shape cannot be derived.
    public func schema() throws(CoreLogicFailure) -> JSONValue {
        do {
            return try schemaDerivation()
        } catch {
            throw CoreLogicError(.schema, "\(name): \(SchemaDerivationError.describe(error))")
        }
    }
    #endif

    /// Creates a system from a state's JSON (nil: the initial state).
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path of the problem.
    public func makeSystem(state: UnsafeRawBufferPointer? = nil) throws(CoreLogicFailure) -> AnySystem {
        try make(state)
    }

    /// Starts a restore (docs/contract.md §7): the snapshot's state (nil: the initial
    /// state), decoded once from the snapshot's tree; records are then applied one by one
    /// (``JournalReplay``). The state was written by the library, so nothing limits its size.
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` when the state does not decode.
    #if !hasFeature(Embedded)
    func beginReplay(state: JSONValue?) throws(CoreLogicFailure) -> JournalReplay {
        try replay(state)
    }
    #endif

    /// Turns a state written by the older state schema `version` into the current shape
    /// with the feature's ``Feature/migrate(_:from:)``; throws if it has none.
    public func migrateState(_ state: JSONValue, from version: Int) throws(CoreLogicFailure) -> JSONValue {
        try migration(state, version)
    }

    /// The description hosts get from `corelogic_features`.
    public var jsonValue: JSONValue {
        .object([
            ("name", .string(name)),
            ("events", .array(events.map { .string($0) })),
            ("feedbacks", .array(feedbacks.map {
                .object([("name", .string($0.name)), ("kind", .string($0.kind.rawValue))])
            })),
            ("queries", .array(queries.map { .string($0) })),
            ("invariants", .array(invariants.map { .string($0) })),
            ("stateVersion", .int(Int64(stateVersion))),
        ])
    }
}
