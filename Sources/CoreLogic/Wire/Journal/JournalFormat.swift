
/// How often a journal forces its records to stable storage.
public enum Durability: Int32, Sendable {
    /// fsync (fdatasync) after every record, before the input's call returns.
    case everyInput = 0
    /// fsync when a record is appended at least ``Journal/syncInterval`` after the last
    /// fsync, and on checkpoint, sync and close.
    case interval = 1

    var name: String { self == .everyInput ? "every-input" : "interval" }

    init?(name: String) {
        switch name {
        case "every-input": self = .everyInput
        case "interval": self = .interval
        default: return nil
        }
    }
}

/// The on-disk shapes of docs/persistence.md: one directory holding `snapshot.json`,
/// journal segments `journal-<first seq, 20 digits>.jsonl` and a `lock` file. Every file
/// is lines of compact JSON; every line ends with `,"crc32":"<8 hex>"}` where the CRC-32
/// covers the line's bytes before `,"crc32"`.
enum JournalFormat {
    static let version: Int64 = 1
    static let snapshotName = "snapshot.json"
    static let lockName = "lock"
    private static let segmentPrefix = "journal-"
    private static let segmentSuffix = ".jsonl"
    private static let checksumField: StaticString = #","crc32":""#
    private static let checksumKey = Array(UnsafeBufferPointer(start: checksumField.utf8Start, count: checksumField.utf8CodeUnitCount))
    /// `,"crc32":"` + 8 hex digits + `"}`.
    static let checksumSuffixLength = 20

    static func segmentName(first: UInt64) -> String {
        let digits = String(first)
        return segmentPrefix + String(repeating: "0", count: max(0, 20 - digits.count)) + digits + segmentSuffix
    }

    /// The first seq of a segment file's name, or nil for any other file.
    static func segmentFirst(_ name: String) -> UInt64? {
        guard name.hasPrefix(segmentPrefix), name.hasSuffix(segmentSuffix) else { return nil }
        let digits = name.dropFirst(segmentPrefix.count).dropLast(segmentSuffix.count)
        guard digits.count == 20, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return UInt64(digits)
    }

