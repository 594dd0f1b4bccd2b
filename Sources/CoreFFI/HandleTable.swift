#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(CoreLogicWasmLibc)
import CoreLogicWasmLibc
#endif
import CoreLogic

/// A system owned by a host handle (its handlers are set on the system itself).
final class SystemBox {
    let system: AnySystem
    init(_ system: AnySystem) { self.system = system }
}

/// Maps `corelogic_system` handles to systems. A handle is `generation << 32 | slot + 1`;
/// freeing a slot bumps its generation, so a freed handle never finds the system that
/// later reuses the slot (double free and use after free are detected, not undefined).
/// Handle 0 is never valid.
final class HandleTable {
    private struct Slot {
        var generation: UInt32 = 1
        var box: SystemBox?
    }

    static let shared = HandleTable()

    // Unchecked exclusivity: read and written only while `lock` is held.
    @exclusivity(unchecked) private var slots: [Slot] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    private let lock = TableLock()

    private init() {}

    func insert(_ box: SystemBox) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
        } else {
            slots.append(Slot())
            index = slots.count - 1
        }
        slots[index].box = box
        return UInt64(slots[index].generation) << 32 | UInt64(index + 1)
    }

    /// The live system behind `handle`; the caller's reference keeps it alive even if
    /// another thread (or a handler) frees the handle meanwhile.
    func lookup(_ handle: UInt64) throws(CoreLogicFailure) -> SystemBox {
        lock.lock()
        defer { lock.unlock() }
        guard let index = slotIndex(handle), let box = slots[index].box else {
            throw CoreLogicError(.handle, "handle \(handle) is not a live system (0, freed, or never created)")
        }
        return box
    }

    func remove(_ handle: UInt64) throws(CoreLogicFailure) -> SystemBox {
        lock.lock()
        defer { lock.unlock() }
        guard let index = slotIndex(handle), let box = slots[index].box else {
            throw CoreLogicError(.handle, "handle \(handle) is not a live system (0, already freed, or never created)")
        }
        slots[index].box = nil
        slots[index].generation &+= 1
        if slots[index].generation == 0 { slots[index].generation = 1 }
        freeSlots.append(index)
        return box
    }

    private func slotIndex(_ handle: UInt64) -> Int? {
        let slot = Int(handle & 0xFFFF_FFFF)
        let generation = UInt32(truncatingIfNeeded: handle >> 32)
        guard slot >= 1, slot <= slots.count, slots[slot - 1].generation == generation else { return nil }
        return slot - 1
    }
}

/// The handle table's lock: every call takes it once, to find its system and retain it.
///
/// What it guards is a few loads and a retain (an insert may also grow an array), never
/// a wait or a call out, so it is a spin lock that yields the processor when it is
/// taken: uncontended, a lock and an unlock cost about a tenth of a pthread mutex pair
/// (callgrind: about 60 instructions a call), and a thread that finds it taken lets the
/// holder run instead of spinning through its time slice. (A lock-free lookup would need
/// deferred reclamation of freed systems to make the retain safe; this keeps the table
/// simple.)
final class TableLock {
    #if hasFeature(Embedded)
    // The WebAssembly build runs on one thread: nothing to exclude.
    @inline(__always) func lock() {}
    @inline(__always) func unlock() {}
    #elseif canImport(Darwin)
    private let word: UnsafeMutablePointer<os_unfair_lock>

    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: os_unfair_lock())
    }

    @inline(__always) func lock() { os_unfair_lock_lock(word) }
    @inline(__always) func unlock() { os_unfair_lock_unlock(word) }
    #else
    private let word: UnsafeMutablePointer<pthread_spinlock_t>

    init() {
        word = .allocate(capacity: 1)
        pthread_spin_init(word, Int32(PTHREAD_PROCESS_PRIVATE))
    }

    @inline(__always) func lock() {
        while pthread_spin_trylock(word) != 0 { sched_yield() }
    }

    @inline(__always) func unlock() { pthread_spin_unlock(word) }
    #endif
}
