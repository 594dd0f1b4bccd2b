/// Containers for the schema's probing decoder, which treats every primitive like any
/// other type: each primitive `decode` goes to the one generic `decodeValue` (one generic
/// member meets the ten integer requirements).

protocol _GenericKeyedDecoding: KeyedDecodingContainerProtocol {
    func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T
}

extension _GenericKeyedDecoding {
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type, forKey key: Key) throws -> I { try decodeValue(type, forKey: key) }
}

protocol _GenericSingleValueDecoding: SingleValueDecodingContainer {
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T
}

extension _GenericSingleValueDecoding {
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I { try decodeValue(type) }
}
