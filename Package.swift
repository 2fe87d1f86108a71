// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "ManagedGen",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DataModel", targets: ["DataModel"]),
        .library(name: "DataModelReader", targets: ["DataModelReader"]),
        .library(name: "ManagedObjects", targets: ["ManagedObjects"]),
        .library(name: "ModelFileLoading", targets: ["ModelFileLoading"]),
        .library(name: "ManagedGenCore", targets: ["ManagedGenCore"]),
        // Its own product: only its users build postgres-nio (and SwiftNIO under it).
        .library(name: "PostgreSQLStore", targets: ["PostgreSQLStore"]),
        .executable(name: "managedgen", targets: ["managedgen"]),
        .plugin(name: "ManagedGenPlugin", targets: ["ManagedGenPlugin"]),
        .plugin(name: "ManagedGenCommandPlugin", targets: ["ManagedGenCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The PostgreSQL store's client; SwiftPM builds it only for the PostgreSQLStore product.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: builds the DocC catalogs (CI runs it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libxml2, used directly by the reader because it reports line numbers.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // Model value types, diagnostics and predicate syntax: what the runtime and generated code
        // need. No C dependency, so an app on the runtime alone needs no libxml2.
        .target(name: "DataModel"),
        // The model-file reader (libxml2), validation and the JSON dump: for the generator, the
        // command-line tool and the opt-in run-time loader.
        .target(name: "DataModelReader", dependencies: ["DataModel", "CLibXML2"]),
        // The generator: Model -> Swift declarations -> deterministic text.
        .target(name: "ManagedGenCore", dependencies: ["DataModelReader"]),
        // The command line is three targets so that the plugins stay light: the model commands
        // (generate, validate, dump) in a library; `ManagedGenPluginTool`, the executable the
        // plugins build and run for every plugin user, has those alone (no runtime, no GRDB);
        // `managedgen`, the product people run, adds the store tools (`StoreTools`: inspect,
        // diff, migrate, export), which need the runtime.
        .target(
            name: "ManagedGenCommands",
            dependencies: ["ManagedGenCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "ManagedGenPluginTool",
            dependencies: ["ManagedGenCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "managedgen",
            dependencies: [
                "ManagedGenCommands", "StoreTools", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The runtime generated code compiles and runs against.
        .target(
            name: "ManagedObjects",
            dependencies: [
                "DataModel",
                .product(name: "OrderedCollections", package: "swift-collections"),
                // The SQLite store: a DatabasePool in WAL mode, Core Data's own file format.
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API under GRDB: a batch insert binds its rows straight to a GRDB statement.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SQL debug logging (`SQLDebugLog`).
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Opt-in: reading model files at run time (`ManagedObjectModel(contentsOf:)`), for apps
        // that ship `.xcdatamodeld` files instead of generated models. Brings in libxml2.
        .target(name: "ModelFileLoading", dependencies: ["ManagedObjects", "DataModelReader"]),
        // The store commands of `managedgen`, on the runtime: it reads stores (GRDB directly for
        // what no store API says: row counts by table, `PRAGMA integrity_check`).
        .target(
            name: "StoreTools",
            dependencies: [
                "ManagedObjects", "ModelFileLoading", "DataModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // A store in a PostgreSQL database, for several server processes sharing one database.
        .target(
            name: "PostgreSQLStore",
            dependencies: [
                "ManagedObjects",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Not a product: the child process the crash-safety test kills while it saves.
        .executableTarget(name: "StoreSaveLoop", dependencies: ["ManagedObjects", "ModelFileLoading", "DataModel"]),
        // Not a product: the child process the hostile-store tests open spoiled stores in.
        .executableTarget(name: "StoreReadProbe", dependencies: ["ManagedObjects", "ModelFileLoading"]),
        // Not a product: one of the processes the PostgreSQL store's multi-process tests and load benchmark run.
        .executableTarget(name: "PostgreSQLInsertLoop", dependencies: [
            "ManagedObjects", "PostgreSQLStore", "StoreTestSupport", .product(name: "Logging", package: "swift-log"),
        ]),
        // Build tool: generates a target's model classes at build time.
        .plugin(name: "ManagedGenPlugin", capability: .buildTool(), dependencies: ["ManagedGenPluginTool"]),
        // `swift package generate-managed-objects`: writes them into the package instead.
        .plugin(
            name: "ManagedGenCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "generate-managed-objects",
                    description: "Generate Swift managed-object classes from the Core Data models in a target."
                ),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "To write the generated managed-object sources into the target's folder."
                    )
                ]
            ),
            dependencies: ["ManagedGenPluginTool"]
        ),
        .testTarget(name: "DataModelTests", dependencies: ["DataModelReader"], exclude: ["Fixtures"]),
        // Not a product: test data every store's tests share (the predicate conformance table).
        .target(
            name: "StoreTestSupport", dependencies: ["ManagedObjects", "DataModel"], path: "Tests/StoreTestSupport"
        ),
        .testTarget(
            name: "ManagedObjectsTests",
            // GRDB: tests read store files with SQL of their own, as an outside reader would.
            // PostgreSQLStore: with a server (MANAGEDGEN_POSTGRES_URL) the store scenarios run on it too.
            dependencies: [
                "ManagedObjects", "ModelFileLoading", "StoreTestSupport", "PostgreSQLStore", "DataModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Run against a server: `Scripts/postgres.sh start` prints the URL for MANAGEDGEN_POSTGRES_URL.
        .testTarget(name: "PostgreSQLStoreTests", dependencies: ["PostgreSQLStore", "StoreTestSupport", "DataModel"]),
        // A consumer of the build plugin: the seeds' models in Models/ are generated at build
        // time, and the tests run the seeds' scenarios on the generated classes.
        .testTarget(
            name: "GeneratedSeedsTests",
            // Logging: the tests read what the runtime logs (`ManagedObjectsLog`).
            dependencies: [
                "ManagedObjects", "ModelFileLoading", "DataModel", .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["ManagedGenPlugin"]
        ),
        // Benchmarks (Benchmarks/README.md): executables of this package, not products, so every
        // build compiles them against today's API and apps never build them. Run in release:
        // `swift run -c release RuntimeBenchmark`.
        benchmark("ReadBenchmark", ["DataModelReader"]),
        benchmark("GenerateBenchmark", ["DataModelReader", "ManagedGenCore"]),
        benchmark("VersionsBenchmark", ["DataModelReader", "ManagedGenCore"]),
        benchmark("GeneratedCodeBenchmark", ["DataModelReader", "ManagedGenCore"]),
        benchmark("PredicateBenchmark", ["ManagedObjects"]),
        benchmark("BatchMemoryBenchmark", ["ManagedObjects", "DataModel"]),
        benchmark("MigrationBenchmark", ["ManagedObjects", "DataModel"]),
        benchmark("ContextBenchmark", ["ManagedObjects", "DataModel"]),
        benchmark("HistoryBenchmark", ["ManagedObjects", "DataModel"]),
        benchmark("TransformableBenchmark", ["ManagedObjects", "DataModel"]),
        // `managedgen export` of a million objects, through the store commands' library.
        benchmark("ExportBenchmark", ["StoreTools", "ManagedObjects", "ModelFileLoading"]),
        // The raw-SQLite side they measure the runtime against: GRDB, and SQLite's C API.
        benchmark("RuntimeBenchmark", ["ManagedObjects", "DataModel", .product(name: "GRDB", package: "GRDB.swift")]),
        // fetchSnapshots against raw SQLite: its Tweet classes come from the build plugin (and
        // its managedgen.json, which turns snapshots on).
        .executableTarget(
            name: "SnapshotBenchmark",
            dependencies: ["ManagedObjects", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/Sources/SnapshotBenchmark", plugins: ["ManagedGenPlugin"]),
        benchmark("BatchBenchmark", [
            "ManagedObjects", "DataModel", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        benchmark("PostgreSQLLoadBenchmark", ["ManagedObjects", "PostgreSQLStore", "StoreTestSupport"]),
        benchmark("PostgreSQLBenchmark", [
            "ManagedObjects", "PostgreSQLStore", "DataModel",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The store commands on the real stores of `../shared/stores` (raw SQL through GRDB to check them).
        .testTarget(
            name: "StoreToolsTests",
            dependencies: [
                "StoreTools", "ManagedObjects", "ModelFileLoading", "DataModel",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ManagedGenCoreTests",
            dependencies: ["ManagedGenCore"],
            exclude: ["Fixtures", "Expected", "ExpectedAPI"]
        ),
    ]
)

// `import CoreData` on Linux: Core Data's names over ManagedObjects, so Core Data code compiles
// unchanged. Declared only where Apple's Core Data does not exist (the manifest is compiled for
// the host, so `canImport(Darwin)` tells Apple platforms, where a module named CoreData would
// clash with Apple's framework and the real one is used instead).
#if !canImport(Darwin)
package.traits = [
    .trait(name: "ModelFiles", description: "NSPersistentContainer(name:) reads .xcdatamodeld files at run time (needs libxml2)"),
    .trait(
        name: "Networking",
        description: "import CoreData also gives URLSession and the rest of FoundationNetworking, as Foundation does on Apple platforms (links libcurl)"
    ),
    .default(enabledTraits: ["ModelFiles", "Networking"]),
]
package.products.append(.library(name: "CoreData", targets: ["CoreData"]))
package.targets += [
    // `NSPersistentContainer(name:)` reads the model file at run time, as Core Data reads its
    // compiled model: with the `ModelFiles` trait (on by default) CoreData uses the model-file
    // loader, and so libxml2. Without it CoreData is as lean as ManagedObjects, and containers
    // take the generated model: `NSPersistentContainer(name:managedObjectModel:)`.
    .target(
        name: "CoreData",
        dependencies: [
            "ManagedObjects", "DataModel",
            .target(name: "ModelFileLoading", condition: .when(traits: ["ModelFiles"])),
        ]
    ),
    // Model-layer code written as for Apple's Core Data, compiled unchanged and run. The model
    // files are resources, found by name as `NSPersistentContainer(name:)` finds them.
    .testTarget(
        name: "CoreDataPortingTests",
        dependencies: ["CoreData", "DataModel"],
        resources: [
            .copy("Models/Twitter.xcdatamodeld"), .copy("Models/Enroute.xcdatamodeld"),
            // Two versions: a store of the first migrates as NSPersistentContainer(name:) adds it.
            .copy("Models/Journal.xcdatamodeld"),
        ]
    ),
    // The seeds' Core Data code (Tests/SeedSnippetsTests), compiled unchanged but for what
    // Linux cannot have, with the build plugin's classes in place of Xcode's.
    .testTarget(name: "SeedSnippetsTests", dependencies: ["CoreData"], plugins: ["ManagedGenPlugin"]),
    // Core Data code over a model the build plugin generates with two versions: stores of the
    // older one migrate with no model file, as Core Data migrates through the `.momd`.
    // (GRDB: a second connection holding the store's write lock, for the timeout option.)
    .testTarget(
        name: "CoreDataGeneratedModelTests", dependencies: ["CoreData", .product(name: "GRDB", package: "GRDB.swift")],
        plugins: ["ManagedGenPlugin"]),
]
#endif

/// A benchmark: an executable in `Benchmarks/Sources/<name>`.
func benchmark(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: "Benchmarks/Sources/\(name)")
}

// `Scripts/sanitize.sh` (Thread Sanitizer, in CI) runs the runtime's tests only, so it builds
// only what they need: with MANAGEDGEN_RUNTIME_TESTS_ONLY set, the package is cut down to the
// runtime and its tests, without the generator, the PostgreSQL store and SwiftNIO under it
// (the PostgreSQL scenarios of ManagedObjectsTests compile only where PostgreSQLStore exists).
if Context.environment["MANAGEDGEN_RUNTIME_TESTS_ONLY"] != nil {
    let runtimeTests: Set = [
        "CLibXML2", "DataModel", "DataModelReader", "ManagedObjects", "ModelFileLoading",
        "StoreTestSupport", "StoreSaveLoop", "StoreReadProbe", "ManagedObjectsTests",
    ]
    package.targets.removeAll { !runtimeTests.contains($0.name) }
    package.products.removeAll { !runtimeTests.contains($0.name) }
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        return location.hasSuffix("/postgres-nio") || location.hasSuffix("/swift-argument-parser")
    }
    for target in package.targets where target.name == "ManagedObjectsTests" {
        target.dependencies.removeAll {
            if case .byNameItem(name: "PostgreSQLStore", _) = $0 { return true }
            return false
        }
    }
}
