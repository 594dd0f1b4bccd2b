// swift-tools-version:6.0
import PackageDescription

// {{Name}}: business logic on corelogic. The features live in the {{Name}} module; the
// {{name}} library (lib{{name}}.so) serves them to every host through the C ABI of
// corelogic.h. Build it with `make` (the release flags are in the Makefile).
let package = Package(
    name: "{{Name}}",
    products: [
        // For Swift apps: the features, used in-process with CoreLogic's System.
        .library(name: "{{Name}}", targets: ["{{Name}}"]),
        // For C, Python, the JVM and Node.js: lib{{name}}.so.
        .library(name: "{{name}}", type: .dynamic, targets: ["{{Name}}Library"]),
    ],
    dependencies: [
        .package(url: "{{url}}", from: "{{version}}"),
    ],
    targets: [
        .target(name: "{{Name}}", dependencies: [.product(name: "CoreLogic", package: "corelogic")]),
        .target(name: "{{Name}}Library", dependencies: [
            "{{Name}}", .product(name: "CoreLogicFFI", package: "corelogic"),
        ]),
        .testTarget(name: "{{Name}}Tests", dependencies: [
            "{{Name}}", .product(name: "CoreLogicTesting", package: "corelogic"),
        ]),
    ]
)