    /// Ends a line whose body (an object without its closing brace) is in `line`:
    /// appends the checksum field, the brace and a newline.
    static func seal(_ line: inout _ByteBuffer) {
        let crc = CRC32.checksum(UnsafeRawBufferPointer(line.buffer))
        line.append(checksumField)
        CRC32.appendHex(crc, to: &line)
        line.append(#""}"#)
        line.append(UInt8(ascii: "\n"))
    }

    /// The most a record adds around its event: the keys, `seq`, `next` and the effect id
    /// (20 digits each at most), the checksum field and the newline.
    static let recordOverhead = 256

    /// Limits for reading a record line, derived from what ``Journal/append`` writes: an
    /// event within the input limits (checked before it is written) plus the record
    /// around it, which adds ``recordOverhead`` bytes and two levels (`deliver.event`).
    static let recordLimits = JSONLimits(maxDepth: JSONLimits.default.maxDepth + 2,
                                         maxBytes: JSONLimits.default.maxBytes + recordOverhead)
    /// Limits for a snapshot or header line: a state has no size cap (see
    /// ``JSONLimits/stored``); the snapshot object adds one level around it.
    static let snapshotLimits = JSONLimits(maxDepth: JSONLimits.stored.maxDepth + 1, maxBytes: Int.max)

    /// Checks a line's checksum (the line without its newline). Throws a reason (no
    /// location; the reader adds file and line).
    static func checkChecksum(_ line: ArraySlice<UInt8>) throws {
        let count = line.count
        guard count > checksumSuffixLength else { throw Reason("line too short to hold a checksum", torn: true) }
        let bodyEnd = line.endIndex - checksumSuffixLength
        guard line[bodyEnd..<(bodyEnd + checksumKey.count)].elementsEqual(checksumKey),
              line[line.endIndex - 2] == UInt8(ascii: "\""), line[line.endIndex - 1] == UInt8(ascii: "}") else {
            throw Reason("line does not end with a \"crc32\" field", torn: true)
        }
        let stored = line[(bodyEnd + checksumKey.count)..<(line.endIndex - 2)]
        let computed = CRC32.hex(CRC32.checksum(line[line.startIndex..<bodyEnd]))
        guard stored.elementsEqual(computed) else {
            throw Reason("checksum mismatch (stored \(String(decoding: stored, as: UTF8.self)), computed \(String(decoding: computed, as: UTF8.self)))", torn: true)
        }
    }

    /// Checks a header or snapshot line's checksum and parses it into an object with
    /// `limits` (these lines are read once per file; records are decoded by the replay).
    static func open(_ line: ArraySlice<UInt8>, limits: JSONLimits) throws -> JSONValue {
        try checkChecksum(line)
        let value: JSONValue
        do {
            value = try line.withUnsafeBytes { try JSONParser.parse($0, limits: limits) }
        } catch {
            throw Reason("not valid JSON: \(error)", torn: true)
        }
        guard case .object = value else { throw Reason("not a JSON object") }
        return value
    }

    // MARK: Writing

    /// The snapshot line in `line` (emptied first); `writeState` appends the state's
    /// compact JSON.
    static func snapshot(feature: String, stateVersion: Int, seq: UInt64, next: UInt64, durability: Durability,
                         into line: inout _ByteBuffer, writeState: (inout _ByteBuffer) throws -> Void) rethrows {
        openHeader("snapshot", feature: feature, stateVersion: stateVersion, &line)
        appendField("seq", seq, &line)
        appendField("next", next, &line)
        appendDurability(durability, &line)
        line.append(#","state":"#)
        try writeState(&line)
        seal(&line)
    }

    /// The header line of a segment in `line` (emptied first).
    static func segmentHeader(feature: String, stateVersion: Int, first: UInt64, next: UInt64,
                              durability: Durability, into line: inout _ByteBuffer) {
        openHeader("journal", feature: feature, stateVersion: stateVersion, &line)
        appendField("first", first, &line)
        appendField("next", next, &line)
        appendDurability(durability, &line)
        seal(&line)
    }

    /// `{"corelogic":<kind>,"format":1,"feature":...,"stateVersion":N` in `line`, emptied
    /// first: the opening both file headers share.
    private static func openHeader(_ kind: StaticString, feature: String, stateVersion: Int, _ line: inout _ByteBuffer) {
        line.truncate(to: 0)
        line.append(#"{"corelogic":""#)
        line.append(kind)
        line.append(#"","format":1,"feature":"#)
        JSONWriter.writeString(feature, into: &line)
        line.append(#","stateVersion":"#)
        line.appendInt(Int64(stateVersion))
    }

    /// `,"name":value`.
    private static func appendField(_ name: StaticString, _ value: UInt64, _ line: inout _ByteBuffer) {
        line.append(#",""#)
        line.append(name)
        line.append(#"":"#)
        line.appendDecimal(value)
    }

    /// `,"durability":"<name>"`.
    private static func appendDurability(_ durability: Durability, _ line: inout _ByteBuffer) {
        line.append(#","durability":"#)
        JSONWriter.writeString(durability.name, into: &line)
    }

    /// One input: `{"seq":12,"next":17,"send":<event>,...}`,
    /// `"deliver":{"effect":4,"event":<event>}` or `"complete":{"effect":4}`, in `line`
    /// (emptied first); `writeEvent` appends the event's compact JSON (nothing for `complete`).
    static func record(_ kind: InputKind, effect: UInt64?, seq: UInt64, next: UInt64, into line: inout _ByteBuffer,
                       writeEvent: (inout _ByteBuffer) throws -> Void) rethrows {
        line.truncate(to: 0)
        line.append(#"{"seq":"#)
        line.appendDecimal(seq)
        line.append(#","next":"#)
        line.appendDecimal(next)
        switch kind {
        case .send:
            line.append(#","send":"#)
            try writeEvent(&line)
        case .deliver:
            line.append(#","deliver":{"effect":"#)
            line.appendDecimal(effect ?? 0)
            line.append(#","event":"#)
            try writeEvent(&line)
            line.append(UInt8(ascii: "}"))
        case .complete:
            line.append(#","complete":{"effect":"#)
            line.appendDecimal(effect ?? 0)
            line.append(UInt8(ascii: "}"))
        }
        seal(&line)
    }

    // MARK: Reading

    static func unsigned(_ value: JSONValue?, _ field: String) throws -> UInt64 {
        switch value {
        case .int(let number)? where number >= 0: return UInt64(number)
        case .uint(let number)?: return number
        default: throw Reason("field \"\(field)\" is missing or not a non-negative integer")
        }
    }

    static func integer(_ value: JSONValue?, _ field: String) throws -> Int {
        guard case .int(let number)? = value, let result = Int(exactly: number) else {
            throw Reason("field \"\(field)\" is missing or not an integer")
        }
        return result
    }

    static func string(_ value: JSONValue?, _ field: String) throws -> String {
        guard case .string(let text)? = value else { throw Reason("field \"\(field)\" is missing or not a string") }
        return text
    }

    /// Why a line cannot be used; the reader prefixes file and line.
    struct Reason: Error {
        var text: String
        /// The line is not whole (checksum or syntax): on the last line of the last
        /// segment, a write a crash cut short.
        var torn: Bool
        init(_ text: String, torn: Bool = false) {
            self.text = text
            self.torn = torn
        }
    }
}
