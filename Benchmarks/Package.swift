// swift-tools-version:6.0
import PackageDescription

// The benchmarks that run in-process Swift (`make bench`, `make bench-instructions`),
// on the cookbook's features, in a package of their own: the framework depends on
// nothing, and these may.
let package = Package(
    name: "CoreLogicBenchmarks",
    dependencies: [
        .package(name: "corelogic", path: ".."),
        .package(name: "Cookbook", path: "../Examples/Cookbook"),
    ],
    targets: [
        // The codec against Foundation's JSONEncoder/JSONDecoder, the reference to beat.
        .executableTarget(name: "CodecBench", dependencies: [
            .product(name: "CoreLogic", package: "corelogic"), .product(name: "Cookbook", package: "Cookbook"),
        ], path: "CodecBench"),
        // `make bench-instructions`: the in-process API under callgrind.
        .executableTarget(name: "InstructionBench", dependencies: [
            .product(name: "CoreLogic", package: "corelogic"), .product(name: "Cookbook", package: "Cookbook"),
        ], path: "InstructionBench"),
    ],
    swiftLanguageModes: [.v5]
)
