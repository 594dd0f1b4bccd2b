/// Builds the smallest value of a type for ``SchemaDeriver/sample(of:)``: absent
/// optionals, empty arrays and dictionaries, and for an enum the case numbered `choice`
/// (the deriver tries them in order until one can be built, which ends recursion:
/// `Phase.dismissing(from: Phase)` is built from `Phase.loading`).
final class SampleDecoder: Decoder {
    let deriver: SchemaDeriver
    let choice: Int
    /// How many cases the enum being built has (1 for any other type).
    var choiceCount = 1
    private var rootKeyed = true

    init(deriver: SchemaDeriver, choice: Int) {
        self.deriver = deriver
        self.choice = choice
    }

    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var key: Key?
        if rootKeyed, let names = _caseNames(Key.self) {
            choiceCount = names.count
            key = choice < names.count ? Key(stringValue: names[choice]) : nil
        }
        rootKeyed = false
        return KeyedDecodingContainer(SampleKeyed<Key>(decoder: self, key: key))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer { SampleUnkeyed(decoder: self) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { SampleSingle(decoder: self) }
}

struct SampleKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: SampleDecoder
    /// The case `allKeys` reports, nil for none.
    let key: Key?

    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { key.map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { key.stringValue == self.key?.stringValue }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.deriver.sample(of: T.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(SampleKeyed<NestedKey>(decoder: decoder, key: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { SampleUnkeyed(decoder: decoder) }
    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { decoder }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(generic: type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(generic: type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(generic: type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(generic: type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(generic: type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(generic: type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(generic: type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(generic: type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(generic: type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(generic: type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(generic: type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(generic: type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(generic: type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(generic: type, key) }

    private func decode<T: Decodable>(generic type: T.Type, _ key: Key) throws -> T { try decode(type, forKey: key) }
}

struct SampleUnkeyed: UnkeyedDecodingContainer {
    let decoder: SampleDecoder

    var codingPath: [CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.deriver.sample(of: T.self) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(SampleKeyed<NestedKey>(decoder: decoder, key: nil))
    }
    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { SampleUnkeyed(decoder: decoder) }
    mutating func superDecoder() throws -> Decoder { decoder }
}

struct SampleSingle: SingleValueDecodingContainer {
    let decoder: SampleDecoder

    var codingPath: [CodingKey] { [] }
    func decodeNil() -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.deriver.sample(of: T.self) }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
    func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
    func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
    func decode(_ type: Float.Type) throws -> Float { try decode(generic: type) }
    func decode(_ type: Int.Type) throws -> Int { try decode(generic: type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(generic: type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(generic: type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(generic: type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(generic: type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(generic: type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(generic: type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(generic: type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(generic: type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(generic: type) }

    private func decode<T: Decodable>(generic type: T.Type) throws -> T { try decode(type) }
}
