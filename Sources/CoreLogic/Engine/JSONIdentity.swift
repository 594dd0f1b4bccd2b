/// Sameness as hosts see it: two values are the same if and only if their JSON is
/// identical, byte for byte.
///
/// Requests and host strings (URLs, ids, typed text) cross the boundary as JSON, so
/// `"café"` (é as one scalar) and `"cafe\u0301"` (e plus a combining accent) are two
/// different values even though Swift's `String ==` calls them equal (canonical
/// equivalence), and `0.0` and `-0.0` are two values although `Double ==` calls them
/// equal. Effects compare requests with ``same(_:_:)`` (see ``Feedback``); features
/// compare host strings with ``same(_:_:)-(String,String)``.
///
/// The common case stays cheap: `==` first (false: not the same, because a type's `==`
/// is never false for identical JSON); then, when the two values are bit-for-bit the
/// same (a request rebuilt from the same stored strings), they are the same; only
/// otherwise are both encoded and the bytes compared.
public enum JSONIdentity {
    /// Whether `a` and `b` encode to identical JSON. `T`'s `==` must hold for values
    /// with identical JSON (synthesized conformances do).
    @inlinable
    public static func same<T: Encodable & Equatable>(_ a: T, _ b: T) -> Bool {
        guard a == b else { return false }
        if bitwiseIdentical(a, b) { return true }
        if let x = a as? String, let y = b as? String { return same(x, y) }
        return encodedEqual(a, b)
    }

    /// Whether `a` and `b` are the same string to a host: the same Unicode scalars
    /// (so the same JSON), not merely canonically equivalent.
    @inlinable
    public static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// ``same(_:_:)`` for optionals: both nil, or both present and the same.
    @inlinable
    public static func same<T: Encodable & Equatable>(_ a: T?, _ b: T?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return same(a, b)
        default: return false
        }
    }

    /// ``same(_:_:)-(String,String)`` for optional strings.
    @inlinable
    public static func same(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return same(a, b)
        default: return false
        }
    }

    /// Equal inline representations share every referenced buffer, so their contents
    /// (and their JSON) are identical. Different bits prove nothing (padding, separate
    /// buffers with equal contents).
    @usableFromInline
    static func bitwiseIdentical<T>(_ a: T, _ b: T) -> Bool {
        // Local copies, read through the inout form: the borrowed form of
        // withUnsafeBytes(of:) gave a dangling buffer in optimized cross-module builds.
        var x = a
        var y = b
        return withUnsafeBytes(of: &x) { first in
            withUnsafeBytes(of: &y) { second in
                guard first.count == second.count else { return false }
                var index = 0
                while index + 8 <= first.count {
                    if first.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        != second.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
                    index += 8
                }
                while index < first.count {
                    if first[index] != second[index] { return false }
                    index += 1
                }
                return true
            }
        }
    }

    @usableFromInline
    static func encodedEqual<T: Encodable>(_ a: T, _ b: T) -> Bool {
        // A value that cannot be encoded (a non-finite Double) is compared by `==` alone.
        guard let x = try? JSONCoding.encode(a), let y = try? JSONCoding.encode(b) else { return true }
        return x == y
    }
}

/// A `Hashable` key whose equality is ``JSONIdentity/same(_:_:)``: sets and dictionaries
/// of requests (or host strings) keyed by their JSON. Its hash is the value's own, which
/// agrees: values with identical JSON are `==`, so they hash alike.
public struct JSONIdentityKey<Value: Hashable & Encodable>: Hashable {
    public var value: Value
    @inlinable public init(_ value: Value) { self.value = value }
    @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { JSONIdentity.same(lhs.value, rhs.value) }
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension JSONIdentityKey: Sendable where Value: Sendable {}
