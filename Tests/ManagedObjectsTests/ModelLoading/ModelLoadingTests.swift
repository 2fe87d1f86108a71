import DataModel
import ModelFileLoading
import Foundation
import Testing
@testable import ManagedObjects

/// `ManagedObjectModel(contentsOf:)` on the repository's own seed fixtures: a model read at run
/// time, used without generated classes, and a broken model's diagnostics.
@Suite("ManagedObjectModel(contentsOf:) with plain ManagedObject")
struct ModelLoadingTests {
    /// `Tests/DataModelTests/Fixtures/Seeds` (this file is Tests/ManagedObjectsTests/ModelLoading/…).
    static let seeds = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // ModelLoading
        .deletingLastPathComponent()  // ManagedObjectsTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("DataModelTests/Fixtures/Seeds")

    @Test("the DogWalk seed runs through KVC on plain ManagedObject when no class is registered", arguments: StoreKind.allCases)
    func dogWalkWithoutClasses(kind: StoreKind) throws {
        let model = try ManagedObjectModel(contentsOf: Self.seeds.appendingPathComponent("DogWalk.xcdatamodeld"))
        let dogEntity = try #require(model["Dog"])
        let walkEntity = try #require(model["Walk"])
        #expect(dogEntity.managedObjectClass == ManagedObject.self)
        #expect(dogEntity.relationship(named: "walks")?.isOrdered == true)
        #expect(walkEntity.relationship(named: "dog")?.inverseRelationship === dogEntity.relationship(named: "walks"))

        try withContext(model, kind: kind) { (context) throws in
            let dog = ManagedObject(entity: dogEntity, insertInto: context)
            dog.setValue("Fido", forKey: "name")
            let dates = [Date(timeIntervalSince1970: 200), Date(timeIntervalSince1970: 100)]
            for date in dates {
                let walk = ManagedObject(entity: walkEntity, insertInto: context)
                walk.setValue(date, forKey: "date")
                walk.setValue(dog, forKey: "dog")
            }
            try context.save()

            let request = FetchRequest<ManagedObject>(entityName: "Dog", predicate: ObjectPredicate("name == %@", "Fido"))
            let fetched = try #require(try context.fetch(request).first)
            #expect(fetched === dog)
            // The ordered to-many keeps the order the inverse set it in.
            #expect(fetched.value(forKeyPath: "walks.date") as? [Date] == dates)
            #expect(fetched.value(forKeyPath: "walks.@count") as? Int == 2)
            let walks = try context.fetch(FetchRequest<ManagedObject>(
                entityName: "Walk", sortDescriptors: [ObjectSortDescriptor(key: "date")]))
            #expect(walks.map { $0.value(forKey: "date") as? Date } == dates.reversed())
            #expect(walks.allSatisfy { $0.value(forKey: "dog") as? ManagedObject === dog })
        }
    }

    @Test("the seed's non-optional Walk.date is enforced on save", arguments: StoreKind.allCases)
    func mandatoryAttributeFromFile(kind: StoreKind) throws {
        let model = try ManagedObjectModel(contentsOf: Self.seeds.appendingPathComponent("DogWalk.xcdatamodeld"))
        try withContext(model, kind: kind) { (context) throws in
            _ = ManagedObject(entity: try #require(model["Walk"]), insertInto: context)
            let error = try #require(throws: ManagedObjectError.self) { try context.save() }
            #expect(error.code == .missingMandatoryProperty)
            #expect(error.key == "date")
        }
    }

    @Test("a broken model throws diagnostics with its file and line")
    func brokenModel() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelLoadingTests-\(UUID().uuidString)/Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let contents = folder.appendingPathComponent("contents")
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Dog" representedClassName="Dog" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="Strin"/>
                </entity>
            </model>
            """.utf8).write(to: contents)

        let error = try #require(throws: DiagnosticError.self) { try ManagedObjectModel(contentsOf: folder) }
        let problem = try #require(error.diagnostics.first { $0.severity == .error })
        #expect(problem.location?.line == 4)
        #expect(problem.description.hasPrefix("\(contents.path):4:"))
        #expect(problem.description.contains("unknown attributeType 'Strin'"))
    }
}
