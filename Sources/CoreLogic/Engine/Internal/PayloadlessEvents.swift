/// The events of a feature that carry no payload (`"increment"`, `{"reachedBottom":{}}`),
/// decoded once, when the feature is described, by the real decoder.
///
/// Hosts send these events over and over (button presses, scroll ends, timer ticks).
/// When an input is exactly one of these two forms (whitespace allowed), the event is
/// taken from the table instead of running the Codable machinery again: the result is
/// the one the decoder gave for the same bytes. One difference remains: the scanner does
/// not apply the input size limit (`JSONLimits.maxBytes`, 16 MiB), so a payload-less case
/// padded with more whitespace than that is accepted here, where the decoder would fail
/// with a JSON error.
struct PayloadlessEvents<Event: Decodable> {
    private var names: [[UInt8]] = []
    private var events: [Event] = []

    init() {
        for name in JSONCoding.caseNames(of: Event.self) ?? [] {
            let bare = Array(("\"" + name + "\"").utf8)
            let tagged = Array(("{\"" + name + "\":{}}").utf8)
            // Both forms must decode, to the same case, for the table to stand in for them.
            guard let event = try? JSONCoding.decode(Event.self, from: bare),
                  (try? JSONCoding.decode(Event.self, from: tagged)) != nil else { continue }
            names.append(Array(name.utf8))
            events.append(event)
        }
    }

    /// The event for `bytes` if they spell a payload-less case in one of the two forms.
    func match(_ bytes: UnsafeRawBufferPointer) -> Event? {
        if names.isEmpty { return nil }
        var scanner = Scanner(bytes)
        scanner.skipSpace()
        let name: UnsafeRawBufferPointer.SubSequence
        if scanner.take(UInt8(ascii: "\"")) {
            guard let quoted = scanner.plainString() else { return nil }
            name = quoted
        } else if scanner.take(UInt8(ascii: "{")) {
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "\"")), let quoted = scanner.plainString() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            name = quoted
        } else {
            return nil
        }
        scanner.skipSpace()
        guard scanner.atEnd else { return nil }
        for index in names.indices where names[index].elementsEqual(name) {
            return events[index]
        }
        return nil
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var position = 0

        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

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

        /// The characters up to the closing quote, if none needs unescaping or checking
        /// (plain ASCII letters and digits, as case names are); the quote is consumed.
        mutating func plainString() -> UnsafeRawBufferPointer.SubSequence? {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    defer { position += 1 }
                    return bytes[start..<position]
                }
                guard byte < 0x80, byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
                position += 1
            }
            return nil
        }
    }
}
