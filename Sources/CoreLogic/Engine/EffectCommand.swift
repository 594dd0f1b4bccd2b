/// What the host must do after a step (docs/contract.md §2): stop an effect, or start one.
///
/// JSON: `{"cancel": 3}` and `{"start": {"id": 4, "feedback": "loadPage", "request": {...}}}`.
public enum EffectCommand {
    /// Stop the running effect with this id; any later input for it is stale.
    case cancel(id: UInt64)
    /// Start a new effect for the named feedback with this request.
    case start(id: UInt64, feedback: String, request: AnyJSONEncodable)

    /// The effect id the command is about.
    public var id: UInt64 {
        switch self {
        case .cancel(let id), .start(let id, _, _): return id
        }
    }
}

/// An effect the engine considers running: started and neither cancelled nor completed.
public struct RunningEffect {
    public let id: UInt64
    public let feedback: String
    public let request: AnyJSONEncodable
}

// The native spellings; the WebAssembly build declares its own (Embedded/CodableInEmbedded.swift).
#if !hasFeature(Embedded)
/// An effect's request or a query's value, whatever its type.
public typealias AnyJSONEncodable = any Encodable
@usableFromInline @inline(__always) func _anyEncodable<Value: Encodable>(_ value: Value) -> AnyJSONEncodable { value }

/// The type of a query's value or an effect's request, for the schema (docs/schemas.md).
public typealias AnyDecodableType = any Decodable.Type
@usableFromInline @inline(__always) func _decodableType<Value: Decodable>(_ type: Value.Type) -> AnyDecodableType { type }
#endif
