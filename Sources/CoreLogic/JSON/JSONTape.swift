/// A validated JSON document as a flat array of entries over the input bytes,
/// with no per-value allocation. `JSONCoding.decode(_:from:)` on bytes decodes
/// from it directly, and `JSONParser` builds its values from it, so both accept and
/// reject exactly the same inputs.
///
/// Layout: a container entry is followed by its children; an object's children
/// alternate key (a string entry) and value. `next` is the index just past an
/// entry's subtree. Two extra entries end the tape: an empty object (the payload
/// of an enum case sent as a bare string) and a null (a missing super value).
struct _TapeEntry {
    enum Kind: UInt8 { case null, bool, int, uint, double, string, array, object }
    var kind: Kind
    /// Strings: true when the content has escapes or non-ASCII bytes.
    var slow: Bool
    /// Strings: content offset and length (without quotes).
    /// Containers: `len` is the number of elements or members.
    var start: UInt32
    var len: UInt32
    var next: UInt32
    var parent: Int32
    /// Numbers: the bits of the Int64, UInt64 or Double. Bools: 0 or 1.
    var bits: UInt64

    init(_ kind: Kind, next: Int, parent: Int, start: Int = 0, len: Int = 0, bits: UInt64 = 0, slow: Bool = false) {
        self.kind = kind
        self.slow = slow
        self.start = UInt32(truncatingIfNeeded: start)
        self.len = UInt32(truncatingIfNeeded: len)
        self.next = UInt32(truncatingIfNeeded: next)
        self.parent = Int32(truncatingIfNeeded: parent)
        self.bits = bits
    }
}

extension _Parser {
    /// Validates a string literal at the opening quote without building it.
    mutating func scanString() throws(JSONFailure) -> (start: Int, len: Int, slow: Bool) {
        let quote = i
        i += 1
        let start = i
        if skipPlain() {
            i += 1
            return (start, i - 1 - start, false)
        }
        i = quote
        _ = try parseString()
        return (start, i - 1 - start, true)
    }

