/// Limits applied while parsing untrusted JSON. Exceeding one is a `.syntax` error.
public struct JSONLimits: Sendable {
    /// Maximum nesting of arrays and objects; a top-level scalar has depth 0,
    /// `[]` has depth 1.
    public var maxDepth: Int = 128
    /// Maximum input size in bytes.
    public var maxBytes: Int = 16 << 20

    /// Creates limits; the defaults are depth 128 and 16 MiB.
    public init(maxDepth: Int = 128, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// Depth 128, 16 MiB: every input a host sends (events, states).
    public static let `default` = JSONLimits()

    /// JSON the library wrote itself and reads back (a snapshot's state, a journaled
    /// event): no size cap, because a state may legitimately grow past 16 MiB through
    /// many small accepted inputs; nesting stays bounded (a state's depth is fixed by its
    /// type, an event's was checked when it was accepted), far above what is written.
    public static let stored = JSONLimits(maxDepth: 512, maxBytes: Int.max)
}
