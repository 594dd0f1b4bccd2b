// swift-tools-version:6.0
import PackageDescription
import Foundation

// CoreLogic: the engine, the JSON codec, the wire layer (AnySystem, journal) and the
//            features: the Swift standard library, plus the C library's pthread mutex
//            (Engine/Internal/RecursiveLock.swift) and POSIX file calls (Wire/Journal/).
// CoreFFI:   the C ABI over CoreLogic, built as libcorelogic.so: exports only.
let package = Package(
    name: "corelogic",
    products: [
        .library(name: "CoreLogic", targets: ["CoreLogic"]),
        .library(name: "corelogic", type: .dynamic, targets: ["CoreFFI"]),
    ],
    targets: [
        // Cross-module optimization: the engine's generic code (System<F>, its trackers)
        // is made available to client modules, so an app that links CoreLogic gets
        // System<MyFeature> specialized for its feature instead of generic code that
        // looks up type metadata on every step (docs/performance.md).
        .target(name: "CoreLogic", swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        .target(name: "CoreFFI", dependencies: ["CoreLogic"]),
        .testTarget(name: "CoreLogicTests", dependencies: ["CoreLogic"]),
        // Codec benchmark: the only code that imports Foundation, as the reference to beat.
        .executableTarget(name: "CodecBench", dependencies: ["CoreLogic"], path: "Benchmarks/CodecBench"),
        // `make bench-instructions`: the in-process API under callgrind.
        .executableTarget(name: "InstructionBench", dependencies: ["CoreLogic"], path: "Benchmarks/InstructionBench"),
    ],
    swiftLanguageModes: [.v5]
)

// `make fuzz` adds the libFuzzer target; ordinary builds never see it (it has no main of
// its own: libFuzzer provides one).
if ProcessInfo.processInfo.environment["CORELOGIC_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "InputFuzzer", dependencies: ["CoreLogic", "CoreFFI"], path: "Fuzz/InputFuzzer",
        swiftSettings: [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])],
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]))
}
