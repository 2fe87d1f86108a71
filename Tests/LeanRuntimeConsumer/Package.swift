// swift-tools-version:6.1
// An app on the runtime alone: ManagedObjects and nothing of the model reader. CI builds it with
// pkg-config unable to find libxml-2.0 (Scripts/check-lean-runtime.sh), which proves the runtime
// needs no libxml2.
import PackageDescription

let package = Package(
    name: "LeanRuntimeConsumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ManagedGen", path: "../..")],
    targets: [
        .executableTarget(
            name: "LeanRuntimeConsumer",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
    ]
)
