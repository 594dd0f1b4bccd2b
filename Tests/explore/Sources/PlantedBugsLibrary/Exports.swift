import CoreFFI
import PlantedBugs

/// The features libplanted serves through the C ABI of corelogic.h.
@c(corelogic_app_catalog)
public func appCatalog() -> UnsafeRawPointer { PlantedBugs.catalog.reference }
