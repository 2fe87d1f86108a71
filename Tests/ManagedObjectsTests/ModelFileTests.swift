import DataModel
import ModelFileLoading
import Foundation
import Testing
@testable import ManagedObjects

@Suite("ManagedObjectModel(contentsOf:)")
struct ModelFileTests {
    /// `../shared/corpus` relative to the package root (this file is Tests/ManagedObjectsTests/…).
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ManagedObjectsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    static let dogWalk = corpus.appendingPathComponent(
        "raywenderlich__cdt-materials/03-the-core-data-stack/projects/final/DogWalk/DogWalk/DogWalk.xcdatamodeld")

    @Test("the book's DogWalk model file runs with the generated-shape classes")
    func dogWalkFromFile() throws {
        let model = try ManagedObjectModel(contentsOf: Self.dogWalk, classes: ["Dog": Dog.self, "Walk": Walk.self])
        #expect(model.entities.map(\.name) == ["Dog", "Walk"])
        // Same property indexes as the generated accessors use.
        #expect(model["Dog"]?.properties.map(\.name) == ["name", "walks"])
        #expect(model["Walk"]?.properties.map(\.name) == ["date", "dog"])
        #expect(model["Dog"]?.relationship(named: "walks")?.isOrdered == true)
        try withContext(model) { (context) throws in
            let dog = Dog(context: context)
            dog.name = "Fido"
            let walk = Walk(context: context)
            dog.insertIntoWalks(walk, at: 0)
            #expect(walk.dog === dog)
            try context.save()
            #expect(try context.fetch(Dog.fetchRequest()).first?.walks.count == 1)
        }
    }

    @Test("a missing model file throws diagnostics naming the path")
    func missingFile() throws {
        let url = URL(fileURLWithPath: "/nonexistent/Missing.xcdatamodeld")
        let error = try #require(throws: DiagnosticError.self) { try ManagedObjectModel(contentsOf: url) }
        #expect(error.description.contains("/nonexistent/Missing.xcdatamodeld"))
        #expect(error.diagnostics.hasErrors)
    }
}