    /// Parses the whole input into a tape.
    mutating func buildTape() throws(JSONFailure) -> [_TapeEntry] {
        guard end < Int(Int32.max) else { throw fail("input too large", at: 0) }
        var tape: [_TapeEntry] = []
        tape.reserveCapacity(16 + end / 6)
        var open: [Int] = []   // indices of open containers
        skipWhitespace()
        if i >= end { throw fail("empty input", at: i) }
        valueLoop: while true {
            skipWhitespace()
            let parent = open.last ?? -1
            let b = byte(i)
            let here = tape.count
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                if open.count >= maxDepth { throw fail("nesting deeper than the limit of \(maxDepth)", at: i) }
                i += 1
                tape.append(_TapeEntry(isObject ? .object : .array, next: 0, parent: parent, start: i))
                skipWhitespace()
                if byte(i) == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    i += 1
                    tape[here].next = UInt32(truncatingIfNeeded: here + 1)
                    break
                }
                open.append(here)
                if isObject { try tapeKey(&tape, parent: here) }
                continue valueLoop
            case UInt8(ascii: "\""):
                let s = try scanString()
                tape.append(_TapeEntry(.string, next: here + 1, parent: parent, start: s.start, len: s.len, slow: s.slow))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                var kind = _TapeEntry.Kind.bool
                var bits: UInt64 = 0
                if b == UInt8(ascii: "t") { try expectLiteral("true"); bits = 1 }
                else if b == UInt8(ascii: "f") { try expectLiteral("false") }
                else { try expectLiteral("null"); kind = .null }
                tape.append(_TapeEntry(kind, next: here + 1, parent: parent, bits: bits))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let at = i
                let v = try parseNumber()
                var e = _TapeEntry(.int, next: here + 1, parent: parent, start: at, len: i - at)
                switch v {
                case .int(let x): e.bits = UInt64(bitPattern: x)
                case .uint(let x): e.kind = .uint; e.bits = x
                case .double(let x): e.kind = .double; e.bits = x.bitPattern
                default: break
                }
                tape.append(e)
            default:
                throw fail("expected a value, found \(describeHere())", at: i)
            }
            // A value is complete: continue or close containers.
            while true {
                guard let top = open.last else {
                    skipWhitespace()
                    if i < end { throw fail("unexpected \(describeHere()) after the JSON value", at: i) }
                    tape.append(_TapeEntry(.object, next: tape.count + 1, parent: -1))
                    tape.append(_TapeEntry(.null, next: tape.count + 1, parent: -1))
                    return tape
                }
                tape[top].len &+= 1
                skipWhitespace()
                let c = byte(i)
                let isObject = tape[top].kind == .object
                if c == UInt8(ascii: ",") {
                    i += 1
                    if isObject { try tapeKey(&tape, parent: top) }
                    continue valueLoop
                }
                if isObject {
                    guard c == UInt8(ascii: "}") else { throw fail("expected ',' or '}', found \(describeHere())", at: i) }
                    try checkDuplicateKeys(tape, object: top)
                } else {
                    guard c == UInt8(ascii: "]") else { throw fail("expected ',' or ']', found \(describeHere())", at: i) }
                }
                i += 1
                tape[top].next = UInt32(truncatingIfNeeded: tape.count)
                open.removeLast()
            }
        }
    }

    mutating func tapeKey(_ tape: inout [_TapeEntry], parent: Int) throws(JSONFailure) {
        skipWhitespace()
        guard byte(i) == UInt8(ascii: "\"") else { throw fail("expected a string key, found \(describeHere())", at: i) }
        let s = try scanString()
        tape.append(_TapeEntry(.string, next: tape.count + 1, parent: parent, start: s.start, len: s.len, slow: s.slow))
        skipWhitespace()
        guard byte(i) == UInt8(ascii: ":") else { throw fail("expected ':', found \(describeHere())", at: i) }
        i += 1
    }

    /// The values of a tape, built from its last entry back to its first: when a container
    /// is reached, the values of its children are on top of the stack, the first on top.
    func value(of tape: [_TapeEntry]) -> JSONValue {
        var stack: [JSONValue] = []
        for e in tape[..<(tape.count - 2)].reversed() {
            switch e.kind {
            case .null: stack.append(.null)
            case .bool: stack.append(.bool(e.bits != 0))
            case .int: stack.append(.int(Int64(bitPattern: e.bits)))
            case .uint: stack.append(.uint(e.bits))
            case .double: stack.append(.double(Double(bitPattern: e.bits)))
            case .string: stack.append(.string(tapeString(e)))
            case .array:
                let elements = (0..<Int(e.len)).map { _ in stack.removeLast() }
                stack.append(.array(elements))
            case .object:
                let members = (0..<Int(e.len)).map { _ -> (String, JSONValue) in
                    guard case .string(let key) = stack.removeLast() else { return ("", .null) }
                    return (key, stack.removeLast())
                }
                stack.append(.object(members))
            }
        }
        return stack.removeLast()
    }

    /// The integer a number entry's text denotes, read from its digits, not from its
    /// double: a number written with a fraction or an exponent, or an integer beyond 64
    /// bits, is a double on the tape, and a double may be rounded (-9223372036854775809
    /// reads as -2^63, 9007199254740993.0 as 9007199254740992). Only for numbers that are
    /// not `.int` or `.uint`, so never on the way of an integer written as one.
    func tapeExactInteger(_ e: _TapeEntry) -> _ExactInteger {
        _ExactInteger(UnsafeBufferPointer(start: p + Int(e.start), count: Int(e.len)))
    }

    /// The text of a number entry, as written.
    func tapeNumberText(_ e: _TapeEntry) -> String {
        String(decoding: UnsafeBufferPointer(start: p + Int(e.start), count: Int(e.len)), as: UTF8.self)
    }

    func tapeString(_ e: _TapeEntry) -> String {
        let start = Int(e.start), n = Int(e.len)
        if !e.slow { return String(decoding: UnsafeBufferPointer(start: p + start, count: n), as: UTF8.self) }
        var q = _Parser(base: p, count: end, maxDepth: 0)
        q.i = start - 1
        return (try? q.parseString()) ?? ""
    }

    /// True when the key entry equals the UTF-8 bytes `k`.
    func tapeKeyEquals(_ e: _TapeEntry, _ k: UnsafeBufferPointer<UInt8>) -> Bool {
        if e.slow {
            var s = tapeString(e)
            return s.withUTF8 { $0.elementsEqual(k) }
        }
        guard Int(e.len) == k.count else { return false }
        let a = p + Int(e.start)
        for j in 0..<k.count where a[j] != k[j] { return false }
        return true
    }

    func checkDuplicateKeys(_ tape: [_TapeEntry], object: Int) throws(JSONFailure) {
        let n = Int(tape[object].len)
        guard n > 1 else { return }
        func duplicate(_ e: _TapeEntry) -> JSONError {
            fail("duplicate key \(JSONWriter.string(.string(tapeString(e))))", at: Int(e.start) - 1)
        }
        // Keys are the same when their UTF-8 is (as the decoders compare them).
        if n > 12 {
            var seen = Set<[UInt8]>(minimumCapacity: n)
            var k = object + 1
            for _ in 0..<n {
                if !seen.insert(Array(tapeString(tape[k]).utf8)).inserted { throw duplicate(tape[k]) }
                k = Int(tape[k + 1].next)
            }
            return
        }
        // Pairwise, walking the members in place: each key against those before it.
        var a = Int(tape[object + 2].next)
        for _ in 1..<n {
            let ea = tape[a]
            let decoded = ea.slow ? tapeString(ea) : nil
            var b = object + 1
            while b < a {
                let eb = tape[b]
                if var decoded {
                    if decoded.withUTF8({ tapeKeyEquals(eb, $0) }) { throw duplicate(ea) }
                } else if tapeKeyEquals(eb, UnsafeBufferPointer(start: p + Int(ea.start), count: Int(ea.len))) {
                    throw duplicate(ea)
                }
                b = Int(tape[b + 1].next)
            }
            a = Int(tape[a + 1].next)
        }
    }
}

