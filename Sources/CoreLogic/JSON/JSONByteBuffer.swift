/// A growable byte buffer in manually managed memory: appends are a capacity
/// check and a store. Everything the codec, the differs and the wire layer write goes
/// into one of these. The owner must call `release()` exactly once.
struct _ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    /// False while `base` is memory lent by the caller (`init(borrowing:capacity:)`),
    /// which is never freed here; growing moves the bytes to owned memory.
    private var owned = true

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    /// Starts in `memory` (a stack buffer, say), which must outlive the buffer's use;
    /// output that outgrows it moves to the heap.
    init(borrowing memory: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.capacity = capacity
        self.base = memory
        self.owned = false
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        if count == capacity { grow(count + 1) }
        base[count] = byte
        count &+= 1
    }

    /// Thirty-two bytes or fewer (the literals of a batch: `{"state":`, `,"steps":`) are
    /// copied as words whose last one overlaps the one before, without a call to `memcpy`.
    @inline(__always) mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let src = bytes.baseAddress else { return }
        if count + n > capacity { grow(count + n) }
        let to = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(src)
        @inline(__always) func copyWord(at offset: Int) {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
        }
        if n >= 8 && n <= 32 {
            copyWord(at: 0)
            if n > 16 {
                copyWord(at: 8)
                if n > 24 { copyWord(at: 16) }
            }
            copyWord(at: n &- 8)
        } else if n >= 4 && n < 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self), toByteOffset: n &- 4, as: UInt32.self)
        } else {
            (base + count).update(from: src, count: n)
        }
        count &+= n
    }

    /// Appends a literal's bytes.
    @inline(__always) mutating func append(_ literal: StaticString) {
        appendBytes(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends the bytes of an array (JSON a differ kept).
    @inline(__always) mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { appendBytes($0) }
    }

    private mutating func grow(_ needed: Int) {
        var c = max(capacity &* 2, 16)
        while c < needed { c &*= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.update(from: base, count: count)
        if owned { base.deallocate() }
        owned = true
        base = bigger
        capacity = c
    }

    /// Appends `value` in decimal: its digits counted, then stored from the last, two at a
    /// time from a table, after one capacity check.
    @inline(__always) mutating func appendDecimal(_ value: UInt64) {
        var digits: Int
        if value < 100_000 {
            digits = value < 100 ? (value < 10 ? 1 : 2) : (value < 1_000 ? 3 : (value < 10_000 ? 4 : 5))
        } else {
            digits = 6
            var limit: UInt64 = 1_000_000
            while value >= limit {
                digits &+= 1
                if digits == 20 { break }   // 10^20 is beyond UInt64
                limit &*= 10
            }
        }
        if count &+ digits > capacity { grow(count &+ digits) }
        var q = UnsafeMutableRawPointer(base + (count &+ digits))
        count &+= digits
        let pairs = UnsafeRawPointer(_ByteBuffer.digitPairs.utf8Start)
        var rest = value
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100)
            rest /= 100
            q -= 2
            q.storeBytes(of: pairs.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), as: UInt16.self)
        }
        if rest >= 10 {
            q -= 2
            q.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: rest) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            q -= 1
            q.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: rest), as: UInt8.self)
        }
    }

    /// Appends an integer in decimal (one wider than 64 bits through its description).
    @inline(__always) mutating func appendInteger<I: FixedWidthInteger>(_ value: I) {
        if I.bitWidth > 64 {
            var text = value.description
            text.withUTF8 { appendBytes($0) }
        } else if I.isSigned {
            appendInt(Int64(truncatingIfNeeded: value))
        } else {
            appendDecimal(UInt64(truncatingIfNeeded: value))
        }
    }

    /// Appends `value` in decimal, with its sign.
    mutating func appendInt(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    /// Appends a finite double in shortest round-trip form (`12.0`, `0.1`, `1e-05`, as its
    /// `description`); a non-finite one as `null`.
    mutating func appendDouble(_ d: Double) {
        guard d.isFinite else { append("null"); return }
        if abs(d) < 1e15 && _ByteBuffer.isIntegral(d) {
            // Integral and exactly representable: written without `description`.
            if d.sign == .minus { append(UInt8(ascii: "-")) }
            appendDecimal(UInt64(abs(d)))
            append(".0")
            return
        }
        var text = d.description
        text.withUTF8 { appendBytes($0) }
    }

    /// True for finite doubles without a fractional part (no libm needed).
    static func isIntegral(_ d: Double) -> Bool {
        guard d.isFinite else { return false }
        if abs(d) >= 4503599627370496 { return true }   // 2^52: no fraction bits left
        return Double(Int64(d)) == d
    }

    /// Appends a finite float in shortest round-trip form; a non-finite one as `null`.
    mutating func appendFloat(_ f: Float) {
        guard f.isFinite else { append("null"); return }
        var text = f.description
        text.withUTF8 { appendBytes($0) }
    }

    /// "00" to "99", for ``appendDecimal(_:)``.
    static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends `/` and a JSON Pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`)
    /// in one pass, straight into the buffer: a patch's path. The token's bytes go in as
    /// they are otherwise: a key the caller has escaped for JSON keeps its escapes, which
    /// never involve `~` or `/`.
    @inline(__always) mutating func appendPointerToken(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        // In one piece when nothing in it is escaped (keys are names from Swift source).
        if count &+ n &+ 1 <= capacity {
            let q = base + count
            if _ByteBuffer.copyUnescaped(src, to: q + 1, .pointer) == n {
                q.pointee = UInt8(ascii: "/")
                count &+= n &+ 1
                return
            }
        }
        appendEscapedPointerToken(utf8: src)
    }

    /// ``appendPointerToken(utf8:)`` byte by byte from the first byte to escape on.
    private mutating func appendEscapedPointerToken(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        var (q, k) = startEscaping(src, worst: n &* 2 &+ 1, lead: UInt8(ascii: "/"), .pointer)
        while k < n {
            let b = src[k]
            k &+= 1
            if b != UInt8(ascii: "~") && b != UInt8(ascii: "/") {
                q.pointee = b
                q += 1
            } else {
                q.pointee = UInt8(ascii: "~")
                q[1] = b == UInt8(ascii: "~") ? UInt8(ascii: "0") : UInt8(ascii: "1")
                q += 2
            }
        }
        count = q - base
    }

    /// Appends UTF-8 bytes as a JSON string literal (the one escaper: `"`, `\` and control
    /// characters, `\n \t \r \b \f` by name, others as `\u00XX`), straight into the buffer.
    /// Eight bytes at a time while none of them needs an escape (most strings: keys, names),
    /// then byte by byte.
    mutating func appendJSONString(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        var (q, k) = startEscaping(src, worst: n &* 6 &+ 2, lead: 0x22, .json)
        while k < n {
            let b = src[k]
            k &+= 1
            if b >= 0x20 && b != 0x22 && b != 0x5C {
                q.pointee = b
                q += 1
                continue
            }
            q.pointee = 0x5C
            switch b {
            case 0x22: q[1] = 0x22; q += 2
            case 0x5C: q[1] = 0x5C; q += 2
            case 0x0A: q[1] = UInt8(ascii: "n"); q += 2
            case 0x09: q[1] = UInt8(ascii: "t"); q += 2
            case 0x0D: q[1] = UInt8(ascii: "r"); q += 2
            case 0x08: q[1] = UInt8(ascii: "b"); q += 2
            case 0x0C: q[1] = UInt8(ascii: "f"); q += 2
            default:
                q[1] = UInt8(ascii: "u"); q[2] = 0x30; q[3] = 0x30
                q[4] = JSONWriter.hexDigit(b >> 4); q[5] = JSONWriter.hexDigit(b & 0xF)
                q += 6
            }
        }
        q.pointee = 0x22
        q += 1
        count = q - base
    }

    /// Appends `"name":`, a member's key and its colon: in one piece when the name needs no
    /// escape and fits in the room left (keys are names from Swift source, so nearly always).
    @inline(__always) mutating func appendKey(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        if count &+ n &+ 3 <= capacity {
            let q = base + count
            if _ByteBuffer.copyUnescaped(src, to: q + 1, .json) == n {
                q.pointee = 0x22
                q[n &+ 1] = 0x22
                q[n &+ 2] = UInt8(ascii: ":")
                count &+= n &+ 3
                return
            }
        }
        appendJSONString(utf8: src)
        append(UInt8(ascii: ":"))
    }

    /// The start of both escapers: room for `worst` bytes, `lead` written, then the start
    /// of `src` that needs no escape copied after it. Returns where the next byte goes and
    /// how many bytes of `src` were copied; the caller goes on from there byte by byte.
    @inline(__always) private mutating func startEscaping(
        _ src: UnsafeBufferPointer<UInt8>, worst: Int, lead: UInt8, _ kind: Escaped
    ) -> (UnsafeMutablePointer<UInt8>, Int) {
        if count &+ worst > capacity { grow(count &+ worst) }
        let q = base + count
        q.pointee = lead
        let copied = _ByteBuffer.copyUnescaped(src, to: q + 1, kind)
        return (q + 1 + copied, copied)
    }

    /// What a writer escapes: for a JSON string, control characters, `"` and `\`; for a
    /// JSON Pointer token, `~` and `/`.
    enum Escaped { case json, pointer }

    /// Copies the longest start of `src` that needs no escape to `q`, eight bytes (or four)
    /// at a time, and returns its length: all of `src`, or less when a word holds a byte
    /// to escape, where the caller goes on byte by byte. Below four bytes, byte by byte.
    @inline(__always)
    static func copyUnescaped(_ src: UnsafeBufferPointer<UInt8>, to q: UnsafeMutablePointer<UInt8>, _ kind: Escaped) -> Int {
        let n = src.count
        guard let from = src.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        if n < 4 {
            var k = 0
            while k < n {
                let b = src[k]
                guard plain(b, kind) else { return k }
                q[k] = b
                k &+= 1
            }
            return n
        }
        let to = UnsafeMutableRawPointer(q)
        if n < 8 {
            // The first four bytes and the last four, which overlap.
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            guard plain(head, kind) && plain(tail, kind) else { return 0 }
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
            return n
        }
        var k = 0
        while k &+ 8 <= n {
            let word = from.loadUnaligned(fromByteOffset: k, as: UInt64.self)
            guard plain(word, kind) else { return k }
            to.storeBytes(of: word, toByteOffset: k, as: UInt64.self)
            k &+= 8
        }
        // The last bytes as the word that ends `src`, over bytes already copied.
        guard k < n else { return n }
        let word = from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        guard plain(word, kind) else { return k }
        to.storeBytes(of: word, toByteOffset: n &- 8, as: UInt64.self)
        return n
    }

    /// True when no byte of `word` is one that `kind` escapes. A byte below 0x20, or equal
    /// to one of the others after an exclusive or, is one whose subtraction borrows into its
    /// top bit; a borrow only runs on from a byte that matched, and bytes from 0x80 up
    /// never match, so the test is exact.
    @inline(__always) static func plain<Word: FixedWidthInteger & UnsignedInteger>(_ word: Word, _ kind: Escaped) -> Bool {
        let ones = Word.max / 0xFF
        let flagged: Word
        switch kind {
        case .json:
            flagged = (word &- ones &* 0x20) | ((word ^ (ones &* 0x22)) &- ones) | ((word ^ (ones &* 0x5C)) &- ones)
        case .pointer:
            flagged = ((word ^ (ones &* 0x7E)) &- ones) | ((word ^ (ones &* 0x2F)) &- ones)
        }
        return flagged & ~word & (ones &* 0x80) == 0
    }

    /// Replaces the bytes from `start` to the end.
    mutating func replaceTail(from start: Int, with bytes: [UInt8]) {
        count = start
        bytes.withUnsafeBufferPointer { appendBytes($0) }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// The bytes from `start` to the end, valid until the next change.
    func buffer(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: count - start)
    }

    /// Appends the member `"name":value` (after a comma unless `first`), its value written
    /// by `write`. When that value's JSON is `last` (and not `always`), takes the member
    /// back and returns false; otherwise keeps a copy of the value in `last`. What a watched
    /// query reports: its value, when it changed.
    mutating func appendMember<E: Error>(_ name: String, first: Bool, unlessSameAs last: inout [UInt8], always: Bool = false,
                                         _ write: (inout _ByteBuffer) throws(E) -> Void) throws(E) -> Bool {
        let member = count
        if !first { append(UInt8(ascii: ",")) }
        JSONWriter.writeString(name, into: &self)
        append(UInt8(ascii: ":"))
        let value = count
        try write(&self)
        if !always && buffer(from: value).elementsEqual(last) {
            truncate(to: member)
            return false
        }
        last = Array(buffer(from: value))
        return true
    }

    /// Runs `body` on a buffer that starts in `capacity` bytes on the stack (moving to the
    /// heap if it outgrows them) and is freed afterwards: for output copied out at once.
    static func withTemporary<R, E: Error>(capacity: Int, _ body: (inout _ByteBuffer) throws(E) -> R) throws(E) -> R {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { (room) throws(E) -> R in
            var buffer = _ByteBuffer(borrowing: room.baseAddress!, capacity: room.count)
            defer { buffer.release() }
            return try body(&buffer)
        }
    }

    /// Appends to `out` what `body` writes, written on the stack first (a small state or
    /// request fits) and copied in once; on a throw `out` is unchanged.
    static func appending<E: Error>(to out: inout [UInt8], _ body: (inout _ByteBuffer) throws(E) -> Void) throws(E) {
        try withTemporary(capacity: 512) { (buffer) throws(E) in
            try body(&buffer)
            out.append(contentsOf: buffer.buffer)
        }
    }

    /// Forgets the bytes from `start` on, keeping the memory.
    @inline(__always) mutating func truncate(to start: Int) { count = start }

    /// Frees the memory if it is the buffer's own (not lent); for a non-copyable owner's
    /// `deinit`, where the buffer cannot be mutated.
    func deallocateIfOwned() {
        if owned { base.deallocate() }
    }

    /// Frees the memory if it is the buffer's own. A released buffer owns nothing: a
    /// second release frees nothing, and an append starts a new allocation.
    mutating func release() {
        if owned { base.deallocate() }
        owned = false
        count = 0
        capacity = 0
    }
}
