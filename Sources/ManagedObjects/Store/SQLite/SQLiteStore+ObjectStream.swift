import DataModel
import Foundation
import GRDB

extension SQLiteStore {
    /// Hands `body` every object of `entity` (with its sub-entities' when `includesSubentities`)
    /// in key order, one at a time through one cursor in one read transaction: memory stays
    /// bounded however many objects there are (`managedgen export`). `body` also gets the IDs of
    /// an object's to-many relationships, read in the same transaction, when it asks. A
    /// Transformable value no transformer here can read is an ``UndecodedTransformable``.
    package func forEachObject(
        of entity: EntityDescription, includesSubentities: Bool = true,
        _ body: (_ object: StoredObject, _ relatedObjectIDs: (RelationshipDescription) throws -> [ManagedObjectID]) throws -> Void
    ) throws {
        let table = schema.table(of: entity)
        let numbers = (includesSubentities ? entity.selfAndDescendants : [entity]).compactMap { schema.entityNumbers[$0.name] }
        guard !numbers.isEmpty else { return }
        let alias = SQLPredicateTranslator.tableAlias
        let sql = """
            \(selectClause(table)) FROM \(table.name) \(alias) \
            WHERE \(alias).Z_ENT IN (\(numbers.map(String.init).joined(separator: ", "))) ORDER BY \(alias).Z_PK
            """
        try read { db in
            let statement = try db.makeStatement(sql: sql)
            let rows = try Row.fetchCursor(statement)
            try withExtendedLifetime(rows) {
                while try rows.next() != nil {
                    guard let object = try storedObject(statement, db: db, keepingUndecodableTransformables: true) else { continue }
                    try body(object) { relationship in
                        try relatedObjectIDs(of: object.objectID, relationship: relationship, db: db)
                    }
                }
            }
        }
    }
}
