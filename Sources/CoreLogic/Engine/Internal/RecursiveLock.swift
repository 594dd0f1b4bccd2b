#if hasFeature(Embedded)
/// The WebAssembly build runs on one thread (a page's or a worker's): there is nothing to
/// wait for, and a call from inside a handler is queued by the system's draining flag, as
/// in the native library.
final class RecursiveLock {
    init() {}
    @inline(__always) func lock() {}
    @inline(__always) func unlock() {}
    @inline(__always) func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T { try body() }
}
#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recursive mutex. A system holds it while it drains its queue, so calls from
/// other threads wait, while a call from inside a handler on the draining thread
/// gets through and is queued instead of reducing re-entrantly (docs/contract.md §3).
///
/// The C library's mutex (Glibc, Musl or Darwin: POSIX threads) is the only thing the
/// engine takes from outside the Swift standard library: the standard library has no
/// recursive lock. No Foundation, no package.
final class RecursiveLock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
#endif
