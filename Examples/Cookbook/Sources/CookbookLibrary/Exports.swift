import CoreFFI
import Cookbook

/// The features libcookbook serves through the C ABI of corelogic.h: the one symbol an
/// app's library defines (docs/adopting.md).
@c(corelogic_app_catalog)
public func appCatalog() -> UnsafeRawPointer { Cookbook.catalog.reference }
