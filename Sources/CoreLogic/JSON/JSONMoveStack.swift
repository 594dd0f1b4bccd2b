/// A growable stack of values in manually managed memory, whose top elements can
/// be moved out without retain/release traffic. The owner must call `release()`.
struct _MoveStack<T> {
    private(set) var base: UnsafeMutablePointer<T>
    private(set) var count = 0
    private var capacity: Int

    /// Allocates nothing until the first push (`base` is a dangling, aligned
    /// placeholder while `capacity` is 0).
    init() {
        self.capacity = 0
        self.base = UnsafeMutablePointer<T>(bitPattern: MemoryLayout<T>.alignment) ?? .allocate(capacity: 1)
    }

    @inline(__always) mutating func push(_ v: T) {
        if count == capacity { grow() }
        (base + count).initialize(to: v)
        count &+= 1
    }

    private mutating func grow() {
        let newCapacity = capacity == 0 ? 32 : capacity &* 2
        let bigger = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: base, count: count)
        if capacity > 0 { base.deallocate() }
        base = bigger
        capacity = newCapacity
    }

    /// Moves the elements from `start` to the top into a new array.
    mutating func popArray(from start: Int) -> [T] {
        let n = count - start
        guard n > 0 else { return [] }
        let src = base + start
        let a = [T](unsafeUninitializedCapacity: n) { buf, initialized in
            if let dst = buf.baseAddress { dst.moveInitialize(from: src, count: n) }
            initialized = n
        }
        count = start
        return a
    }

    /// Moves out the top element, leaving `count - 1` elements.
    @inline(__always) mutating func popMove() -> T {
        count &-= 1
        return (base + count).move()
    }

    @inline(__always) subscript(i: Int) -> T { base[i] }

    /// Forgets elements from `start` on, which the caller has moved out.
    @inline(__always) mutating func forgetMoved(to start: Int) {
        if start < count { count = start }
    }

    /// Drops elements from `start` on.
    mutating func truncate(to start: Int) {
        guard count > start else { return }
        (base + start).deinitialize(count: count - start)
        count = start
    }

    mutating func release() {
        base.deinitialize(count: count)
        if capacity > 0 { base.deallocate() }
        count = 0
        capacity = 0
    }
}
