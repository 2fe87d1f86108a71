// `StoreSaveLoop migrate <store path>`: the child process SQLiteMigrationCrashTests kills while
// it migrates a store of `MigrationModels.v1` to `v2`. Prints `open` just before the migration
// starts and `migrated` once the store is open with v2.
import DataModel
import Foundation
import ManagedObjects

/// Mirrors `MigrationCrashModels` in the tests: v2 renames `item` to `position` and adds `tag`.
enum MigrationModels {
    static let v1 = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "batch", type: .integer64, isOptional: true),
            Attribute(name: "item", type: .integer64, isOptional: true),
        ]),
    ]))
    static let v2 = ManagedObjectModel(Model(entities: [
        Entity(name: "Entry", attributes: [
            Attribute(name: "batch", type: .integer64, isOptional: true),
            Attribute(name: "position", type: .integer64, isOptional: true, renamingIdentifier: "item"),
            Attribute(name: "tag", type: .string, defaultValueString: "migrated"),
        ]),
    ]))
}

func runMigration(storePath: String) throws {
    let container = PersistentContainer(name: "Migration", managedObjectModel: MigrationModels.v2)
    var description = PersistentStoreDescription(url: URL(fileURLWithPath: storePath))
    description.modelVersions = ManagedObjectModelVersions(versions: [
        .init(name: "v1", model: MigrationModels.v1), .init(name: "v2", model: MigrationModels.v2),
    ])
    container.persistentStoreDescriptions = [description]
    FileHandle.standardOutput.write(Data("open\n".utf8))
    try container.loadPersistentStores()
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
}
