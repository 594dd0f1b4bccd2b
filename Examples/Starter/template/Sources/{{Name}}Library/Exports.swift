import CoreFFI
import {{Name}}

/// The one symbol an app's library defines for corelogic's C ABI: the features it serves.
@c(corelogic_app_catalog)
public func appCatalog() -> UnsafeRawPointer { catalog.reference }
