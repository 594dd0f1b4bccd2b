/// A `DecodingError` thrown by synthesized code, as a `JSONError` with its JSON path.
func _schemaError(_ error: Error) -> Error {
    guard let e = error as? DecodingError else { return error }
    switch e {
    case .typeMismatch(_, let ctx):
        let p = JSONPath.render(codingPath: ctx.codingPath)
        if ctx.debugDescription.hasPrefix("Invalid number of keys"), p == "$" {
            return JSONError.schema(p, _enumDiagnosis(keys: [], keyType: nil))
        }
        return JSONError.schema(p, ctx.debugDescription)
    case .keyNotFound(let key, let ctx):
        return JSONError.schema(JSONPath.render(codingPath: ctx.codingPath), "missing key '\(key.stringValue)'")
    case .valueNotFound(_, let ctx), .dataCorrupted(let ctx):
        return JSONError.schema(JSONPath.render(codingPath: ctx.codingPath), ctx.debugDescription)
    @unknown default:
        return JSONError.schema("$", String(describing: e))
    }
}

/// Case names of a `CaseIterable` coding key type, in declaration order; nil for any other type.
func _caseNames(_ t: Any.Type) -> [String]? {
    guard let c = t as? any (CodingKey & CaseIterable).Type else { return nil }
    return _names(c)
}

private func _names<C: CodingKey & CaseIterable>(_: C.Type) -> [String] {
    C.allCases.map { $0.stringValue }
}

/// Records the key type of the first keyed container a type's `init(from:)` asks for,
/// then stops it: an enum's `CodingKeys` (its case names), a dictionary's key type.
final class _KeyTypeProbe: Decoder {
    struct Stop: Error {}
    var keyType: Any.Type?
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        keyType = Key.self
        throw Stop()
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw Stop() }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw Stop() }

    static func keyType<T: Decodable>(of _: T.Type) -> Any.Type? {
        let probe = _KeyTypeProbe()
        _ = try? T(from: probe)
        return probe.keyType
    }
}
