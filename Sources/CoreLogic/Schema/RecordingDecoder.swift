/// The probing decoder: answers every request of an `init(from:)` with a sample value
/// and records what was asked, so ``SchemaDeriver`` can turn the requests into a schema.
///
/// Made with a sample choice instead, it records nothing and builds the smallest value of a
/// type for ``SchemaDeriver/sample(of:)``: absent optionals, empty arrays and
/// dictionaries, and for an enum the case numbered `choice` (the deriver tries them in order
/// until one can be built, which ends recursion: `Phase.dismissing(from: Phase)` is built
/// from `Phase.loading`). Its containers then hold no record.
final class RecordingDecoder: Decoder {
    let deriver: SchemaDeriver
    /// The key `allKeys` reports (the enum case being probed), nil for none.
    let chosenKey: String?
    private(set) var root: RootRecord?
    /// The first derivation error met below this decoder, kept in case the type's own
    /// code replaces it with an error of its own.
    var failure: Error?
    /// The type whose `init(from:)` this decoder serves, for error messages.
    let typeName: String
    /// Sampling: the enum case to build, and how many cases the enum has (1 for any other
    /// type); nil when recording.
    private let choice: Int?
    private(set) var choiceCount = 1
    private var sampledKeyed = false

    init(deriver: SchemaDeriver, chosenKey: String?, typeName: String) {
        self.deriver = deriver
        self.chosenKey = chosenKey
        self.typeName = typeName
        choice = nil
    }

    init(deriver: SchemaDeriver, sampleChoice: Int) {
        self.deriver = deriver
        chosenKey = nil
        typeName = ""
        choice = sampleChoice
    }

    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if let choice {
            // The first keyed container is the value's own: an enum's picks its case.
            var key: String?
            if !sampledKeyed, let names = _caseNames(Key.self) {
                choiceCount = names.count
                key = choice < names.count ? names[choice] : nil
            }
            sampledKeyed = true
            return KeyedDecodingContainer(RecordingKeyed<Key>(decoder: self, record: nil, chosenKey: key))
        }
        let record: KeyedRecord
        if case .keyed(let existing)? = root {
            record = existing
        } else {
            record = KeyedRecord(Key.self)
            root = .keyed(record)
        }
        return KeyedDecodingContainer(RecordingKeyed<Key>(decoder: self, record: record, chosenKey: chosenKey))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        if choice != nil { return RecordingUnkeyed(decoder: self, record: nil) }
        let record = UnkeyedRecord()
        root = .unkeyed(record)
        return RecordingUnkeyed(decoder: self, record: record)
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        if choice != nil { return RecordingSingle(decoder: self, record: nil) }
        let record = SingleRecord()
        root = .single(record)
        return RecordingSingle(decoder: self, record: record)
    }

    /// The node of `T` and a sample to hand back; a derivation error is remembered.
    func observe<T: Decodable>(_ type: T.Type) throws -> (node: JSONValue, sample: T) {
        do {
            return (try deriver.node(for: T.self), try deriver.sample(of: T.self))
        } catch {
            if failure == nil { failure = error }
            throw error
        }
    }

    func unsupported(_ what: String) -> Error {
        let error = SchemaDerivationError(type: typeName, "its init(from:) uses \(what), which the schema cannot describe")
        if failure == nil { failure = error }
        return error
    }
}

enum RootRecord {
    case keyed(KeyedRecord)
    case unkeyed(UnkeyedRecord)
    case single(SingleRecord)
}

/// What was asked for one value: a decoded type's node, or a nested container.
enum RecordedValue {
    case node(JSONValue)
    case keyed(KeyedRecord)
    case unkeyed(UnkeyedRecord)

    func schema() throws -> JSONValue {
        switch self {
        case .node(let node): return node
        case .keyed(let record): return try record.objectSchema()
        case .unkeyed(let record):
            guard let element = record.element else {
                throw SchemaDerivationError(type: "a nested array", "no element is read")
            }
            return .object([("type", .string("array")), ("items", element)])
        }
    }
}

final class KeyedRecord {
    struct Member {
        var name: String
        var value: RecordedValue?
        var required: Bool
        var nullable: Bool

        var node: JSONValue {
            let base = (try? value?.schema()) ?? .object([])
            return nullable ? SchemaPrimitives.nullable(base) : base
        }

        /// A nested object with no required member: `{}` decodes, so a bare case name does.
        var payloadHasNoRequiredMembers: Bool {
            guard !nullable, case .keyed(let record)? = value else { return false }
            return !record.members.contains { $0.required }
        }
    }

    private(set) var members: [Member] = []
    var readAllKeys = false
    var checked: Set<String> = []
    /// The case names when the keys are `CaseIterable`.
    let caseNames: [String]?
    /// Any string makes a key (a dictionary's keys).
    let acceptsAnyKey: Bool

    init<Key: CodingKey>(_: Key.Type) {
        caseNames = _caseNames(Key.self)
        acceptsAnyKey = caseNames == nil && Key(stringValue: "\u{1}probe") != nil
    }

