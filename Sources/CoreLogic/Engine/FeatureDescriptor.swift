/// A feature as hosts see it: its name, the names of its events, feedbacks and
/// queries, and a factory of systems that speak JSON. The engine knows features only
/// through descriptors; `FeatureCatalog` lists the built-in ones.
public struct FeatureDescriptor {
    public let name: String
    /// Event case names in declaration order (empty if the event type does not list them).
    public let events: [String]
    public let feedbacks: [(name: String, kind: FeedbackKind)]
    public let queries: [String]
    public let stateVersion: Int
    private let make: (_ state: UnsafeRawBufferPointer?, _ inputs: [InputRecord], _ firstEffectID: UInt64) throws -> JSONSystem
    private let migration: (_ state: JSONValue, _ version: Int) throws -> JSONValue

    public init<F: Feature>(_ feature: F.Type) {
        name = F.name
        events = JSONCoding.caseNames(of: F.Event.self) ?? []
        feedbacks = F.feedbacks.map { ($0.name, $0.kind) }
        queries = F.queries.map(\.name)
        stateVersion = F.stateVersion
        let payloadless = PayloadlessEvents<F.Event>()
        make = { state, inputs, firstEffectID in
            var current = try state.map { try JSONFeatureSystem<F>.decodeState($0) } ?? F.initialState
            for (index, input) in inputs.enumerated() where input.kind != .complete {
                do {
                    let event = try input.event.withUnsafeBytes { try JSONFeatureSystem<F>.decodeEvent($0) }
                    F.reduce(&current, event)
                } catch {
                    throw InputReplayError(index: index, underlying: error)
                }
            }
            return JSONSystem(JSONFeatureSystem<F>(System<F>(state: current, firstEffectID: firstEffectID), payloadless: payloadless))
        }
        migration = { state, version in try F.migrate(state, from: version) }
    }

    /// Creates a system from a state's JSON (nil: the initial state).
    /// - Throws: ``CoreLogicError`` `.json` or `.schema` naming the path of the problem.
    public func makeSystem(state: UnsafeRawBufferPointer? = nil, firstEffectID: UInt64 = 1) throws -> JSONSystem {
        try make(state, [], firstEffectID)
    }

    /// Restores a system (docs/contract.md §7): decodes `state` (nil: the initial state), replays the
    /// journaled `inputs` through the reducer with no effects, then evaluates the feedbacks
    /// once, so the creation batch starts exactly the effects the restored state asks for.
    /// Ids start at `firstEffectID`, after every id the previous life handed out.
    public func restoreSystem(state: UnsafeRawBufferPointer?, inputs: [InputRecord], firstEffectID: UInt64) throws -> JSONSystem {
        try make(state, inputs, firstEffectID)
    }

    /// Turns a state written by the older state schema `version` into the current shape
    /// with the feature's ``Feature/migrate(_:from:)``; throws if it has none.
    public func migrateState(_ state: JSONValue, from version: Int) throws -> JSONValue {
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
            ("stateVersion", .int(Int64(stateVersion))),
        ])
    }
}

/// Thrown by ``FeatureDescriptor/restoreSystem(state:inputs:firstEffectID:)`` when the
/// input at `index` cannot be decoded, so the caller can name the journal record.
public struct InputReplayError: Error {
    public var index: Int
    public var underlying: Error
}

/// One accepted input as JSON, in the form the journal stores and replays.
public struct InputRecord {
    public enum Kind: String, Sendable {
        case send, deliver, complete
    }
    public var kind: Kind
    /// The effect for `deliver` and `complete`; nil for `send`.
    public var effect: UInt64?
    /// The event in canonical compact JSON; empty for `complete`.
    public var event: [UInt8]

    public init(kind: Kind, effect: UInt64?, event: [UInt8]) {
        self.kind = kind
        self.effect = effect
        self.event = event
    }
}
