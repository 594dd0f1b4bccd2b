import Foundation
import CoreLogic
@testable import Cookbook

/// A plain RFC 6902 applier (add, remove, replace) over `JSONValue`, written from the RFC
/// for the tests, independently of the library's differ.
enum TestPatch {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func apply(_ patch: JSONValue, to document: JSONValue) throws -> JSONValue {
        guard case .array(let operations) = patch else { throw Failure(description: "a patch is an array") }
        var result = document
        for operation in operations {
            guard case .string(let op)? = operation["op"], case .string(let path)? = operation["path"] else {
                throw Failure(description: "operation without op/path: \(JSONWriter.string(operation))")
            }
            let tokens = try pointer(path)
            switch op {
            case "add", "replace":
                guard let value = operation["value"] else { throw Failure(description: "\(op) without value") }
                result = try set(result, tokens[...], value, adding: op == "add")
            case "remove":
                result = try remove(result, tokens[...])
            default:
                throw Failure(description: "unexpected op \(op)")
            }
        }
        return result
    }

    static func pointer(_ path: String) throws -> [String] {
        if path.isEmpty { return [] }
        guard path.first == "/" else { throw Failure(description: "bad pointer \(path)") }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    private static func set(_ document: JSONValue, _ tokens: ArraySlice<String>, _ value: JSONValue, adding: Bool) throws -> JSONValue {
        guard let token = tokens.first else { return value }
        let rest = tokens.dropFirst()
        switch document {
        case .object(var pairs):
            if let index = pairs.firstIndex(where: { $0.0 == token }) {
                pairs[index].1 = try set(pairs[index].1, rest, value, adding: adding)
            } else {
                guard rest.isEmpty, adding else { throw Failure(description: "no member \(token)") }
                pairs.append((token, value))
            }
            return .object(pairs)
        case .array(var elements):
            if rest.isEmpty && adding {
                if token == "-" { elements.append(value); return .array(elements) }
                guard let index = Int(token), index >= 0, index <= elements.count else { throw Failure(description: "bad index \(token)") }
                elements.insert(value, at: index)
                return .array(elements)
            }
            guard let index = Int(token), index >= 0, index < elements.count else { throw Failure(description: "bad index \(token)") }
            elements[index] = try set(elements[index], rest, value, adding: adding)
            return .array(elements)
        default:
            throw Failure(description: "cannot descend into a scalar at \(token)")
        }
    }

    private static func remove(_ document: JSONValue, _ tokens: ArraySlice<String>) throws -> JSONValue {
        guard let token = tokens.first else { throw Failure(description: "cannot remove the root") }
        let rest = tokens.dropFirst()
        switch document {
        case .object(var pairs):
            guard let index = pairs.firstIndex(where: { $0.0 == token }) else { throw Failure(description: "no member \(token)") }
            if rest.isEmpty { pairs.remove(at: index) } else { pairs[index].1 = try remove(pairs[index].1, rest) }
            return .object(pairs)
        case .array(var elements):
            guard let index = Int(token), index >= 0, index < elements.count else { throw Failure(description: "bad index \(token)") }
            if rest.isEmpty { elements.remove(at: index) } else { elements[index] = try remove(elements[index], rest) }
            return .array(elements)
        default:
            throw Failure(description: "cannot descend into a scalar at \(token)")
        }
    }

    /// Strict JSON equality in which object member order does not matter.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (key, value) in x {
                guard let other = y.first(where: { $0.0 == key })?.1, same(value, other) else { return false }
            }
            return true
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default:
            return a == b
        }
    }
}

/// A small deterministic generator (SplitMix64) so random runs reproduce from their seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
