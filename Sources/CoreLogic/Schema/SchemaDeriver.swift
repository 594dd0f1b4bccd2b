/// Derives JSON Schema (draft 2020-12) nodes from `Decodable` types by watching what
/// their `init(from:)` asks a probing decoder for (docs/schemas.md).
///
/// - A keyed container whose keys are read one by one is an object: `decode` makes a
///   required member, `decodeIfPresent` an optional one (absent or null).
/// - A keyed container whose `allKeys` is read is an enum when its keys are
///   `CaseIterable` (each case is probed in turn: one object per case, and the bare
///   string form for cases with no required payload), or a dictionary when any string
///   is a key.
/// - An unkeyed container is an array of the one element type it decodes.
/// - A single-value container is its value's schema, nullable if `decodeNil` is asked.
/// - A `CaseIterable` `RawRepresentable` type is the list of its raw values.
///
/// Structs and enums become `$defs` entries named after the Swift type (`Todo.State`)
/// and are referenced with `$ref`, which also closes recursive types. Everything else
/// is written inline. The deriver is used when a host asks for a schema, never per event.
final class SchemaDeriver {
    /// The definitions found so far, in the order their types were first met (a type
    /// before the types inside it), which is deterministic.
    var definitions: [(name: String, schema: JSONValue)] {
        found.sorted { $0.order < $1.order }.map { ($0.name, $0.schema) }
    }
    private var found: [(order: Int, name: String, schema: JSONValue)] = []
    private var met: [String: Int] = [:]
    private var nodes: [ObjectIdentifier: JSONValue] = [:]
    private var inProgress: [ObjectIdentifier: (name: String, referenced: Bool)] = [:]
    private var takenNames: Set<String>
    private var sampling: Set<ObjectIdentifier> = []

    /// - Parameter reservedNames: definition names the caller uses for its own entries.
    init(reservedNames: Set<String> = []) {
        takenNames = reservedNames
    }

    /// The schema node for `type`: inline for primitives, arrays, dictionaries and
    /// optionals, a `$ref` into ``definitions`` for structs and enums.
    /// - Throws: ``SchemaDerivationError`` naming the type whose shape cannot be derived.
    func node<T: Decodable>(for type: T.Type) throws -> JSONValue {
        if let primitive = SchemaPrimitives.node(for: T.self) { return primitive }
        let id = ObjectIdentifier(T.self)
        if let known = nodes[id] { return known }
        if let open = inProgress[id] {
            inProgress[id] = (open.name, true)
            return Self.reference(open.name)
        }
        let name = uniqueName(for: T.self)
        if let values = SchemaPrimitives.rawValues(of: T.self) {
            return define(id, name, values)
        }
        inProgress[id] = (name, false)
        let shape: ProbedShape
        do {
            shape = try probe(T.self)
        } catch {
            inProgress[id] = nil
            throw error
        }
        let referenced = inProgress[id]?.referenced ?? false
        inProgress[id] = nil
        if shape.isNamed || referenced {
            return define(id, name, shape.schema)
        }
        takenNames.remove(name)
        nodes[id] = shape.schema
        return shape.schema
    }

    /// A value of `type` built from the smallest choices (empty arrays, nil optionals, the
    /// first constructible enum case): what the probe hands back to an `init(from:)` that
    /// asked for a `T`, so it can go on to ask for its next member.
    func sample<T: Decodable>(of type: T.Type) throws -> T {
        if let primitive = SchemaPrimitives.sample(of: T.self) { return primitive }
        let id = ObjectIdentifier(T.self)
        if let first = SchemaPrimitives.firstCase(of: T.self) { return first }
        guard !sampling.contains(id) else { throw SampleCycle() }
        sampling.insert(id)
        defer { sampling.remove(id) }
        var choice = 0
        while true {
            let decoder = RecordingDecoder(deriver: self, sampleChoice: choice)
            do {
                return try T(from: decoder)
            } catch {
                choice += 1
                if choice < decoder.choiceCount { continue }
                if error is SampleCycle { throw error }
                throw SchemaDerivationError(type: Self.displayName(of: T.self),
                    "its init(from:) rejects every sample value (\(SchemaDerivationError.describe(error)))")
            }
        }
    }

