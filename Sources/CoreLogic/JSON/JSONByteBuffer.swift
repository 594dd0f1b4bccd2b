/// Where the writer appends bytes: `[UInt8]` or the encoder's `_ByteBuffer`.
protocol _ByteSink {
    var count: Int { get }
    mutating func append(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends UTF-8 bytes as a JSON string literal, with quotes and escapes.
    mutating func appendJSONString(utf8 src: UnsafeBufferPointer<UInt8>)
}

extension _ByteSink {
    /// Escaped by `_ByteBuffer`'s writer into room for the worst case (on the stack for a
    /// short string), then appended: one escaper for every sink.
    mutating func appendJSONString(utf8 src: UnsafeBufferPointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: src.count &* 6 &+ 2) { room in
            guard let base = room.baseAddress else { return }
            var escaped = _ByteBuffer(borrowing: base, capacity: room.count)
            escaped.appendJSONString(utf8: src)
            appendBytes(escaped.buffer)
            escaped.release()
        }
    }
}

extension Array: _ByteSink where Element == UInt8 {
    @inline(__always) mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}

/// A growable byte buffer in manually managed memory: appends are a capacity
/// check and a store. The owner must call `release()`.
struct _ByteBuffer: _ByteSink {
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

    @inline(__always) mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0, let src = bytes.baseAddress else { return }
        if count + n > capacity { grow(count + n) }
        (base + count).update(from: src, count: n)
        count &+= n
    }

    private mutating func grow(_ needed: Int) {
        var c = capacity &* 2
        while c < needed { c &*= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
        bigger.update(from: base, count: count)
        if owned { base.deallocate() }
        owned = true
        base = bigger
        capacity = c
    }

    /// Appends `value` in decimal. Below 100,000 (revisions, effect ids, small counts) the
    /// digits are stored after one capacity check, cheaper than the general writer's loop
    /// and copy.
    @inline(__always) mutating func appendDecimal(_ value: UInt64) {
        guard value < 100_000 else { return JSONWriter.writeUnsigned(value, into: &self) }
        if count &+ 5 > capacity { grow(count &+ 5) }
        let v = UInt32(truncatingIfNeeded: value)
        var q = base + count
        if v >= 10_000 { q.pointee = 0x30 &+ UInt8(truncatingIfNeeded: v / 10_000); q += 1 }
        if v >= 1_000 { q.pointee = 0x30 &+ UInt8(truncatingIfNeeded: v / 1_000 % 10); q += 1 }
        if v >= 100 { q.pointee = 0x30 &+ UInt8(truncatingIfNeeded: v / 100 % 10); q += 1 }
        if v >= 10 { q.pointee = 0x30 &+ UInt8(truncatingIfNeeded: v / 10 % 10); q += 1 }
        q.pointee = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
        count = q + 1 - base
    }

    /// Appends `/` and a JSON Pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`)
    /// in one pass, straight into the buffer: a patch's path. The token's bytes go in as
    /// they are otherwise: a key the caller has escaped for JSON keeps its escapes, which
    /// never involve `~` or `/`.
    mutating func appendPointerToken(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        let worst = n &* 2 &+ 1
        if count &+ worst > capacity { grow(count &+ worst) }
        var q = base + count
        q.pointee = UInt8(ascii: "/")
        q += 1
        var k = 0
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
    mutating func appendJSONString(utf8 src: UnsafeBufferPointer<UInt8>) {
        let n = src.count
        let worst = n &* 6 &+ 2
        if count &+ worst > capacity { grow(count &+ worst) }
        var q = base + count
        q.pointee = 0x22
        q += 1
        var k = 0
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

    /// Bytes from `start` to the end.
    func bytes(from start: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// Replaces the bytes from `start` to the end.
    mutating func replaceTail(from start: Int, with bytes: [UInt8]) {
        count = start
        bytes.withUnsafeBufferPointer { appendBytes($0) }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets the bytes from `start` on, keeping the memory.
    @inline(__always) mutating func truncate(to start: Int) { count = start }

    /// Frees the memory if it is the buffer's own (not lent); for a non-copyable owner's
    /// `deinit`, where the buffer cannot be mutated.
    func deallocateIfOwned() {
        if owned { base.deallocate() }
    }

    mutating func release() {
        if owned { base.deallocate() }
        count = 0
        capacity = 0
    }
}
