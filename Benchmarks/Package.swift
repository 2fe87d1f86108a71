// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so the main package's build and tests stay lean.
// Run with: swift run -c release ReadBenchmark (or GenerateBenchmark, PredicateBenchmark)
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
        .executableTarget(
            name: "GenerateBenchmark",
            dependencies: [
                .product(name: "DataModel", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "GeneratedCodeBenchmark",
            dependencies: [
                .product(name: "DataModel", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "PredicateBenchmark",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
    ]
)