    static func reference(_ name: String) -> JSONValue {
        .object([("$ref", .string("#/$defs/" + SchemaPointer.escape(name)))])
    }

    private func define(_ id: ObjectIdentifier, _ name: String, _ schema: JSONValue) -> JSONValue {
        var titled: [(String, JSONValue)] = [("title", .string(name))]
        if case .object(let members) = schema { titled += members }
        found.append((met[name] ?? found.count, name, .object(titled)))
        let reference = Self.reference(name)
        nodes[id] = reference
        return reference
    }

    private func uniqueName(for type: Any.Type) -> String {
        let base = Self.displayName(of: type)
        var name = base
        var counter = 2
        while takenNames.contains(name) {
            name = base + "_" + String(counter)
            counter += 1
        }
        takenNames.insert(name)
        met[name] = met.count
        return name
    }

    /// The Swift name without its module (`Todo.Phase`), as the definition's name.
    static func displayName(of type: Any.Type) -> String {
        var full = String(reflecting: type)
        if schemaFirstRange(of: "(unknown context", in: full[...]) != nil
            || schemaFirstRange(of: "(extension in", in: full[...]) != nil {
            full = String(describing: type)
        } else if let dot = full.firstIndex(of: ".") {
            full = String(full[full.index(after: dot)...])
        }
        full = schemaReplacing("Swift.", with: "", in: full)
        return String(full.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" ? $0 : "_" })
    }

    // MARK: Probing

    private func probe<T: Decodable>(_ type: T.Type) throws -> ProbedShape {
        let first = RecordingDecoder(deriver: self, chosenKey: nil, typeName: Self.displayName(of: T.self))
        var firstError: Error?
        do { _ = try T(from: first) } catch { firstError = error }
        if let failure = first.failure { throw failure }
        guard let root = first.root else {
            if let firstError { throw failure(T.self, firstError) }
            // A struct with no stored properties: its synthesized init(from:) reads
            // nothing, and it encodes as {}.
            return ProbedShape(schema: .object([("type", .string("object")), ("properties", .object([])),
                                                ("additionalProperties", .bool(false))]), isNamed: true)
        }
        switch root {
        case .keyed(let record) where record.readAllKeys:
            return try probeKeyedChoice(T.self, record)
        case .keyed(let record):
            if let firstError { throw failure(T.self, firstError) }
            return ProbedShape(schema: try record.objectSchema(), isNamed: true)
        case .unkeyed(let record):
            if let firstError { throw failure(T.self, firstError) }
            guard let element = record.element else {
                throw SchemaDerivationError(type: Self.displayName(of: T.self), "its init(from:) reads an array but no element")
            }
            return ProbedShape(schema: .object([("type", .string("array")), ("items", element)]), isNamed: false)
        case .single(let record):
            if let firstError { throw failure(T.self, firstError) }
            guard let value = record.value else {
                throw SchemaDerivationError(type: Self.displayName(of: T.self), "its init(from:) reads a single value but decodes none")
            }
            return ProbedShape(schema: record.nullable ? SchemaPrimitives.nullable(value) : value, isNamed: false)
        }
    }

    /// A type that reads `allKeys`: an enum (case keys) or a dictionary (any string a key).
    private func probeKeyedChoice<T: Decodable>(_ type: T.Type, _ record: KeyedRecord) throws -> ProbedShape {
        let name = Self.displayName(of: T.self)
        if record.acceptsAnyKey {
            let decoder = RecordingDecoder(deriver: self, chosenKey: "key", typeName: name)
            do { _ = try T(from: decoder) } catch { throw decoder.failure ?? failure(T.self, error) }
            guard case .keyed(let keyed)? = decoder.root, let value = keyed.members.first?.node else {
                throw SchemaDerivationError(type: name, "its init(from:) reads a dictionary but no value")
            }
            return ProbedShape(schema: .object([("type", .string("object")), ("additionalProperties", value)]), isNamed: false)
        }
        guard let cases = record.caseNames else {
            throw SchemaDerivationError(type: name,
                "it reads the keys of an object whose CodingKeys are not CaseIterable; declare `enum CodingKeys: String, CodingKey, CaseIterable`")
        }
        var variants: [JSONValue] = []
        var bareNames: [JSONValue] = []
        for caseName in cases {
            let decoder = RecordingDecoder(deriver: self, chosenKey: caseName, typeName: name)
            do { _ = try T(from: decoder) } catch {
                throw decoder.failure ?? SchemaDerivationError(type: name,
                    "case '\(caseName)': its init(from:) fails on the probe (\(SchemaDerivationError.describe(error)))")
            }
            guard case .keyed(let keyed)? = decoder.root, let member = keyed.members.first(where: { $0.name == caseName }) else {
                throw SchemaDerivationError(type: name, "case '\(caseName)': its init(from:) reads no payload for the case")
            }
            let payload = member.node
            variants.append(.object([
                ("title", .string(caseName)),
                ("type", .string("object")),
                ("properties", .object([(caseName, payload)])),
                ("required", .array([.string(caseName)])),
                ("additionalProperties", .bool(false)),
            ]))
            // The decoder reads a bare string "case" as {"case":{}}: valid when the
            // payload is an object with no required member.
            if member.payloadHasNoRequiredMembers { bareNames.append(.string(caseName)) }
        }
        if !bareNames.isEmpty {
            variants.append(.object([("title", .string("payload-less case")), ("type", .string("string")), ("enum", .array(bareNames))]))
        }
        return ProbedShape(schema: .object([("oneOf", .array(variants))]), isNamed: true)
    }

    private func failure(_ type: Any.Type, _ error: Error) -> Error {
        if error is SchemaDerivationError { return error }
        if type is any RawRepresentable.Type {
            return SchemaDerivationError(type: Self.displayName(of: type),
                "a raw-value enum must be CaseIterable for its values to be listed")
        }
        return SchemaDerivationError(type: Self.displayName(of: type),
            "its init(from:) fails on the probe (\(SchemaDerivationError.describe(error)))")
    }
}

struct ProbedShape {
    var schema: JSONValue
    /// Structs and enums: written to `$defs` under the type's name.
    var isNamed: Bool
}

/// Thrown when a type's shape cannot be derived; names the type and says why.
public struct SchemaDerivationError: Error, CustomStringConvertible, Sendable {
    public var type: String
    public var reason: String

