// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Tweets",
    platforms: [.macOS(.v14)],  // #Predicate
    dependencies: [
        .package(name: "ManagedGen", path: "../.."),
    ],
    targets: [
        // The model sits in the target; ManagedGenPlugin generates its classes at build time.
        .executableTarget(
            name: "Tweets",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
    ]
)
