import CoreLogic

/// A FIFO of unique elements that encodes as a plain JSON array. Elements are told
/// apart by their JSON (``JSONIdentity``): two URLs that differ only in Unicode
/// normalization are two elements.
///
/// Membership is O(1), removing near the front (where running work sits) is
/// O(position), so a feature's per-event cost does not grow with the queue's length.
public struct OrderedQueue<Element: Hashable & Codable>: Equatable, Codable, Sequence {
    private var storage: [Element] = []
    private var head = 0
    private var members: Set<JSONIdentityKey<Element>> = []

    public init(_ elements: [Element] = []) {
        for element in elements { append(element) }
    }

    public var count: Int { storage.count - head }
    public var isEmpty: Bool { count == 0 }
    public var elements: ArraySlice<Element> { storage[head...] }

    public func contains(_ element: Element) -> Bool { members.contains(JSONIdentityKey(element)) }

    public func prefix(_ length: Int) -> ArraySlice<Element> { elements.prefix(Swift.max(length, 0)) }
    public func dropFirst(_ length: Int) -> ArraySlice<Element> { elements.dropFirst(Swift.max(length, 0)) }

    /// Appends `element` unless it is already queued; returns whether it was appended.
    @discardableResult
    public mutating func append(_ element: Element) -> Bool {
        guard members.insert(JSONIdentityKey(element)).inserted else { return false }
        storage.append(element)
        return true
    }

    /// Removes `element` if queued; returns whether it was.
    @discardableResult
    public mutating func remove(_ element: Element) -> Bool {
        guard members.remove(JSONIdentityKey(element)) != nil else { return false }
        guard let index = storage[head...].firstIndex(where: { JSONIdentity.same($0, element) }) else { return false }
        // Shift the elements before it one place right and advance the head: cheap
        // when the element is near the front, as running downloads are.
        var position = index
        while position > head {
            storage[position] = storage[position - 1]
            position -= 1
        }
        head += 1
        if head > 32 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return true
    }

    public func makeIterator() -> ArraySlice<Element>.Iterator { elements.makeIterator() }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements.elementsEqual(rhs.elements, by: JSONIdentity.same) }

    #if hasFeature(Embedded)
    // The WebAssembly build's `Codable` is direct JSON (docs/web.md): the same plain array.
    public func writeJSON(to out: inout JSONOutput) throws(JSONFailure) {
        try Array(elements).writeJSON(to: &out)
    }

    public static func readJSON(from input: inout JSONInput) throws(JSONFailure) -> Self {
        Self(try [Element].readJSON(from: &input))
    }
    #else
    public init(from decoder: Decoder) throws {
        self.init(try [Element](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try Array(elements).encode(to: encoder)
    }
    #endif
}

#if hasFeature(Embedded)
extension OrderedQueue: JSONDirectCodable {}
#endif

extension OrderedQueue: Sendable where Element: Sendable {}
