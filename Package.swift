// swift-tools-version:6.0
import PackageDescription

// corelogic, the framework. It ships no features: an app's own package depends on it
// and builds its own library (docs/adopting.md; Examples/Cookbook is built that way).
//
// CoreLogic:        the engine, the JSON codec, the wire layer (AnySystem, journal),
//                   patches, schemas and traces: the Swift standard library, plus the C
//                   library's pthread mutex, POSIX file calls and clock, and memcmp.
//                   No package dependency.
// CoreLogicFFI:     the C ABI of include/corelogic.h, serving the catalog the app's
//                   library defines (`corelogic_app_catalog`); linked into the app's
//                   dynamic library.
// CoreLogicTesting: what app teams test with: the golden-file runner, JSONDirectCheck,
//                   TestStore.
//
// No unsafe flags anywhere: a package that depends on corelogic by version could not
// build it otherwise. The release flags (static Swift runtime, cross-module
// optimization, the export map) go on the app's build command (docs/adopting.md).
let package = Package(
    name: "corelogic",
    products: [
        .library(name: "CoreLogic", targets: ["CoreLogic"]),
        .library(name: "CoreLogicFFI", targets: ["CoreFFI"]),
        .library(name: "CoreLogicTesting", targets: ["CoreLogicTesting"]),
    ],
    targets: [
        // The script that writes Wire/AnySystem+Calls.swift from Wire/AnySystem.swift.
        .target(name: "CoreLogic", exclude: ["Wire/any_system_calls.py"]),
        // The declaration of the app's catalog symbol, weak (a header and a module map).
        .systemLibrary(name: "CoreFFIHook"),
        .target(name: "CoreFFI", dependencies: ["CoreLogic", "CoreFFIHook"]),
        .target(name: "CoreLogicTesting", dependencies: ["CoreLogic"]),
        .testTarget(name: "CoreLogicTests", dependencies: ["CoreLogic", "CoreLogicTesting"]),
    ],
    swiftLanguageModes: [.v5]
)
