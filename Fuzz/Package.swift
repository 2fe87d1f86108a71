// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets, in a package of their own so the main build never carries the fuzzer and
// sanitizer flags. `Scripts/fuzz.sh TARGET RUNS` builds one (with -sanitize=fuzzer,address),
// replays its kept fail cases, and runs it on seeds from ../shared.
let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "ManagedGen", path: "..")],
    targets: [
        // A model `contents` file: read, then validated.
        .executableTarget(
            name: "FuzzModelReader",
            dependencies: [.product(name: "DataModelReader", package: "ManagedGen")]
        ),
        // An `xcmapping.xml`: read, with its keyed-archived expressions, or refused naming the file.
        .executableTarget(
            name: "FuzzMappingModelReader",
            dependencies: [.product(name: "DataModelReader", package: "ManagedGen")]
        ),
        // A model `contents` file: read, and when it is valid, generated.
        .executableTarget(
            name: "FuzzGenerate",
            dependencies: [
                .product(name: "DataModelReader", package: "ManagedGen"),
                .product(name: "ManagedGenCore", package: "ManagedGen"),
            ]
        ),
        // A format string: parsed, printed, parsed again to the same tree.
        .executableTarget(
            name: "FuzzPredicateParser",
            dependencies: [.product(name: "DataModel", package: "ManagedGen")]
        ),
        // A format string and a dictionary to evaluate it on.
        .executableTarget(
            name: "FuzzPredicateEvaluation",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        // A format string fetched from an SQLite store (in SQL) and an in-memory store holding
        // the same objects: both give the same objects.
        .executableTarget(
            name: "FuzzSQLTranslation",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        // A Transformable cell's bytes: read by the default transformer (keyed archives), or
        // refused with a KeyedArchiveError; what reads archives again and reads back equal.
        .executableTarget(
            name: "FuzzKeyedArchiveReader",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")]
        ),
        // A store file's bytes: opened with each known model and read whole, or refused with
        // the file left as it was.
        .executableTarget(
            name: "FuzzStoreOpener",
            dependencies: [
                .product(name: "ManagedObjects", package: "ManagedGen"),
                .product(name: "ModelFileLoading", package: "ManagedGen"),
            ]
        ),
    ]
)
