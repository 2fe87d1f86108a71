// swift-tools-version:6.1
// Apps on the runtime alone: ManagedObjects, and CoreData with the package's traits off (no
// `ModelFiles`), and nothing of the model reader. CI builds them with pkg-config unable to find
// libxml-2.0 (Scripts/check-lean-runtime.sh), which proves neither needs libxml2.
import PackageDescription

let package = Package(
    name: "LeanRuntimeConsumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ManagedGen", path: "../..", traits: [])],
    targets: [
        .executableTarget(
            name: "LeanRuntimeConsumer",
            dependencies: [
                .product(name: "ManagedObjects", package: "ManagedGen"), .product(name: "DataModel", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "LeanCoreDataConsumer",
            dependencies: [
                .product(name: "CoreData", package: "ManagedGen"), .product(name: "DataModel", package: "ManagedGen"),
            ]
        ),
    ]
)
