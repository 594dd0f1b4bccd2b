import CoreFFI
import Cookbook

/// The features the C exports serve in the fuzzer (restore of fuzzed journals).
@c(corelogic_app_catalog)
public func appCatalog() -> UnsafeRawPointer { Cookbook.catalog.reference }
