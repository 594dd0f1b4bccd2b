/// The features one library serves, by name: what `corelogic_features` lists and what
/// `corelogic_system_new` and `corelogic_system_restore` look names up in.
///
/// An app's features module makes one, and its library hands it to the C ABI
/// (docs/adopting.md):
///
/// ```swift
/// public let catalog = AppFeatures([
///     .feature(Todo.self),
///     .feature(Settings.self),
/// ])
/// ```
///
/// A feature's descriptor (its event names, feedbacks, queries and the typed factories
/// behind them) is built the first time the feature is asked for, so a library with
/// many features starts in the time its first system needs. The value is immutable and
/// safe to use from any thread.
public struct AppFeatures: @unchecked Sendable {
    private let entries: [Entry]

    /// These features, listed in this order. Two features with one name are a
    /// programming error (a trap when the list is made, as for duplicate dictionary keys).
    public init(_ entries: [Entry]) {
        var seen = Set<String>()
        for entry in entries { precondition(seen.insert(entry.name).inserted, "two features are named '\(entry.name)'") }
        self.entries = entries
    }

    /// The features' names, in order.
    public var names: [String] { entries.map { $0.name } }

    /// Every feature's descriptor, in order (builds those not built yet).
    public var all: [FeatureDescriptor] { entries.map { $0.descriptor } }

    /// The feature named `name`.
    /// - Throws: ``CoreLogicError`` `.notFound` with the list of known names.
    public func named(_ name: String) throws(CoreLogicFailure) -> FeatureDescriptor {
        if let entry = entries.first(where: { $0.name == name }) { return entry.descriptor }
        throw CoreLogicError(.notFound, "no feature named '\(name)'; features: \(names.joined(separator: ", "))")
    }

    /// One feature: its name at once, its descriptor on first use.
    public final class Entry: @unchecked Sendable {
        let name: String
        private let make: () -> FeatureDescriptor
        // Guarded by `lock`; built at most once.
        private var built: FeatureDescriptor?
        private let lock = RecursiveLock()

        /// One feature of an ``AppFeatures`` list.
        ///
        /// @inlinable so that it runs in the app's module with the feature's concrete
        /// type: the descriptor's factories are then specialized for the feature, not
        /// generic code that looks up type metadata on every step (docs/adopting.md).
        @inlinable
        public static func feature<F: Feature>(_ feature: F.Type) -> Entry {
            Entry(name: F.name, make: { FeatureDescriptor(F.self) })
        }

        @usableFromInline
        init(name: String, make: @escaping () -> FeatureDescriptor) {
            self.name = name
            self.make = make
        }

        var descriptor: FeatureDescriptor {
            lock.withLock {
                if let built { return built }
                let made = make()
                built = made
                return made
            }
        }
    }
}