    func record(_ name: String, _ value: RecordedValue?, required: Bool, nullable: Bool) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            if let value { members[index].value = value }
            members[index].required = members[index].required || required
            members[index].nullable = members[index].nullable || nullable
        } else {
            members.append(Member(name: name, value: value, required: required && !checked.contains(name), nullable: nullable))
        }
    }

    /// A closed object: the members read, required unless read with `decodeIfPresent`.
    func objectSchema() throws -> JSONValue {
        var properties: [(String, JSONValue)] = []
        var required: [JSONValue] = []
        for member in members {
            if member.value != nil { _ = try member.value?.schema() }
            properties.append((member.name, member.node))
            if member.required { required.append(.string(member.name)) }
        }
        var schema: [(String, JSONValue)] = [("type", .string("object")), ("properties", .object(properties))]
        if !required.isEmpty { schema.append(("required", .array(required))) }
        schema.append(("additionalProperties", .bool(false)))
        return .object(schema)
    }
}

final class UnkeyedRecord {
    var element: JSONValue?
}

final class SingleRecord {
    var value: JSONValue?
    var nullable = false
}

/// A keyed container; sampling (no record), every member is absent or the smallest sample.
struct RecordingKeyed<Key: CodingKey>: _GenericKeyedDecoding {
    let decoder: RecordingDecoder
    let record: KeyedRecord?
    let chosenKey: String?

    var codingPath: [CodingKey] { [] }

    var allKeys: [Key] {
        record?.readAllKeys = true
        return chosenKey.flatMap { Key(stringValue: $0) }.map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool {
        guard let record else { return key.stringValue == chosenKey }
        record.checked.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let record else { return true }
        record.record(key.stringValue, nil, required: false, nullable: true)
        return false
    }

    func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let record else { return try decoder.deriver.sample(of: T.self) }
        let (node, sample) = try decoder.observe(T.self)
        record.record(key.stringValue, .node(node), required: true, nullable: false)
        return sample
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let record else { return nil }
        let (node, _) = try decoder.observe(T.self)
        record.record(key.stringValue, .node(node), required: false, nullable: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested = record.map { _ in KeyedRecord(NestedKey.self) }
        if let nested { record?.record(key.stringValue, .keyed(nested), required: true, nullable: false) }
        return KeyedDecodingContainer(RecordingKeyed<NestedKey>(decoder: decoder, record: nested, chosenKey: nil))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        let nested = record.map { _ in UnkeyedRecord() }
        if let nested { record?.record(key.stringValue, .unkeyed(nested), required: true, nullable: false) }
        return RecordingUnkeyed(decoder: decoder, record: nested)
    }

    func superDecoder() throws -> Decoder {
        guard record == nil else { throw decoder.unsupported("superDecoder()") }
        return decoder
    }

    func superDecoder(forKey key: Key) throws -> Decoder {
        guard record == nil else { throw decoder.unsupported("superDecoder(forKey:)") }
        return decoder
    }

    // Optional members: the standard library's defaults would read them as required (and
    // win over one generic member for the integers).
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? { try decodeIfPresent(type, forKey: key) }
}

/// An unkeyed container: one element recorded; sampling (no record), an empty array.
struct RecordingUnkeyed: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    let record: UnkeyedRecord?

    var codingPath: [CodingKey] { [] }
    var count: Int? { record == nil ? 0 : nil }
    var isAtEnd: Bool { record.map { $0.element != nil } ?? true }
    var currentIndex: Int { record?.element == nil ? 0 : 1 }

    mutating func decodeNil() throws -> Bool { record == nil }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let record else { return try decoder.deriver.sample(of: T.self) }
        guard record.element == nil else { throw decoder.unsupported("an array of fixed length") }
        let (node, sample) = try decoder.observe(T.self)
        record.element = node
        return sample
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard let record else { return nil }
        guard record.element == nil else { throw decoder.unsupported("an array of fixed length") }
        let (node, _) = try decoder.observe(T.self)
        record.element = SchemaPrimitives.nullable(node)
        return nil
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        guard record == nil else { throw decoder.unsupported("an object nested in an array without a type") }
        return KeyedDecodingContainer(RecordingKeyed<NestedKey>(decoder: decoder, record: nil, chosenKey: nil))
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard record == nil else { throw decoder.unsupported("an array nested in an array without a type") }
        return RecordingUnkeyed(decoder: decoder, record: nil)
    }

    mutating func superDecoder() throws -> Decoder {
        guard record == nil else { throw decoder.unsupported("superDecoder()") }
        return decoder
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(generic: type) }
    mutating func decode<I: FixedWidthInteger & Decodable>(_ type: I.Type) throws -> I { try decode(generic: type) }

    private mutating func decode<T: Decodable>(generic type: T.Type) throws -> T { try decode(type) }
}

/// A single-value container; sampling (no record), null or the smallest sample.
struct RecordingSingle: _GenericSingleValueDecoding {
    let decoder: RecordingDecoder
    let record: SingleRecord?

    var codingPath: [CodingKey] { [] }

    func decodeNil() -> Bool {
        guard let record else { return true }
        record.nullable = true
        return false
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        guard let record else { return try decoder.deriver.sample(of: T.self) }
        let (node, sample) = try decoder.observe(T.self)
        record.value = node
        return sample
    }


}
