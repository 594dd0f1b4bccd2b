// swift-tools-version:6.0
import PackageDescription

// The sample features, built the way an app team builds its own (docs/adopting.md):
// a features module on CoreLogic, a dynamic library that serves them through the C ABI,
// and tests on CoreLogicTesting. Inside the repository it depends on the checkout by
// path; an app depends on corelogic by version.
let package = Package(
    name: "Cookbook",
    products: [
        // For Swift apps: the features, used in-process with CoreLogic's System.
        .library(name: "Cookbook", targets: ["Cookbook"]),
        // For every other host: libcookbook.so, exporting exactly the functions of corelogic.h.
        .library(name: "cookbook", type: .dynamic, targets: ["CookbookLibrary"]),
    ],
    dependencies: [
        .package(name: "corelogic", path: "../.."),
    ],
    targets: [
        .target(name: "Cookbook", dependencies: [.product(name: "CoreLogic", package: "corelogic")]),
        .target(name: "CookbookLibrary", dependencies: [
            "Cookbook", .product(name: "CoreLogicFFI", package: "corelogic"),
        ]),
        // The golden driver's Swift adapter (docs/golden-files.md): the files through AnySystem.
        .executableTarget(name: "CookbookGoldenAdapter", dependencies: [
            "Cookbook", .product(name: "CoreLogicTesting", package: "corelogic"),
        ]),
        .testTarget(name: "CookbookTests", dependencies: [
            "Cookbook", .product(name: "CoreLogicTesting", package: "corelogic"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
