// The WebAssembly build (Embedded Swift, docs/web.md) has no `Codable`: its standard
// library declares the protocols but nothing conforms, and it cannot hold an existential
// of them. There, `Encodable`, `Decodable` and `Codable` are this module's protocols of
// the same names, whose requirements are the direct JSON of `JSONDirectCodable`: the
// conformances `python -m corelogic.typegen --lang swift` generates. A feature's source
// stays the same (`struct State: Codable`); its generated file supplies the JSON. The
// native library compiles none of this.
#if hasFeature(Embedded)

/// A value that writes its own canonical JSON (the WebAssembly build's `Encodable`).
public protocol Encodable {
    func writeJSON(to out: inout JSONOutput) throws(JSONFailure)
}

/// A value that reads its own canonical JSON (the WebAssembly build's `Decodable`).
public protocol Decodable {
    static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Self
    /// An enum's case names in declaration order, which its generated reader knows
    /// (``JSONCoding/caseNames(of:)``); nil for any other type.
    static var jsonCaseNames: [String]? { get }
}

extension Decodable {
    public static var jsonCaseNames: [String]? { nil }
}

public typealias Codable = Encodable & Decodable

/// A coding key, as the features' event enums declare their cases.
public protocol CodingKey {
    var stringValue: String { get }
    var intValue: Int? { get }
}

extension CodingKey where Self: RawRepresentable, Self.RawValue == String {
    public var stringValue: String { rawValue }
    public var intValue: Int? { nil }
}

extension Array: Encodable where Element: Encodable {
    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) {
        out.beginArray()
        for element in self { try element.writeJSON(to: &out) }
        out.endArray()
    }
}

extension Array: Decodable where Element: Decodable {
    public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> [Element] {
        try input.beginArray()
        var result: [Element] = []
        while try input.nextElement() {
            result.append(try Element.readJSON(from: &input))
        }
        return result
    }
}

extension Optional: Encodable where Wrapped: Encodable {
    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) {
        if let value = self {
            try value.writeJSON(to: &out)
        } else {
            out.beforeValue()
            out.buf.append("null")
            out.state = 1
        }
    }
}

/// Any encodable value (an effect's request, a query's value): how the WebAssembly build
/// holds what the native library holds as `any Encodable`.
public struct AnyJSONEncodable: Encodable {
    private let write: (inout JSONOutput) throws(JSONFailure) -> Void

    public init<Value: Encodable>(_ value: Value) {
        write = { (out: inout JSONOutput) throws(JSONFailure) in try value.writeJSON(to: &out) }
    }

    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) { try write(&out) }
}

@usableFromInline @inline(__always) func _anyEncodable<Value: Encodable>(_ value: Value) -> AnyJSONEncodable {
    AnyJSONEncodable(value)
}

/// Schema derivation is left out of the WebAssembly build: a query or request keeps no type.
public typealias AnyDecodableType = Void
@usableFromInline @inline(__always) func _decodableType<Value>(_: Value.Type) -> AnyDecodableType { () }

#endif
