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

    /// Depth 128, 16 MiB.
    public static let `default` = JSONLimits()
}
