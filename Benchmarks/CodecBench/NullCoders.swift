// Coders that do nothing but hand out containers, to measure the fixed cost of
// the Codable protocols (container boxes, generic metadata, witness calls).

struct NullFailure: Error {}

final class NullDecoder: Decoder {
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(NullKeyedDecoding<Key>(d: self))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { NullUnkeyedDecoding(d: self) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw NullFailure() }
}

struct NullKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let d: NullDecoder
    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { Key(stringValue: "rateLimited").map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { "repository" }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { 1 }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { true }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { 1 }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: d) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(NullKeyedDecoding<NestedKey>(d: d))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { NullUnkeyedDecoding(d: d) }
    func superDecoder() throws -> Decoder { d }
    func superDecoder(forKey key: Key) throws -> Decoder { d }
}

struct NullUnkeyedDecoding: UnkeyedDecodingContainer {
    let d: NullDecoder
    var codingPath: [CodingKey] { [] }
    var count: Int? { 20 }
    var isAtEnd: Bool { currentIndex >= 20 }
    var currentIndex = 0
    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { currentIndex += 1; return try T(from: d) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> { throw NullFailure() }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { throw NullFailure() }
    mutating func superDecoder() throws -> Decoder { d }
}

final class NullEncoder: Encoder {
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(NullKeyedEncoding<Key>(e: self)) }
    func unkeyedContainer() -> UnkeyedEncodingContainer { NullUnkeyedEncoding(e: self) }
    func singleValueContainer() -> SingleValueEncodingContainer { NullSingleEncoding(e: self) }
}

struct NullKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let e: NullEncoder
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: String, forKey key: Key) throws {}
    mutating func encode(_ value: Int, forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws {}
    mutating func encode(_ value: Double, forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try value.encode(to: e) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeyedEncoding<NestedKey>(e: e))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer { NullUnkeyedEncoding(e: e) }
    mutating func superEncoder() -> Encoder { e }
    mutating func superEncoder(forKey key: Key) -> Encoder { e }
}

struct NullUnkeyedEncoding: UnkeyedEncodingContainer {
    let e: NullEncoder
    var codingPath: [CodingKey] { [] }
    var count = 0
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws { count += 1; try value.encode(to: e) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeyedEncoding<NestedKey>(e: e))
    }
    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer { NullUnkeyedEncoding(e: e) }
    mutating func superEncoder() -> Encoder { e }
}

struct NullSingleEncoding: SingleValueEncodingContainer {
    let e: NullEncoder
    var codingPath: [CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
}
