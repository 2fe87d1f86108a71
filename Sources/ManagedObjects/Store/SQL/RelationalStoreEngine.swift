import DataModel
import Foundation

/// Core Data's relational layout at work, for every SQL store: what a store does with its
/// tables that does not depend on how it reaches its database. Checking and creating the
/// schema, binding rows in the layout's order, reading and writing to-manys, naming a broken
/// uniqueness constraint as Core Data names it, the batch-delete walk through the delete rules.
/// The statements are written in the store's ``SQLDialect`` and run through its
/// ``SQLExecutor`` (or handed back as ``SQLStatement``s for a store that sends them its own
/// way); a store is an adapter holding its connection, its locking and its files.
package final class RelationalStoreEngine: Sendable {
    package let schema: CoreDataSchema
    package let dialect: SQLDialect
    /// Each entity's row layout, by entity.
    package let layoutsByEntity: [ObjectIdentifier: SQLRowLayout]
    /// Rows into stored objects, by entity number (`Z_ENT`).
    package let rowReader: SQLRowReader
    /// How persistent history names an update's properties and keeps a deletion's preserved values.
    package let historyColumns: PersistentHistoryColumns

    /// `columnsKeptBySQL`: columns the store's triggers keep (``SQLRowLayout``); `externalData`:
    /// where a store that keeps large Binary values in files keeps them.
    package init(
        model: ManagedObjectModel, schema: CoreDataSchema, dialect: SQLDialect, storeIdentifier: String,
        columnsKeptBySQL: Set<String> = [], externalData: ExternalBinaryData? = nil
    ) {
        self.schema = schema
        self.dialect = dialect
        let layouts = model.entities.compactMap { SQLRowLayout(entity: $0, schema: schema, columnsKeptBySQL: columnsKeptBySQL) }
        layoutsByEntity = Dictionary(layouts.map { (ObjectIdentifier($0.entity), $0) }, uniquingKeysWith: { first, _ in first })
        rowReader = SQLRowReader(
            layoutsByNumber: Dictionary(layouts.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first }),
            schema: schema, storeIdentifier: storeIdentifier, externalData: externalData)
        historyColumns = PersistentHistoryColumns(model: model, schema: schema)
    }

    package var storeIdentifier: String { rowReader.storeIdentifier }

    package func layout(of entity: EntityDescription) -> SQLRowLayout? {
        layoutsByEntity[ObjectIdentifier(entity)]
    }

    // MARK: Opening

    /// Checks that a store's tables are `model`'s, and returns its entity numbers by model entity
    /// name from `numbersByStoredName` (its `Z_PRIMARYKEY`'s names and numbers).
    /// `columns(table)`: the table's column names in upper case, `nil` when there is no such
    /// table. Throws `persistentStoreIncompatibleVersionHash` (134100) naming `store`.
    package static func checkTables(
        of model: ManagedObjectModel, numbersByStoredName: [String: Int64], store: String, columns: (String) throws -> Set<String>?
    ) throws -> [String: Int64] {
        let (numbers, missing) = CoreDataSchema.storedNumbers(numbersByStoredName, of: model)
        guard missing.isEmpty else {
            throw ManagedObjectError(
                .persistentStoreIncompatibleVersionHash,
                "the model is not the one \(store) was written with: the store has no entity \(missing.joined(separator: ", "))")
        }
        let schema = CoreDataSchema(model: model, existingNumbers: numbers)
        var problems: [String] = []
        for table in schema.tables {
            guard let present = try columns(table.name) else {
                problems.append("no table \(table.name)")
                continue
            }
            let absent = table.columns.map(\.name).filter { !present.contains($0) }
            if !absent.isEmpty { problems.append("\(table.name) lacks \(absent.joined(separator: ", "))") }
        }
        for join in schema.joinTables where try columns(join.name) == nil {
            problems.append("no join table \(join.name)")
        }
        guard problems.isEmpty else {
            throw ManagedObjectError(
                .persistentStoreIncompatibleVersionHash,
                "the model is not the one \(store) was written with: \(problems.joined(separator: "; "))")
        }
        return numbers
    }

    /// The statements that make a new store of `model` with `schema`: the tables and indexes,
    /// a `Z_PRIMARYKEY` row per entity (`Z_MAX` 0) and the `Z_METADATA` row holding `plist`.
    package static func creationStatements(
        schema: CoreDataSchema, model: ManagedObjectModel, dialect: SQLDialect, identifier: String, plist: Data
    ) -> [SQLStatement] {
        var statements = schema.creationStatements(dialect: dialect).map { SQLStatement($0) }
        for entity in CoreDataSchema.numberingOrder(of: model) {
            statements.append(SQLStatement(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                [.integer(orNull: schema.entityNumbers[entity.name]), .text(entity.name),
                 .integer(entity.superentity.flatMap { schema.entityNumbers[$0.name] } ?? 0)]))
        }
        statements.append(SQLStatement(
            "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)", [.text(identifier), .blob(plist)]))
        return statements
    }

    // MARK: Reading

    /// The query of one row of `entity`'s table by its key (the one parameter), in the columns
    /// the row reader reads (``CoreDataSchema/selectClause(_:dialect:)``).
    package func rowQuery(of entity: EntityDescription) -> String {
        let table = schema.table(of: entity)
        return "\(schema.selectClause(table, dialect: dialect)) FROM \(table.name) \(SQLPredicateTranslator.tableAlias) WHERE Z_PK = ?"
    }

    /// The query of the `Z_PK, Z_ENT` of the objects the to-many `relationship` of an object of
    /// `entity` holds (the owner's key the one parameter), in the relationship's order; `nil`
    /// for a relationship that is not a stored to-many.
    package func toManyQuery(of entity: EntityDescription, relationship: RelationshipDescription) -> String? {
        guard let destination = relationship.destinationEntity else { return nil }
        switch schema.storage[entity.name]?[relationship.index] {
        case .toManyByInverse(let table, let foreignKey, let orderColumn)?:
            return "SELECT Z_PK, \(schema.entityNumberColumn(ofTable: table)) FROM \(table) WHERE \(foreignKey) = ? ORDER BY \(orderColumn.map { "\($0), " } ?? "")Z_PK"
        case .toManyByJoin(let join, let side)?:
            let destinationTable = schema.table(of: destination).name
            return """
                SELECT d.Z_PK, \(schema.entityNumberColumn(ofTable: destinationTable, alias: "d")) FROM \(join.name) j JOIN \(destinationTable) d ON d.Z_PK = j.\(join.otherColumn(side)) \
                WHERE j.\(join.column(side)) = ? ORDER BY \(join.orderColumn(ownedBy: side).map { "j.\($0), " } ?? "")d.Z_PK
                """
        default:
            return nil
        }
    }

    /// The IDs of the objects the to-many `relationship` of `objectID` holds, in its order; none
    /// for an object of another store or a relationship that is not a stored to-many.
    package func relatedObjectIDs(
        of objectID: ManagedObjectID, relationship: RelationshipDescription, on executor: some SQLExecutor
    ) throws -> [ManagedObjectID] {
        guard objectID.storeIdentifier == storeIdentifier, let number = objectID.storeNumber,
              let sql = toManyQuery(of: objectID.entity, relationship: relationship) else { return [] }
        return try executor.rows(sql, [.integer(number)]).compactMap(objectID(ofRow:))
    }

    /// The ID of a row of `Z_PK, Z_ENT`; `nil` when either is NULL or the number names no entity
    /// (a damaged store: such rows are left out, never trapped on).
    package func objectID(key: Int64?, entityNumber: Int64?) -> ManagedObjectID? {
        guard let key, let entityNumber, let entity = schema.entitiesByNumber[entityNumber] else { return nil }
        return rowReader.permanentID(entity: entity, number: key)
    }

    package func objectID(ofRow cells: [SQLValue]) -> ManagedObjectID? {
        guard cells.count >= 2 else { return nil }
        return objectID(key: cells[0].int64Value, entityNumber: cells[1].int64Value)
    }

    // MARK: Writing rows

    /// A parameter of a row's INSERT or UPDATE, as ``forEachParameter(of:key:version:inserting:layout:_:)`` gives it.
    package enum RowParameter {
        /// A key, an entity number, a version or NULL, bound as it is.
        case value(SQLValue)
        /// The value (`nil`: none) of the attribute at `index` of the entity's properties, of
        /// storage `type`: the store encodes it (``CoreDataValues``, and its own columns' needs).
        case attribute(Any?, index: Int, type: AttributeType)
        /// One element of a composite attribute, encoded.
        case compositeElement(SQLValue, type: AttributeType)
    }

    /// Calls `bind` with each parameter of `layout`'s row statement for `object`, in order: for
    /// an insert (``SQLRowLayout/insertSQL``) `Z_PK` and `Z_ENT`, then `Z_OPT` (`version`) and
    /// the written columns, and for an update (``SQLRowLayout/updateSQL``) `Z_PK` last.
    package func forEachParameter(
        of object: StoredObject, key: Int64, version: Int, inserting: Bool, layout: SQLRowLayout, _ bind: (RowParameter) throws -> Void
    ) throws {
        if inserting {
            try bind(.value(.integer(key)))
            try bind(.value(.integer(layout.number)))
        }
        try bind(.value(.integer(Int64(version))))
        for column in layout.writtenColumns {
            switch column {
            case .attribute(let index, let type):
                guard case .attribute(let value) = object.values[index] else {
                    try bind(.attribute(nil, index: index, type: type))
                    continue
                }
                try bind(.attribute(value, index: index, type: type))
            case .toOneKey(let index):
                guard case .toOne(let related?) = object.values[index], let relatedKey = related.storeNumber else {
                    try bind(.value(.null))
                    continue
                }
                try bind(.value(.integer(relatedKey)))
            case .toOneEntity(let index):
                guard case .toOne(let related?) = object.values[index], let number = self.layout(of: related.entity)?.number else {
                    try bind(.value(.null))
                    continue
                }
                try bind(.value(.integer(number)))
            case .compositeElement(let index, let path, let type):
                try bind(.compositeElement(try layout.compositeElementCell(object: object, index: index, path: path, type: type), type: type))
            }
        }
        if !inserting { try bind(.value(.integer(key))) }
    }

    /// The statements that delete the join-table rows of the object with key `key` of `entity`,
    /// whose own row goes.
    package func joinRowDeletions(of entity: EntityDescription, key: Int64) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        for case .toManyByJoin(let join, let side) in schema.storage[entity.name] ?? [] {
            statements.append(SQLStatement("DELETE FROM \(join.name) WHERE \(join.column(side)) = ?", [.integer(key)]))
        }
        return statements
    }

    /// The statements that write the loaded to-manys of saved objects: order columns and owners'
    /// keys of to-manys kept in the destination's rows, and join-table rows. A join table's rows
    /// of an object are all removed before any are written, so the two sides of a many-to-many
    /// agree whichever comes first.
    package func toManyWrites(of lists: [[StoredObject]]) -> [SQLStatement] {
        var statements: [SQLStatement] = []
        var joinRows: [(join: CoreDataSchema.JoinTable, side: CoreDataSchema.JoinTable.Side, owner: Int64, members: [ManagedObjectID])] = []
        // By the entity's layout, not its name: most entities have nothing to write here. A
        // save's objects come grouped by entity, so the last layout is kept at hand. By
        // position: an object's values are read only when its entity writes to-manys.
        var last: (entity: ObjectIdentifier, layout: SQLRowLayout?)?
        for objects in lists {
            for position in objects.indices {
                let objectID = objects[position].objectID
                let entity = ObjectIdentifier(objectID.entity)
                if last?.entity != entity { last = (entity, layoutsByEntity[entity]) }
                guard let layout = last?.layout, layout.writesToManys, let owner = objectID.storeNumber else { continue }
                for (index, stored) in layout.storage.enumerated() {
                    guard case .toMany(let members) = objects[position].values[index] else { continue }
                    switch stored {
                    case .toManyByInverse:
                        for write in schema.foreignKeyWrites(entity: layout.entity, index: index, owner: owner, members: members) {
                            statements.append(SQLStatement(write.sql, write.arguments.map(SQLValue.integer(orNull:))))
                        }
                    case .toManyByJoin(let join, let side):
                        statements.append(SQLStatement("DELETE FROM \(join.name) WHERE \(join.column(side)) = ?", [.integer(owner)]))
                        joinRows.append((join, side, owner, members))
                    default:
                        continue
                    }
                }
            }
        }
        for (join, side, owner, members) in joinRows {
            let orderColumn = join.orderColumn(ownedBy: side)
            let columns = [join.column(side), join.otherColumn(side)] + (orderColumn.map { [$0] } ?? [])
            let update = orderColumn.map { "DO UPDATE SET \($0) = excluded.\($0)" } ?? "DO NOTHING"
            let sql = """
                INSERT INTO \(join.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", "))) \
                ON CONFLICT (\(join.firstColumn), \(join.secondColumn)) \(update)
                """
            for (position, member) in members.enumerated() {
                var arguments: [SQLValue] = [.integer(owner), .integer(orNull: member.storeNumber)]
                if orderColumn != nil { arguments.append(.integer(Int64(position + 1))) }
                statements.append(SQLStatement(sql, arguments))
            }
        }
        return statements
    }

    // MARK: Uniqueness constraints

    /// The unique index named `name` (in any case: PostgreSQL folds unquoted names to lower
    /// case) and the entity whose constraint it is.
    package func uniqueIndex(named name: String) -> (index: (name: String, table: String, columns: [String]), entity: EntityDescription)? {
        let lowercased = name.lowercased()
        guard let index = schema.uniqueIndexes.first(where: { $0.name.lowercased() == lowercased }),
              let entity = schema.entitiesByNumber.values.first(where: { index.name.hasPrefix("Z_\($0.name)_UNIQUE_") }) else { return nil }
        return (index, entity)
    }

    /// A unique index violation as Core Data reports it (133021), naming the constrained keys of
    /// `entity` that `columns` (the index's, when known) hold.
    package func constraintConflict(
        entity: EntityDescription, columns: [String]?, objectID: ManagedObjectID?, detail: String = ""
    ) -> ManagedObjectError {
        let storage = schema.storage[entity.name] ?? []
        let names = (columns ?? []).compactMap { column in
            storage.indices.first { if case .attribute(column, _) = storage[$0] { true } else { false } }
                .map { entity.properties[$0].name }
        }
        return ManagedObjectError(
            .constraintConflict,
            "\(detail)\(entity.name).(\(names.joined(separator: ", "))) must be unique; another stored object has the same values",
            entityName: entity.name, objectID: objectID, key: names.joined(separator: ","))
    }

    // MARK: Persistent history

    /// The values of the preserved attributes (``PersistentHistoryColumns``) of the stored
    /// objects `objectIDs`, as their columns hold them, for the tombstones of their deletion.
    package func historyTombstones(
        of objectIDs: some Sequence<ManagedObjectID>, rows: PersistentHistoryRows, on executor: some SQLExecutor
    ) throws -> [ManagedObjectID: [SQLValue]] {
        var tombstones: [ManagedObjectID: [SQLValue]] = [:]
        for objectID in objectIDs {
            guard let sql = rows.tombstoneQuery(of: objectID.entity, dialect: dialect), let key = objectID.storeNumber else { continue }
            if let row = try executor.rows(sql, [.integer(key)]).first { tombstones[objectID] = row }
        }
        return tombstones
    }
}
