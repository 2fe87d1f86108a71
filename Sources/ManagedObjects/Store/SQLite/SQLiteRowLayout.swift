import DataModel
import Foundation
import GRDB

/// One entity's rows as the store reads and writes them, worked out once when the store opens
/// from ``SQLiteSchema``, so that a fetch or a save looks nothing up by name per row: where
/// each property's value is in a row of `SELECT Z_PK, Z_ENT, Z_OPT, <table columns>`, and the
/// INSERT and UPDATE of every column the entity writes.
package final class SQLiteRowLayout: @unchecked Sendable {
    // Unchecked: immutable after init; the entity descriptions it references are immutable.

    /// Where a property's stored value comes from in a selected row.
    package enum ReadProperty {
        case attribute(position: Int, type: AttributeType)
        /// A Binary attribute that allows external storage: its cell has Core Data's marker
        /// (``ExternalBinaryData``) in a store that keeps one, the bytes alone otherwise.
        case externalBinary(position: Int)
        /// A foreign key; `entityPosition` is the destination-entity column's, when there is
        /// one. `destinationTable` is set when the destination has sub-entities: when the row
        /// does not say which, the key's row there tells.
        case toOne(position: Int, entityPosition: Int?, destination: EntityDescription, destinationTable: String?)
        /// A composite attribute's element columns, read into the dictionary Core Data gives
        /// (``CompositeValues``).
        case composite([(path: [String], position: Int, type: AttributeType)])
        /// Read on use (``StoredValue/toManyFault``).
        case toManyFault
        /// Not stored: always this value.
        case constant(StoredValue)
    }

    /// Where an argument of the INSERT or UPDATE comes from in a ``StoredObject``.
    package enum WrittenColumn {
        case attribute(index: Int, type: AttributeType)
        case toOneKey(index: Int)
        case toOneEntity(index: Int)
        /// One element of the composite attribute at `index`.
        case compositeElement(index: Int, path: [String], type: AttributeType)
    }

    package let entity: EntityDescription
    package let number: Int64
    package let table: SQLiteSchema.Table
    package let storage: [SQLiteSchema.Storage]
    /// By property index.
    package let readProperties: [ReadProperty]
    /// In the order of the statements' parameters (after `Z_PK, Z_ENT, Z_OPT` in the insert,
    /// after `Z_OPT` in the update, whose last parameter is `Z_PK`).
    package let writtenColumns: [WrittenColumn]
    /// The INSERT of one new row: `Z_PK`, `Z_ENT`, `Z_OPT`, then `writtenColumns`.
    package let insertSQL: String
    /// How many rows one of SQLite's multi-row inserts takes (`sqliteInsertSQL(rows:)`): as
    /// many as keep its parameters within 999, SQLite's smallest limit, up to 100.
    package let rowsPerInsert: Int
    package let updateSQL: String
    /// `updateSQL` that changes the row only while it is at the version read (`Z_OPT`, one
    /// parameter more), as Core Data's updates do: optimistic locking in the statement itself.
    package let versionCheckedUpdateSQL: String
    private let sqliteInsertPrefix: String
    private let insertRow: String
    /// The insert of `rowsPerInsert` rows, the one most of a large save's rows go in by.
    private let fullSQLiteInsertSQL: String
    /// Whether a save writes more than the row for a loaded to-many: order keys of an ordered
    /// one kept by the inverse's foreign key, the owner's key of one without inverse, or
    /// join-table rows.
    package let writesToManys: Bool
    /// The Binary attributes that allow external storage (``ExternalBinaryData``): property
    /// index and column.
    package let externalBinaryColumns: [(index: Int, column: String)]

    /// `columnsKeptBySQL` (`TABLE.COLUMN`, upper case) are read but never written: triggers in
    /// the store keep them (``DerivedAttributeTriggers``), and a write would go over their value.
    package init?(entity: EntityDescription, schema: SQLiteSchema, columnsKeptBySQL: Set<String> = []) {
        guard let number = schema.entityNumbers[entity.name], let storage = schema.storage[entity.name] else { return nil }
        let table = schema.table(of: entity)
        // Positions in `SELECT Z_PK, Z_ENT, Z_OPT, <table.columns>`.
        var positions: [String: Int] = [:]
        for (offset, column) in table.columns.enumerated() { positions[column.name] = offset + 3 }
        var readProperties: [ReadProperty] = []
        var writtenColumns: [WrittenColumn] = []
        var columnNames: [String] = []
        var externalBinaryColumns: [(index: Int, column: String)] = []
        for property in entity.properties {
            switch (storage[property.index], property.kind) {
            case (.attribute(let column, .binary), .attribute(let attribute)) where attribute.attribute.allowsExternalBinaryDataStorage:
                guard let position = positions[column] else { return nil }
                readProperties.append(.externalBinary(position: position))
                writtenColumns.append(.attribute(index: property.index, type: .binary))
                columnNames.append(column)
                externalBinaryColumns.append((property.index, column))
            case (.attribute(let column, let type), _) where columnsKeptBySQL.contains("\(table.name).\(column)".uppercased()):
                guard let position = positions[column] else { return nil }
                readProperties.append(.attribute(position: position, type: type))
            case (.attribute(let column, let type), _):
                guard let position = positions[column] else { return nil }
                readProperties.append(.attribute(position: position, type: type))
                writtenColumns.append(.attribute(index: property.index, type: type))
                columnNames.append(column)
            case (.composite(let columns), _):
                var elements: [(path: [String], position: Int, type: AttributeType)] = []
                for element in columns {
                    guard let position = positions[element.column] else { return nil }
                    elements.append((element.path, position, element.type))
                    writtenColumns.append(.compositeElement(index: property.index, path: element.path, type: element.type))
                    columnNames.append(element.column)
                }
                readProperties.append(.composite(elements))
            case (.toOne, .relationship(let relationship)) where relationship.destinationEntity == nil:
                // Xcode only warns about a relationship without destination; it can hold nothing.
                readProperties.append(.constant(property.emptyStoredValue))
            case (.toOne(let column, let entityColumn), .relationship(let relationship)):
                guard let position = positions[column], let destination = relationship.destinationEntity else { return nil }
                let entityPosition = entityColumn.flatMap { positions[$0] }
                readProperties.append(.toOne(
                    position: position, entityPosition: entityPosition, destination: destination,
                    destinationTable: destination.subentities.isEmpty ? nil : schema.table(of: destination).name))
                writtenColumns.append(.toOneKey(index: property.index))
                columnNames.append(column)
                if let entityColumn {
                    writtenColumns.append(.toOneEntity(index: property.index))
                    columnNames.append(entityColumn)
                }
            case (.toManyByInverse, _), (.toManyByJoin, _):
                readProperties.append(.toManyFault)
            case (.toOne, .attribute), (.toOne, .fetchedProperty), (.none, _):
                readProperties.append(.constant(property.emptyStoredValue))
            }
        }
        self.entity = entity
        self.number = number
        self.table = table
        self.storage = storage
        self.readProperties = readProperties
        self.writtenColumns = writtenColumns
        self.externalBinaryColumns = externalBinaryColumns
        writesToManys = storage.indices.contains { index in
            switch storage[index] {
            case .toManyByInverse: schema.writesForeignKeys(entity: entity, index: index)
            case .toManyByJoin: true
            default: false
            }
        }
        let insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + columnNames
        let columnList = "\(table.name) (\(insertColumns.joined(separator: ", "))) VALUES "
        insertRow = "(\(Array(repeating: "?", count: insertColumns.count).joined(separator: ", ")))"
        insertSQL = "INSERT INTO " + columnList + insertRow
        sqliteInsertPrefix = "INSERT OR FAIL INTO " + columnList
        rowsPerInsert = max(1, min(100, 999 / insertColumns.count))
        fullSQLiteInsertSQL = sqliteInsertPrefix + Array(repeating: insertRow, count: rowsPerInsert).joined(separator: ", ")
        updateSQL = "UPDATE \(table.name) SET \((["Z_OPT"] + columnNames).map { "\($0) = ?" }.joined(separator: ", ")) WHERE Z_PK = ?"
        versionCheckedUpdateSQL = updateSQL + " AND Z_OPT = ?"
    }

    /// The cell of one element of the composite attribute at `index` of `object`, for both SQL
    /// stores' writes.
    package func compositeElementCell(object: StoredObject, index: Int, path: [String], type: AttributeType) throws -> DatabaseValue {
        guard case .attribute(let value?) = object.values[index] else { return .null }
        let name = ([entity.properties[index].name] + path).joined(separator: ".")
        guard let element = try CompositeValues.element(at: path, of: value, attribute: name) else { return .null }
        return try SQLiteValues.databaseValue(of: element, type: type, attribute: name)
    }

    /// SQLite's insert of `rows` new rows (each as in `insertSQL`), at most `rowsPerInsert`.
    /// `OR FAIL`: a row that breaks a uniqueness constraint stops the statement and leaves the
    /// rows before it, so SQLite keeps no statement journal to take them back (which made a
    /// multi-row insert slower than one row at a time); the save's transaction is rolled back
    /// anyway.
    package func sqliteInsertSQL(rows: Int) -> String {
        rows == rowsPerInsert
            ? fullSQLiteInsertSQL
            : sqliteInsertPrefix + Array(repeating: insertRow, count: rows).joined(separator: ", ")
    }
}

