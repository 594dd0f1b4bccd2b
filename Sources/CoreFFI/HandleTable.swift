#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreLogic

/// A system owned by a host handle, with the host's handler pointers.
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

    // Unchecked exclusivity: read and written only while `mutex` is held.
    @exclusivity(unchecked) private var slots: [Slot] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    private init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    func insert(_ box: SystemBox) -> UInt64 {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
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
    func lookup(_ handle: UInt64) throws -> SystemBox {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard let index = slotIndex(handle), let box = slots[index].box else {
            throw CoreLogicError(.handle, "handle \(handle) is not a live system (0, freed, or never created)")
        }
        return box
    }

    func remove(_ handle: UInt64) throws -> SystemBox {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
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
