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

struct SampleKeyed<Key: CodingKey>: _GenericKeyedDecoding {
    let decoder: SampleDecoder
    /// The case `allKeys` reports, nil for none.
    let key: Key?

    var codingPath: [CodingKey] { [] }
    var allKeys: [Key] { key.map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { key.stringValue == self.key?.stringValue }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.deriver.sample(of: T.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(SampleKeyed<NestedKey>(decoder: decoder, key: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer { SampleUnkeyed(decoder: decoder) }
    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder { decoder }


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

struct SampleSingle: _GenericSingleValueDecoding {
    let decoder: SampleDecoder

    var codingPath: [CodingKey] { [] }
    func decodeNil() -> Bool { true }
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T { try decoder.deriver.sample(of: T.self) }


}