/// Reading rows of ``SQLiteSchema/selectClause(_:dialect:)`` into stored objects: the one
/// reading both SQL stores use, each giving its own way to a row's cells. A class: a store
/// calls it for every row, and calling a struct kept in a class's property copies it each time.
package final class SQLRowReader: Sendable {
    package let layoutsByNumber: [Int64: SQLiteRowLayout]
    package let schema: SQLiteSchema
    package let storeIdentifier: String
    /// Where the store keeps external binary data: `nil` for a store that keeps the bytes in the
    /// cell (PostgreSQL's `bytea`).
    package let externalData: ExternalBinaryData?

    package init(
        layoutsByNumber: [Int64: SQLiteRowLayout], schema: SQLiteSchema, storeIdentifier: String,
        externalData: ExternalBinaryData? = nil
    ) {
        self.layoutsByNumber = layoutsByNumber
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.externalData = externalData
    }

    package func permanentID(entity: EntityDescription, number: Int64) -> ManagedObjectID {
        ManagedObjectID.permanent(entity: entity, storeIdentifier: storeIdentifier, number: number)
    }

    /// The row whose cells `column` gives, as a stored object; `nil` for an entity number the
    /// model does not know or a row without a key. `entityNumber(table, key)` reads `Z_ENT` of
    /// the row `key` of `table`, for a to-one whose row does not say which sub-entity it names.
    /// Throws for a Transformable cell its transformer cannot read, naming attribute and object;
    /// with `keepingUndecodableTransformables`, such a cell reads as an
    /// ``UndecodedTransformable`` instead (an export hands the bytes on).
    package func storedObject(
        column: (Int) -> DatabaseValue, entityNumber: (_ table: String, _ key: Int64) throws -> Int64?,
        keepingUndecodableTransformables: Bool = false
    ) throws -> StoredObject? {
        guard let (layout, objectID) = identity(column: column) else { return nil }
        var values: [StoredValue] = []
        values.reserveCapacity(layout.readProperties.count)
        for index in layout.readProperties.indices {
            values.append(try storedValue(
                at: index, of: layout, objectID: objectID, column: column, entityNumber: entityNumber,
                keepingUndecodableTransformables: keepingUndecodableTransformables))
        }
        return StoredObject(objectID: objectID, version: Int(Int64.fromDatabaseValue(column(2)) ?? 0), values: values)
    }

    /// The layout and ID of the row whose cells `column` gives; `nil` for an entity number the
    /// model does not know or a row without a key.
    package func identity(column: (Int) -> DatabaseValue) -> (layout: SQLiteRowLayout, objectID: ManagedObjectID)? {
        guard let number = Int64.fromDatabaseValue(column(1)), let layout = layoutsByNumber[number],
              let key = Int64.fromDatabaseValue(column(0)) else { return nil }
        return (layout, permanentID(entity: layout.entity, number: key))
    }

    /// The stored value of the property at `index` in the row of `layout` whose cells `column`
    /// gives (``storedObject(column:entityNumber:keepingUndecodableTransformables:)``, one property).
    package func storedValue(
        at index: Int, of layout: SQLiteRowLayout, objectID: ManagedObjectID, column: (Int) -> DatabaseValue,
        entityNumber: (_ table: String, _ key: Int64) throws -> Int64?, keepingUndecodableTransformables: Bool = false
    ) throws -> StoredValue {
        func integer(_ position: Int) -> Int64? { Int64.fromDatabaseValue(column(position)) }
        switch layout.readProperties[index] {
        case .attribute(let position, .transformable):
            do {
                return .attribute(try transformableValue(column(position), property: layout.entity.properties[index], objectID: objectID))
            } catch let error as ManagedObjectError where keepingUndecodableTransformables {
                guard case .blob(let data) = column(position).storage else { throw error }
                return .attribute(UndecodedTransformable(data: data, reason: error.message))
            }
        case .attribute(let position, let type):
            return .attribute(SQLiteValues.attributeValue(column(position), type: type, resolveObjectID: objectID(forURI:)))
        case .externalBinary(let position):
            return .attribute(try externalBinaryValue(column(position), property: layout.entity.properties[index], objectID: objectID))
        case .toOne(let position, let entityPosition, let destination, let destinationTable):
            guard let relatedKey = integer(position) else { return .toOne(nil) }
            var destinationEntity = entityPosition.flatMap { integer($0).flatMap { layoutsByNumber[$0]?.entity } }
            if destinationEntity == nil, let destinationTable, let found = try entityNumber(destinationTable, relatedKey) {
                destinationEntity = layoutsByNumber[found]?.entity
            }
            return .toOne(permanentID(entity: destinationEntity ?? destination, number: relatedKey))
        case .composite(let elements):
            return .attribute(CompositeValues.dictionary(elements.map { element in
                (element.path, SQLiteValues.attributeValue(column(element.position), type: element.type, resolveObjectID: objectID(forURI:)))
            }))
        case .toManyFault:
            return .toManyFault
        case .constant(let value):
            return value
        }
    }

    /// A Transformable cell (the BLOB its transformer wrote) as the value it transforms back to.
    private func transformableValue(_ cell: DatabaseValue, property: PropertyDescription, objectID: ManagedObjectID) throws -> Any? {
        guard case .attribute(let attribute) = property.kind else { return nil }
        // A cell of another kind reads as nil, as a cell that does not read as its attribute's
        // type does for every other type (`SQLiteValues.attributeValue`).
        guard case .blob(let data) = cell.storage else { return nil }
        return try TransformableValues.value(of: data, attribute: attribute, objectID: objectID)
    }

    /// A Binary cell of an attribute that allows external storage: through Core Data's marker
    /// where the store keeps one (``ExternalBinaryData/value(ofCell:attribute:objectID:)``).
    private func externalBinaryValue(_ cell: DatabaseValue, property: PropertyDescription, objectID: ManagedObjectID) throws -> Any? {
        guard let externalData else {
            return SQLiteValues.attributeValue(cell, type: .binary, resolveObjectID: { _ in nil })
        }
        // As any other cell that does not read as its attribute's type: nil.
        guard case .blob(let data) = cell.storage else { return nil }
        return try externalData.value(ofCell: data, attribute: property.name, objectID: objectID)
    }

    /// An object ID attribute's URI, when it names an object of this store.
    package func objectID(forURI uri: URL) -> ManagedObjectID? {
        let parts = uri.path.split(separator: "/")
        guard uri.scheme == "x-coredata", uri.host?.caseInsensitiveCompare(storeIdentifier) == .orderedSame, parts.count == 2,
              let entity = schema.entitiesByNumber.values.first(where: { $0.name == parts[0] }),
              parts[1].first == "p", let number = Int64(parts[1].dropFirst()) else { return nil }
        return permanentID(entity: entity, number: number)
    }
}
