import DataModel
import Foundation

/// One entity's rows as the store reads and writes them, worked out once when the store opens
/// from ``CoreDataSchema``, so that a fetch or a save looks nothing up by name per row: where
/// each property's value is in a row of `SELECT Z_PK, Z_ENT, Z_OPT, <table columns>`, and the
/// INSERT and UPDATE of every column the entity writes.
package final class SQLRowLayout: @unchecked Sendable {
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

    /// What reading a property's cells straight into a typed value needs (``cellReads``).
    package enum CellRead {
        case attribute(position: Int, type: AttributeType)
        /// A to-one whose destination has no sub-entities: the entity of the key is the
        /// destination, whose entity number is `destinationNumber`.
        case toOne(position: Int, destinationNumber: Int64)
        /// Read through ``readProperties`` (``SQLRowReader/storedValue(at:of:objectID:column:entityNumber:keepingUndecodableTransformables:)``).
        case other
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
    package let table: CoreDataSchema.Table
    package let storage: [CoreDataSchema.Storage]
    /// By property index.
    package let readProperties: [ReadProperty]
    /// ``readProperties`` as a snapshot's reads take them, by property index: with no reference
    /// in an entry, reading one per field copies plain values (an entry of `readProperties`
    /// with a to-one's destination in it costs an outlined copy and a retain each time).
    package let cellReads: [CellRead]
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
    package init?(entity: EntityDescription, schema: CoreDataSchema, columnsKeptBySQL: Set<String> = []) {
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
        cellReads = readProperties.map { property in
            switch property {
            case .attribute(let position, let type):
                return .attribute(position: position, type: type)
            case .toOne(let position, nil, let destination, nil):
                return schema.entityNumbers[destination.name].map { .toOne(position: position, destinationNumber: $0) } ?? .other
            default:
                return .other
            }
        }
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
    package func compositeElementCell(object: StoredObject, index: Int, path: [String], type: AttributeType) throws -> SQLValue {
        guard case .attribute(let value?) = object.values[index] else { return .null }
        let name = ([entity.properties[index].name] + path).joined(separator: ".")
        guard let element = try CompositeValues.element(at: path, of: value, attribute: name) else { return .null }
        return try CoreDataValues.cell(of: element, type: type, attribute: name)
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
