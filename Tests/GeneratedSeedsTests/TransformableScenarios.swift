// The generated `Bookcase` (Models/Transformables.xcdatamodel): Transformable attributes typed
// by their `customClassName` as Xcode types them, and a `Codable` struct of the app's stored
// with no code beyond the type itself (the model's user info says `managedgen.codable`).
import Foundation
import ManagedObjects
import Testing

/// The app's own type that `Bookcase.dimensions` names (public, as the generated property is;
/// Xcode's generated code asks the same).
public struct BookcaseDimensions: Codable, Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var shelves: Int
}

@Suite struct TransformableScenarios {
    enum Kind: String, CaseIterable, Sendable { case inMemory, sqlite }

    func container(_ kind: Kind, at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Transformables", managedObjectModel: TransformablesModel.managedObjectModel)
        container.persistentStoreDescriptions = [kind == .sqlite ? PersistentStoreDescription(url: url) : PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()
        return container
    }

    @Test(arguments: Kind.allCases)
    func typedTransformablesRoundTrip(_ kind: Kind) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transformables-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Transformables.sqlite")
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let writer = try container(kind, at: url).newBackgroundContext()
        try writer.performAndWait {
            let bookcase = Bookcase(context: writer)
            bookcase.name = "hall"
            bookcase.titles = ["Emma", "Persuasion"]
            bookcase.details = ["rooms": 2, "wood": "ash", "bought": when]
            bookcase.dimensions = BookcaseDimensions(width: 90, height: 200.5, shelves: 6)
            try writer.save()
        }
        let reader = kind == .sqlite ? try container(kind, at: url).newBackgroundContext()
            : ManagedObjectContext(concurrencyType: .privateQueue, persistentStoreCoordinator: writer.persistentStoreCoordinator)
        try reader.performAndWait {
            let bookcase = try #require(try reader.fetch(Bookcase.fetchRequest()).first)
            let titles: [String]? = bookcase.titles
            let details: [String: Any]? = bookcase.details
            let dimensions: BookcaseDimensions? = bookcase.dimensions
            #expect(titles == ["Emma", "Persuasion"])
            #expect(details?["rooms"] as? Int == 2 && details?["wood"] as? String == "ash" && details?["bought"] as? Date == when)
            #expect(details?.count == 3)
            #expect(dimensions == BookcaseDimensions(width: 90, height: 200.5, shelves: 6))
        }
    }
}
