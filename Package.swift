// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ManagedGen",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DataModel", targets: ["DataModel"]),
        .library(name: "ManagedObjects", targets: ["ManagedObjects"]),
        .library(name: "ManagedGenCore", targets: ["ManagedGenCore"]),
        .executable(name: "managedgen", targets: ["managedgen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // libxml2, used directly by the reader because it reports line numbers.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // Model value types, the XML reader, validation, diagnostics and predicate syntax.
        .target(name: "DataModel", dependencies: ["CLibXML2"]),
        // The generator: Model -> Swift declarations -> deterministic text.
        .target(name: "ManagedGenCore", dependencies: ["DataModel"]),
        .executableTarget(
            name: "managedgen",
            dependencies: [
                "ManagedGenCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The runtime generated code compiles and runs against.
        .target(
            name: "ManagedObjects",
            dependencies: [
                "DataModel",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(name: "DataModelTests", dependencies: ["DataModel"], exclude: ["Fixtures"]),
        .testTarget(name: "ManagedObjectsTests", dependencies: ["ManagedObjects"]),
        .testTarget(
            name: "ManagedGenCoreTests",
            dependencies: ["ManagedGenCore"],
            exclude: ["Fixtures", "Expected"]
        ),
    ]
)