    init(type: String, _ reason: String) {
        self.type = type
        self.reason = reason
    }

    public var description: String { "cannot derive a schema for \(type): \(reason)" }

    static func describe(_ error: Error) -> String {
        if let error = error as? SchemaDerivationError { return error.description }
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return context.debugDescription
            case .keyNotFound(let key, _):
                return "missing key '\(key.stringValue)'"
            @unknown default:
                return String(describing: error)
            }
        }
        return String(describing: error)
    }
}

/// A sample was asked for a type while building a sample of the same type.
struct SampleCycle: Error {}

/// JSON Pointer escaping (RFC 6901) for `$ref` targets.
enum SchemaPointer {
    static func escape(_ token: String) -> String {
        schemaReplacing("/", with: "~1", in: schemaReplacing("~", with: "~0", in: token))
    }
}

/// The first occurrence of `target` in `text`, Character by Character as `==` compares.
/// Not `contains(_:)` or `firstRange(of:)`: those come from _StringProcessing, and calling
/// them links its regex engine (about a megabyte) into every app's library.
func schemaFirstRange(of target: String, in text: Substring) -> Range<Substring.Index>? {
    guard let first = target.first else { return nil }
    let length = target.count
    var start = text.startIndex
    while let found = text[start...].firstIndex(of: first) {
        let candidate = text[found...].prefix(length)
        if candidate.elementsEqual(target) { return found..<candidate.endIndex }
        start = text.index(after: found)
    }
    return nil
}

/// Every occurrence of `target` in `text` replaced (no Foundation).
func schemaReplacing(_ target: String, with replacement: String, in text: String) -> String {
    guard !target.isEmpty else { return text }
    var result = ""
    var rest = Substring(text)
    while let range = schemaFirstRange(of: target, in: rest) {
        result += rest[..<range.lowerBound]
        result += replacement
        rest = rest[range.upperBound...]
    }
    result += rest
    return result
}
