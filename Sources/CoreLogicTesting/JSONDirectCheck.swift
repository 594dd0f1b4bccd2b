@_spi(Testing) import CoreLogic

/// Tests a `JSONDirectCodable` conformance against the type's `Codable` one.
///
/// Call it from a test with values that reach every case and every optional both
/// ways; an empty result means:
/// - encoding: for every value the direct writer ran (it did not decline) and wrote
///   exactly the bytes of the `Codable` path (or both failed with the same error);
/// - decoding: the direct reader accepts the canonical form of every value, and the
///   pretty-printed one, giving the value back;
/// - for thousands of other inputs derived from those (every truncation, every
///   byte deleted or replaced by one of 13 others, members reordered, an unknown
///   member added, members null, the `extraInputs` you pass) `JSONCoding.decode` (direct, falling back to `Codable`)
///   gives the same value or the same error as `Codable` alone;
/// - an enum's `jsonCaseNames` are its `CaseIterable` coding keys' names, in order.
///
/// It tests samples, so it finds what they and their mutations reach: keep samples
/// small (each derives about 15 inputs per byte) and pass, as `extraInputs`, shapes
/// no single-byte change produces (a string where a number goes, say).
///
/// ```swift
/// XCTAssertEqual(JSONDirectCheck.disagreements(samples), [])
/// ```
public enum JSONDirectCheck {
    /// Every disagreement found, described; at most `limit` of them.
    public static func disagreements<T: JSONDirectCodable>(_ values: [T], extraInputs: [String] = [], limit: Int = 20) -> [String] {
        var found: [String] = []
        func report(_ s: String) { if found.count < limit { found.append(s) } }
        var inputs: [[UInt8]] = extraInputs.map { Array($0.utf8) }
        let codingKeys = JSONCoding.codingKeyCaseNames(of: T.self)
        if T.jsonCaseNames != codingKeys {
            report("jsonCaseNames \(T.jsonCaseNames.map { "\($0)" } ?? "nil"), the coding keys' \(codingKeys.map { "\($0)" } ?? "nil")")
        }

        for (n, value) in values.enumerated() {
            var direct: [UInt8] = []
            let wrote = JSONCoding.encodeDirect(value, into: &direct)
            var codable: [UInt8] = []
            let codableError: String? = {
                do { try JSONCoding.encodeWithCodable(value, into: &codable); return nil } catch { return "\(error)" }
            }()
            if let e = codableError {
                if wrote { report("value \(n): direct wrote \(text(direct)) where Codable fails: \(e)") }
                let viaCoding: String = { do { _ = try JSONCoding.encode(value); return "no error" } catch { return "\(error)" } }()
                if viaCoding != e { report("value \(n): encode error '\(viaCoding)', Codable's is '\(e)'") }
                continue
            }
            if !wrote { report("value \(n): the direct writer declined; Codable wrote \(text(codable))") }
            if wrote && direct != codable { report("value \(n): direct wrote \(text(direct)), Codable \(text(codable))") }

            for (form, bytes) in canonicalForms(codable) {
                let back: T? = bytes.withUnsafeBufferPointer { b in
                    guard let base = b.baseAddress else { return nil }
                    return JSONCoding.decodeDirect(T.self, base: base, count: b.count, maxDepth: JSONLimits.default.maxDepth)
                }
                guard let back = back else {
                    report("value \(n): the direct reader declined its \(form) form \(text(bytes))")
                    continue
                }
                var again: [UInt8] = []
                try? JSONCoding.encodeWithCodable(back, into: &again)
                if again != codable { report("value \(n): the direct reader read \(text(bytes)) as \(text(again))") }
            }
            inputs.append(contentsOf: derived(from: codable))
        }

        for input in inputs {
            if let d = disagreement(T.self, on: input) { report(d) }
        }
        return found
    }

    /// How decoding `input` as `T` through `JSONCoding` (direct, then `Codable`)
    /// differs from `Codable` alone, or nil when both give the same value or error.
    /// For fuzzers: feed it arbitrary bytes.
    public static func disagreement<T: JSONDirectCodable>(_: T.Type, on input: [UInt8]) -> String? {
        let a = outcome(T.self, input, codableOnly: false)
        let b = outcome(T.self, input, codableOnly: true)
        return a == b ? nil : "input \(text(input)): JSONCoding gives \(a), Codable alone \(b)"
    }

    static func text(_ bytes: [UInt8]) -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        return s.count > 120 ? "'" + s.prefix(120) + "...' (\(bytes.count) bytes)" : "'" + s + "'"
    }

    static func canonicalForms(_ compact: [UInt8]) -> [(String, [UInt8])] {
        var forms = [("compact", compact)]
        if let v = try? JSONParser.parse(compact) {
            forms.append(("pretty-printed", Array(JSONWriter.prettyString(v).utf8)))
        }
        return forms
    }

    /// Inputs near a canonical encoding, most of them invalid.
    static func derived(from bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        for n in 0..<bytes.count { out.append(Array(bytes[0..<n])) }
        let replacements: [UInt8] = [0x20, 0x22, 0x2C, 0x7D, 0x5D, 0x7B, 0x30, 0x2E, 0x78, 0x5C, 0x6E, 0xC3, 0x00]
        for k in 0..<bytes.count {
            var removed = bytes
            removed.remove(at: k)
            out.append(removed)
            for r in replacements where r != bytes[k] {
                var changed = bytes
                changed[k] = r
                out.append(changed)
            }
        }
        if let v = try? JSONParser.parse(bytes) {
            for transform in [reversedMembers, withUnknownMember, withNullMembers] {
                var o: [UInt8] = []
                JSONWriter.write(transform(v), into: &o)
                out.append(o)
            }
        }
        out.append(bytes + [0x20, 0x0A])
        out.append(bytes + [0x31])
        return out
    }

    static func reversedMembers(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let pairs): return .object(pairs.reversed().map { ($0.0, reversedMembers($0.1)) })
        case .array(let a): return .array(a.map(reversedMembers))
        default: return v
        }
    }

    static func withUnknownMember(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let pairs): return .object(pairs.map { ($0.0, withUnknownMember($0.1)) } + [("unknownMember", .int(1))])
        case .array(let a): return .array(a.map(withUnknownMember))
        default: return v
        }
    }

    /// Every member but the last, each `null`: nulls where values go, and one member missing.
    static func withNullMembers(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let pairs): return .object(pairs.dropLast().map { ($0.0, .null) })
        default: return v
        }
    }

    static func outcome<T: JSONDirectCodable>(_: T.Type, _ input: [UInt8], codableOnly: Bool) -> String {
        do {
            let value: T
            if codableOnly {
                value = try input.withUnsafeBufferPointer { b in
                    // Empty or oversized input fails before either path runs.
                    guard let base = b.baseAddress, b.count > 0, b.count <= JSONLimits.default.maxBytes else {
                        return try JSONCoding.decode(T.self, from: input)
                    }
                    return try JSONCoding.decodeWithCodable(T.self, base: base, count: b.count, maxDepth: JSONLimits.default.maxDepth)
                }
            } else {
                value = try JSONCoding.decode(T.self, from: input)
            }
            var again: [UInt8] = []
            try JSONCoding.encodeWithCodable(value, into: &again)
            return "value " + text(again)
        } catch {
            return "error '\(error)'"
        }
    }
}
