/// The schema and sample values of the leaf types, and of `CaseIterable` raw-value enums.
enum SchemaPrimitives {
    /// The schema of a standard-library scalar, nil for any other type. Numbers carry
    /// their type's range: the decoder rejects a number that does not fit.
    static func node(for type: Any.Type) -> JSONValue? {
        switch type {
        case is Bool.Type: return .object([("type", .string("boolean"))])
        case is String.Type: return .object([("type", .string("string"))])
        // A number past the largest finite Double is refused (CORELOGIC_ERR_JSON); one
        // between it and where rounding reaches infinity reads as the largest, which is
        // what a validator reading numbers as doubles sees too.
        case is Double.Type:
            return .object([("type", .string("number")),
                            ("minimum", .double(-Double.greatestFiniteMagnitude)),
                            ("maximum", .double(Double.greatestFiniteMagnitude))])
        // A Float takes every number that rounds to a finite Float: below 2^128 - 2^103,
        // half a step past the largest (which the library writes as 3.4028235e+38).
        case is Float.Type:
            let limit = 0x1p128 - 0x1p103
            return .object([("type", .string("number")),
                            ("exclusiveMinimum", .double(-limit)),
                            ("exclusiveMaximum", .double(limit))])
        case is Int.Type: return integer(Int.self)
        case is Int8.Type: return integer(Int8.self)
        case is Int16.Type: return integer(Int16.self)
        case is Int32.Type: return integer(Int32.self)
        case is Int64.Type: return integer(Int64.self)
        case is UInt.Type: return integer(UInt.self)
        case is UInt8.Type: return integer(UInt8.self)
        case is UInt16.Type: return integer(UInt16.self)
        case is UInt32.Type: return integer(UInt32.self)
        case is UInt64.Type: return integer(UInt64.self)
        default: return nil
        }
    }

    private static func integer<I: FixedWidthInteger>(_: I.Type) -> JSONValue {
        .object([("type", .string("integer")), ("minimum", number(I.min)), ("maximum", number(I.max))])
    }

    private static func number<I: FixedWidthInteger>(_ value: I) -> JSONValue {
        if let small = Int64(exactly: value) { return .int(small) }
        return .uint(UInt64(truncatingIfNeeded: value))
    }

    /// A value for a scalar (`""`, `false`, `0`), nil for any other type.
    static func sample<T>(of type: T.Type) -> T? {
        let value: Any?
        switch type {
        case is Bool.Type: value = false
        case is String.Type: value = ""
        case is Double.Type: value = Double(0)
        case is Float.Type: value = Float(0)
        case is Int.Type: value = Int(0)
        case is Int8.Type: value = Int8(0)
        case is Int16.Type: value = Int16(0)
        case is Int32.Type: value = Int32(0)
        case is Int64.Type: value = Int64(0)
        case is UInt.Type: value = UInt(0)
        case is UInt8.Type: value = UInt8(0)
        case is UInt16.Type: value = UInt16(0)
        case is UInt32.Type: value = UInt32(0)
        case is UInt64.Type: value = UInt64(0)
        default: value = nil
        }
        return value as? T
    }

    /// `{"enum":[raw values]}` for a `CaseIterable` type whose raw value is a string or
    /// an integer (its `Codable` form is the raw value); nil for any other type.
    static func rawValues(of type: Any.Type) -> JSONValue? {
        guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        return rawValueSchema(enumeration)
    }

    private static func rawValueSchema<E: CaseIterable & RawRepresentable>(_: E.Type) -> JSONValue? {
        var values: [JSONValue] = []
        var kind = ""
        for element in E.allCases {
            switch element.rawValue {
            case let text as String:
                values.append(.string(text))
                kind = "string"
            case let number as Int:
                values.append(.int(Int64(number)))
                kind = "integer"
            default:
                return nil
            }
        }
        return .object([("type", .string(kind)), ("enum", .array(values))])
    }

    /// The first case of a `CaseIterable` raw-value enum, nil for any other type.
    static func firstCase<T>(of type: T.Type) -> T? {
        guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        return first(enumeration) as? T
    }

    private static func first<E: CaseIterable>(_: E.Type) -> Any? { E.allCases.first }

    /// `node` or null.
    static func nullable(_ node: JSONValue) -> JSONValue {
        .object([("anyOf", .array([node, .object([("type", .string("null"))])]))])
    }
}
