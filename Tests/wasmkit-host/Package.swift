// swift-tools-version:5.9
import PackageDescription

// `make test-wasmkit`: the WebAssembly module (docs/web.md) under WasmKit, the Swift
// WebAssembly runtime, driven by the golden driver through WasmKitGoldenAdapter. A package
// of its own: the framework depends on nothing, and this may. (Its folder is not named
// `wasmkit`: SwiftPM names a root package after its folder, and that is WasmKit's name.)
let package = Package(
    name: "WasmKitGoldenAdapter",
    dependencies: [
        .package(url: "https://github.com/swiftwasm/WasmKit", exact: "0.4.2"),
    ],
    targets: [
        .executableTarget(
            name: "WasmKitGoldenAdapter",
            dependencies: [.product(name: "WasmKit", package: "WasmKit")]
        ),
    ]
)
