/// The cases of an enum that carry no payload (`"increment"`, `{"reachedBottom":{}}`),
/// decoded once, when the table is built, by the real decoder.
///
/// Hosts send these events over and over (button presses, scroll ends, timer ticks).
/// When an input is exactly one of these two forms, the value is taken from the table
/// instead of running the decoder again: the result is the one the decoder gave for the
/// same bytes, under the same size limit (see `match`).
/// It stays in front of the decoder because a synthesized enum's `init(from:)` costs about
/// 11,000 instructions whatever the decoder does (`docs/performance.md`).
struct PayloadlessCases<Value: Decodable> {
    private var names: [[UInt8]] = []
    private var values: [Value] = []

    /// The table of `Value`'s payload-less cases.
    init() {
        self.init(caseNames: JSONCoding.caseNames(of: Value.self) ?? [])
    }

    /// The table, from `Value`'s case names as ``JSONCoding/caseNames(of:)`` gives them
    /// (a feature's descriptor has them already; asking again would probe a second time).
    init(caseNames: [String]) {
        // Only names JSON writes without escapes (printable ASCII, no quote or backslash):
        // `match` compares raw bytes, which is right only for those.
        for name in caseNames
        where name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            let bare = Array(("\"" + name + "\"").utf8)
            let tagged = Array(("{\"" + name + "\":{}}").utf8)
            // Both forms must decode for the table to stand in for them (the bare form's
            // value is the one kept).
            guard let value = Self.decodeForTable(bare), Self.decodeForTable(tagged) != nil else { continue }
            names.append(Array(name.utf8))
            values.append(value)
        }
    }

    /// `bytes` decoded as the decoder decodes them, or nil. A type with direct JSON asks
    /// only its direct reader (a case it declines is left out of the table), sparing the
    /// `Codable` fallback's first run, a third of a search system's start-up.
    private static func decodeForTable(_ bytes: [UInt8]) -> Value? {
        #if !hasFeature(Embedded)
        if Value.self is any JSONDirectCodable.Type {
            return bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap {
                    _Direct.decode(Value.self, base: $0, count: buffer.count, maxDepth: JSONLimits.default.maxDepth)
                }
            }
        }
        #endif
        return try? JSONCoding.decode(Value.self, from: bytes)
    }

    /// The value for `bytes` if they are exactly `"name"` or `{"name":{}}` for a case in
    /// the table, as hosts write them; any other spelling (whitespace, say) goes to the
    /// decoder, which gives the same value. Input over the size limit never matches: the
    /// decoder rejects it, so this shortcut enforces the same limits. A name in the table
    /// holds no byte JSON escapes, so comparing raw bytes is exact.
    func match(_ bytes: UnsafeRawBufferPointer) -> Value? {
        let count = bytes.count
        guard !names.isEmpty, count >= 2, count <= JSONLimits.default.maxBytes, let base = bytes.baseAddress else { return nil }
        let quote = UInt8(ascii: "\"")
        if base.load(as: UInt8.self) == quote && base.load(fromByteOffset: count - 1, as: UInt8.self) == quote {
            return caseIndex(base + 1, length: count - 2).map { values[$0] }
        }
        // `{"` name `":{}}`: the head as one little-endian word, the tail as the high five
        // bytes of the word that ends the input.
        guard count >= 8, base.loadUnaligned(as: UInt16.self) == 0x22_7B,
              base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) >> 24 == 0x7D_7D_7B_3A_22
        else { return nil }
        return caseIndex(base + 2, length: count - 7).map { values[$0] }
    }

    /// The index of the name of exactly `length` bytes at `at`: a length check, then the
    /// bytes compared a word at a time.
    @inline(__always) private func caseIndex(_ at: UnsafeRawPointer, length: Int) -> Int? {
        for index in names.indices {
            let found = names[index].withUnsafeBytes { name -> Bool in
                guard name.count == length, let stored = name.baseAddress else { return false }
                var k = 0
                while k + 8 <= length {
                    if at.loadUnaligned(fromByteOffset: k, as: UInt64.self) != stored.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
                    k += 8
                }
                while k < length {
                    if at.load(fromByteOffset: k, as: UInt8.self) != stored.load(fromByteOffset: k, as: UInt8.self) { return false }
                    k += 1
                }
                return true
            }
            if found { return index }
        }
        return nil
    }
}
