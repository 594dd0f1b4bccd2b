/// The features one library serves, by name: what `corelogic_features` lists and what
/// `corelogic_system_new` and `corelogic_system_restore` look names up in.
///
/// An app's library makes one catalog of its own features and hands it to the C ABI
/// (docs/adopting.md):
///
/// ```swift
/// public let catalog = FeatureCatalog(Todo.self, Settings.self)
/// ```
///
/// A feature's descriptor (its event names, feedbacks, queries and the typed factories
/// behind them) is built the first time the feature is asked for, so a library with
/// many features starts in the time its first system needs. The catalog is immutable
/// and safe to use from any thread.
public struct FeatureCatalog: @unchecked Sendable {
    private let entries: [Entry]

    /// A catalog of `features`, listed in this order. Names must be unique.
    @inlinable
    public init<each F: Feature>(_ features: repeat (each F).Type) {
        var entries: [Entry] = []
        for feature in repeat each features { entries.append(Entry(feature)) }
        self.init(entries: entries)
    }

    /// A catalog of these features (``feature(_:)``), listed in this order.
    public init(_ entries: [Entry]) {
        self.init(entries: entries)
    }

    @usableFromInline
    init(entries: [Entry]) {
        var seen = Set<String>()
        for entry in entries { precondition(seen.insert(entry.name).inserted, "two features are named '\(entry.name)'") }
        self.entries = entries
    }

    /// The features' names, in the catalog's order.
    public var names: [String] { entries.map(\.name) }

    /// Every feature's descriptor, in the catalog's order (builds those not built yet).
    public var all: [FeatureDescriptor] { entries.map(\.descriptor) }

    /// The feature named `name`.
    /// - Throws: ``CoreLogicError`` `.notFound` with the list of known names.
    public func named(_ name: String) throws -> FeatureDescriptor {
        if let entry = entries.first(where: { $0.name == name }) { return entry.descriptor }
        throw CoreLogicError(.notFound, "no feature named '\(name)'; features: \(names.joined(separator: ", "))")
    }

    /// One feature: its name at once, its descriptor on first use.
    ///
    /// `make` is a closure formed where the feature's type is known, so the descriptor's
    /// typed factories (``WireSystem``) are specialized for it in the app's module.
    public final class Entry: @unchecked Sendable {
        let name: String
        private let make: () -> FeatureDescriptor
        // Guarded by `lock`; built at most once.
        private var built: FeatureDescriptor?
        private let lock = RecursiveLock()

        /// One feature of a catalog.
        @inlinable
        public static func feature<F: Feature>(_ feature: F.Type) -> Entry { Entry(feature) }

        @inlinable
        convenience init<F: Feature>(_ feature: F.Type) {
            self.init(name: F.name, make: { FeatureDescriptor(F.self) })
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
