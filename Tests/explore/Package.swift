// swift-tools-version:6.0
import PackageDescription

// Features with bugs planted on purpose, served by a library of its own, so that the
// explorer's test (Tests/explore/test_planted_bug.py) shows real bugs found, shrunk and
// written as golden files that fail in every runner; `search`'s passes against the
// cookbook's library, where the feature is right. Built in debug: it is only run.
let package = Package(
    name: "PlantedBugs",
    products: [
        .library(name: "planted", type: .dynamic, targets: ["PlantedBugsLibrary"]),
        .executable(name: "PlantedBugsGoldenAdapter", targets: ["PlantedBugsGoldenAdapter"]),
    ],
    dependencies: [
        .package(name: "corelogic", path: "../.."),
        .package(name: "Cookbook", path: "../../Examples/Cookbook"),
    ],
    targets: [
        .target(name: "PlantedBugs", dependencies: [
            .product(name: "CoreLogic", package: "corelogic"), .product(name: "Cookbook", package: "Cookbook"),
        ]),
        .target(name: "PlantedBugsLibrary", dependencies: [
            "PlantedBugs", .product(name: "CoreLogicFFI", package: "corelogic"),
        ]),
        .executableTarget(name: "PlantedBugsGoldenAdapter", dependencies: [
            "PlantedBugs", .product(name: "CoreLogicTesting", package: "corelogic"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
