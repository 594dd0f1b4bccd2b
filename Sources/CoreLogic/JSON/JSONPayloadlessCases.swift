/// The cases of an enum that carry no payload (`"increment"`, `{"reachedBottom":{}}`),
/// decoded once, when the table is built, by the real decoder.
///
/// Hosts send these events over and over (button presses, scroll ends, timer ticks).
/// When an input is exactly one of these two forms (whitespace allowed), the value is
/// taken from the table instead of running the Codable machinery again: the result is
/// the one the decoder gave for the same bytes, under the same size limit (see `match`).
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

    /// `bytes` decoded as the decoder decodes them, or nil. Of a type with direct JSON only
    /// the direct reader is asked (the decoder's answer whenever it has one): a case it
    /// declines, one with a required payload, is left out of the table, and the `Codable`
    /// fallback, whose first run costs about a third of a search system's start-up, does
    /// not run here.
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

    /// The value for `bytes` if they spell a payload-less case in one of the two forms.
    /// Input over the size limit never matches: the decoder rejects it, as it rejects
    /// every other input over a limit, so this shortcut enforces the same limits.
    ///
    /// The case name is compared in place with each known name (a length check, then a
    /// word at a time), followed by its closing quote; names with a byte JSON would
    /// escape are never in the table, so a match is a plain JSON string.
    func match(_ bytes: UnsafeRawBufferPointer) -> Value? {
        let count = bytes.count
        if names.isEmpty || count > JSONLimits.default.maxBytes { return nil }
        // The form hosts send most, a bare name with nothing around it: one length
        // comparison per name and the bytes between the quotes compared in place, without
        // the scanner. A name never holds a quote, so a match is exactly that string.
        if count >= 2, let base = bytes.baseAddress,
           base.load(as: UInt8.self) == UInt8(ascii: "\""),
           base.load(fromByteOffset: count - 1, as: UInt8.self) == UInt8(ascii: "\""),
           let index = caseIndex(Scanner(bytes, at: 1), length: count - 2) {
            return values[index]
        }
        var scanner = Scanner(bytes)
        scanner.skipSpace()
        let tagged: Bool
        if scanner.take(UInt8(ascii: "\"")) {
            tagged = false
        } else if scanner.take(UInt8(ascii: "{")) {
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "\"")) else { return nil }
            tagged = true
        } else {
            return nil
        }
        guard let index = caseIndex(scanner) else { return nil }
        scanner.position += names[index].count + 1
        if tagged {
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
        }
        scanner.skipSpace()
        guard scanner.atEnd else { return nil }
        return values[index]
    }

    /// The index of the name that starts at the scanner's position and is followed by a
    /// closing quote; with `length`, of the name of exactly that length (whose closing
    /// quote the caller has seen).
    @inline(__always) private func caseIndex(_ scanner: Scanner, length: Int? = nil) -> Int? {
        guard let base = scanner.bytes.baseAddress else { return nil }
        let at = base + scanner.position
        let available = scanner.bytes.count - scanner.position
        for index in names.indices {
            let found = names[index].withUnsafeBytes { name -> Bool in
                let n = name.count
                if let length {
                    guard n == length else { return false }
                } else {
                    guard n < available, at.load(fromByteOffset: n, as: UInt8.self) == UInt8(ascii: "\"") else { return false }
                }
                guard let stored = name.baseAddress else { return false }
                var k = 0
                while k + 8 <= n {
                    if at.loadUnaligned(fromByteOffset: k, as: UInt64.self) != stored.loadUnaligned(fromByteOffset: k, as: UInt64.self) { return false }
                    k += 8
                }
                while k < n {
                    if at.load(fromByteOffset: k, as: UInt8.self) != stored.load(fromByteOffset: k, as: UInt8.self) { return false }
                    k += 1
                }
                return true
            }
            if found { return index }
        }
        return nil
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0) {
            self.bytes = bytes
            self.position = position
        }

        var atEnd: Bool { position == bytes.count }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
    }
}
