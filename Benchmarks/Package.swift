// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so the main package's build and tests stay lean.
// Run with: swift run -c release ReadBenchmark
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ManagedGen", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "ReadBenchmark",
            dependencies: [.product(name: "DataModel", package: "ManagedGen")]
        ),
    ]
)
