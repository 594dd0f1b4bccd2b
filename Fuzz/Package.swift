// swift-tools-version:6.0
import PackageDescription

// `make fuzz`: libFuzzer with AddressSanitizer over the cookbook's features, built as a
// package of its own so that the framework's and the cookbook's packages carry no
// sanitizer flags. It defines corelogic_app_catalog itself (InputFuzzer/Catalog.swift),
// as an app's library does, to reach restore through the C exports.
let package = Package(
    name: "CoreLogicFuzz",
    dependencies: [
        .package(name: "corelogic", path: ".."),
        .package(name: "Cookbook", path: "../Examples/Cookbook"),
    ],
    targets: [
        .executableTarget(
            name: "InputFuzzer",
            dependencies: [
                .product(name: "Cookbook", package: "Cookbook"),
                .product(name: "CoreLogicFFI", package: "corelogic"),
                .product(name: "CoreLogicTesting", package: "corelogic"),
            ],
            path: "InputFuzzer",
            // libFuzzer provides main.
            swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]),
    ],
    swiftLanguageModes: [.v5]
)
