// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so the main package's build and tests stay lean.
// Run with: swift run -c release ReadBenchmark (or GenerateBenchmark, PredicateBenchmark,
// RuntimeBenchmark)
let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ManagedGen", path: ".."),
        // RuntimeBenchmark and BatchBenchmark use it: the raw-SQLite side they measure the runtime against.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // PostgreSQLBenchmark's raw side.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "PostgreSQLBenchmark",
            dependencies: [
                .product(name: "ManagedObjects", package: "ManagedGen"),
                .product(name: "PostgreSQLStore", package: "ManagedGen"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ReadBenchmark",
            dependencies: [.product(name: "DataModelReader", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "GenerateBenchmark",
            dependencies: [
                .product(name: "DataModelReader", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "VersionsBenchmark",
            dependencies: [
                .product(name: "DataModelReader", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "GeneratedCodeBenchmark",
            dependencies: [
                .product(name: "DataModelReader", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        .executableTarget(
            name: "PredicateBenchmark",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "RuntimeBenchmark",
            dependencies: [
                .product(name: "ManagedObjects", package: "ManagedGen"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "BatchMemoryBenchmark",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "MigrationBenchmark",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "ContextBenchmark",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "BatchBenchmark",
            dependencies: [
                .product(name: "ManagedObjects", package: "ManagedGen"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
    ]
)