/// What a JSON number literal (already validated by the lexer) denotes as an integer,
/// exactly: its digits scaled by its exponent, with no rounding.
enum _ExactInteger: Equatable {
    /// An integer: its sign and magnitude (`-0` is 0).
    case integer(negative: Bool, magnitude: UInt64)
    /// Not an integer (a fraction is left after the exponent).
    case fraction
    /// An integer whose magnitude is above `UInt64.max`.
    case tooLarge

    init(_ text: UnsafeBufferPointer<UInt8>) {
        let negative = text.first == UInt8(ascii: "-")
        // The mantissa's digits (the point skipped), and the power of ten they are scaled by.
        var digits: [UInt8] = []
        var scale = 0, k = negative ? 1 : 0, afterPoint = false
        while k < text.count, text[k] | 0x20 != UInt8(ascii: "e") {
            if text[k] == UInt8(ascii: ".") {
                afterPoint = true
            } else {
                digits.append(text[k] &- 0x30)
                if afterPoint { scale -= 1 }
            }
            k += 1
        }
        if k + 1 < text.count {
            let exponentNegative = text[k + 1] == UInt8(ascii: "-")
            var exponent = 0
            // Past 10^8 the answer no longer depends on it (inputs are at most 16 MiB).
            for b in text[(k + 1)...] where b != UInt8(ascii: "-") && b != UInt8(ascii: "+") && exponent < 100_000_000 {
                exponent = exponent &* 10 &+ Int(b &- 0x30)
            }
            scale += exponentNegative ? -exponent : exponent
        }
        while digits.last == 0 { digits.removeLast(); scale += 1 }
        guard let first = digits.firstIndex(where: { $0 != 0 }) else {
            self = .integer(negative: negative, magnitude: 0)
            return
        }
        // The last digit is not 0, so a negative scale leaves a fraction.
        if scale < 0 { self = .fraction; return }
        if digits.count - first + scale > 20 { self = .tooLarge; return }
        var magnitude: UInt64 = 0
        for d in digits[first...] + repeatElement(0, count: scale) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(d))
            if o1 || o2 { self = .tooLarge; return }
            magnitude = sum
        }
        self = .integer(negative: negative, magnitude: magnitude)
    }

    /// The integer as an `I`, nil if it is not one or does not fit.
    func value<I: FixedWidthInteger>(_: I.Type) -> I? {
        guard case .integer(let negative, let magnitude) = self else { return nil }
        if !negative || magnitude == 0 { return I(exactly: magnitude) }
        // -magnitude, as -(magnitude - 1) - 1 so that Int64.min's magnitude fits.
        guard I.isSigned, let below = Int64(exactly: magnitude - 1) else { return nil }
        return I(exactly: -below - 1)
    }
}
