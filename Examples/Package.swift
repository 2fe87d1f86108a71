// swift-tools-version:6.1
import PackageDescription

// Every example in one package, set up as an app's package uses ManagedGen: the runtime
// product and the build plugin, here by path. One package graph, so GRDB, the runtime and the
// generator are built once for all of them. Run one from this folder: `swift run DogWalk`
// (or Flights, HistorySync, Importer, Tweets, TicketDesk; JSONStore on Linux).
let package = Package(
    name: "Examples",
    platforms: [.macOS(.v14)],  // #Predicate (Tweets)
    dependencies: [
        .package(name: "ManagedGen", path: ".."),
    ],
    targets: [
        // Each model sits in its target; ManagedGenPlugin generates its classes at build time.
        .executableTarget(
            name: "DogWalk",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "Flights",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            resources: [.copy("flights.json")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "HistorySync",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "Importer",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
        .executableTarget(
            name: "Tweets",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
        // Enum attributes, snapshots (its managedgen.json turns them on) and typed object IDs,
        // served as JSON.
        .executableTarget(
            name: "TicketDesk",
            dependencies: [.product(name: "ManagedObjects", package: "ManagedGen")],
            plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
        ),
    ]
)

#if !canImport(Darwin)
// A custom store (an NSIncrementalStore subclass over a JSON file) in Core Data code: on the
// `CoreData` product, which ManagedGen builds where Apple's framework does not exist.
package.targets.append(
    .executableTarget(
        name: "JSONStore",
        dependencies: [.product(name: "CoreData", package: "ManagedGen")],
        plugins: [.plugin(name: "ManagedGenPlugin", package: "ManagedGen")]
    )
)
#endif
