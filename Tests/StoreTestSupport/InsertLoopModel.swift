import DataModel
import ManagedObjects

/// The model of the PostgreSQL store's multi-process runs: `PostgreSQLInsertLoop` (the child
/// process), the tests that read what those processes wrote, and the load benchmark. `Item`s
/// upserted by `code`; one `Tally` row per `name` the processes add to.
public enum InsertLoopModel {
    public static let model = ManagedObjectModel(Model(entities: [
        Entity(
            name: "Item",
            attributes: [
                Attribute(name: "code", type: .string, isOptional: true),
                Attribute(name: "writer", type: .integer64, isOptional: true),
            ],
            uniquenessConstraints: [["code"]]),
        Entity(
            name: "Tally",
            attributes: [
                Attribute(name: "name", type: .string, isOptional: true),
                Attribute(name: "hits", type: .integer64, isOptional: true),
            ],
            uniquenessConstraints: [["name"]]),
    ]))
}
