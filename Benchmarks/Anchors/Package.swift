// swift-tools-version:6.0
import PackageDescription

// The anchors of the benchmarks (`make bench`, `make bench-instructions`): the cookbook's
// Counter and Playcatch run by a plain loop over their reducers (the floor) and by a
// feedback loop written on OpenCombine (the Combine-style alternative), beside corelogic's
// System. A package of its own: the framework depends on nothing, and the other
// benchmarks need no OpenCombine.
let package = Package(
    name: "CoreLogicAnchors",
    dependencies: [
        .package(name: "corelogic", path: "../.."),
        .package(name: "Cookbook", path: "../../Examples/Cookbook"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // `AnchorBench PATH N` for callgrind, `AnchorBench time` for ns per event.
        .executableTarget(name: "AnchorBench", dependencies: [
            .product(name: "CoreLogic", package: "corelogic"),
            .product(name: "Cookbook", package: "Cookbook"),
            .product(name: "OpenCombine", package: "OpenCombine"),
        ], path: "AnchorBench"),
    ],
    swiftLanguageModes: [.v5]
)
