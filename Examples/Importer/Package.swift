// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Importer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ManagedGen", path: "../.."),
    ],
    targets: [
        // The model sits in the target; ManagedGenPlugin generates its classes at build time.
        .executableTarget(
            name: "Importer",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
    ]
)
