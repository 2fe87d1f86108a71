// The models the plugin generated into this target register themselves by name as the test
// program loads, so a container finds one by name with no model file.
import Foundation
@_spi(Generated) import ManagedObjects
import Testing

@Suite struct GeneratedModelsTests {
    @Test func containerFindsTheGeneratedModelByName() throws {
        let container = PersistentContainer(name: "Notes")
        #expect(container.managedObjectModel === NotesModel.managedObjectModel)
        container.persistentStoreDescriptions = [PersistentStoreDescription(type: .inMemory)]
        try container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        // Every model of the target is registered under its file's name.
        // SeedSnippetsTests, in the same test program, has a DogWalk model too: the module tells.
        #expect(try GeneratedModels.model(named: "DogWalk", inModule: "GeneratedSeedsTests") === DogWalkModel.managedObjectModel)
        #expect(try GeneratedModels.model(named: "Flights") === FlightsModel.managedObjectModel)
    }

    @Test func aNameWithNoGeneratedModelIsAnErrorWhenStoresLoad() {
        let container = PersistentContainer(name: "NoSuchModel")
        #expect(container.managedObjectModel.entities.isEmpty)
        var errors: [any Error] = []
        container.loadPersistentStores { _, error in if let error { errors.append(error) } }
        let error = errors.first as? ManagedObjectError
        #expect(error?.message.contains("no generated model named 'NoSuchModel'") == true)
        #expect(error?.message.contains("Notes") == true, "the message lists the generated models")
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
    }

    /// A Manual/None entity's class is found by name at run time, as Core Data finds it.
    @Test func manualEntityClassesAreFoundByName() {
        #expect(GeneratedModels.manualClass(named: "Reserved", fileID: #fileID) == Reserved.self)
        #expect(GeneratedModels.manualClass(named: ".Reserved", fileID: #fileID) == Reserved.self)
        #expect(GeneratedModels.manualClass(named: "GeneratedSeedsTests.Reserved", fileID: "Other/File.swift") == Reserved.self)
        #expect(GeneratedModels.manualClass(named: "NoSuchClass", fileID: #fileID) == ManagedObject.self)
    }
}
