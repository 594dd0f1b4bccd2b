import CoreLogic
import CoreFFIHook

extension AppFeatures {
    /// The catalog as the C ABI receives it from the app's `corelogic_app_catalog`
    /// (docs/adopting.md). The exports ask for it once and keep it for the life of the
    /// process.
    public var reference: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passRetained(CatalogBox(self)).toOpaque())
    }
}

final class CatalogBox {
    let catalog: AppFeatures
    init(_ catalog: AppFeatures) { self.catalog = catalog }
}

/// The features this library serves: the catalog its app defines, asked for once.
enum ServedFeatures {
    // Takes over the reference the app's function returned: the box stays reachable here.
    private static let current: CatalogBox? = corelogic_ffi_app_catalog().map {
        Unmanaged<CatalogBox>.fromOpaque($0).takeRetainedValue()
    }

    static var all: [FeatureDescriptor] {
        get throws(CoreLogicFailure) { try catalog().all }
    }

    /// - Throws: `.notFound` with the list of known names.
    static func named(_ name: String) throws(CoreLogicFailure) -> FeatureDescriptor {
        try catalog().named(name)
    }

    private static func catalog() throws(CoreLogicFailure) -> AppFeatures {
        guard let current else {
            throw CoreLogicError(.notFound, "this library defines no corelogic_app_catalog, so it serves no features; define it in the app's library target (docs/adopting.md)")
        }
        return current.catalog
    }
}
