/// Where the writer appends bytes: `[UInt8]` or the encoder's `_ByteBuffer`.
protocol _ByteSink {
    var count: Int { get }
    mutating func append(_ byte: UInt8)
    mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>)
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

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        self.base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
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
        base.deallocate()
        base = bigger
        capacity = c
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

    mutating func release() {
        base.deallocate()
        count = 0
        capacity = 0
    }
}
