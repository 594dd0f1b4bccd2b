#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// Minimal threads for tests without Foundation's Thread in the engine's vocabulary.
enum Thread {
    static func detach(_ body: @escaping () -> Void) {
        final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_detach(thread)
    }
}

/// Waits until `count` threads have called `leave()`.
final class DispatchGroupLike {
    private var remaining: Int
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    init(count: Int) {
        remaining = count
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    func leave() {
        pthread_mutex_lock(&mutex)
        remaining -= 1
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while remaining > 0 { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
}
