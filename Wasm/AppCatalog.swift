// The catalog the WebAssembly module serves: the app's own (`catalog`, compiled into the
// same module), exported as the C ABI expects it (docs/adopting.md, as
// Examples/Cookbook/Sources/CookbookLibrary/Exports.swift does for the native library).
@c(corelogic_app_catalog)
public func appCatalog() -> UnsafeRawPointer { catalog.reference }
