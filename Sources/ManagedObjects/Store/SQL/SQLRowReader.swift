import DataModel
import Foundation

/// Reading rows of ``CoreDataSchema/selectClause(_:dialect:)`` into stored objects: the one
/// reading both SQL stores use, each giving its own way to a row's cells. A class: a store
/// calls it for every row, and calling a struct kept in a class's property copies it each time.
package final class SQLRowReader: Sendable {
    package let layoutsByNumber: [Int64: SQLRowLayout]
    package let schema: CoreDataSchema
    package let storeIdentifier: String
    /// Where the store keeps external binary data: `nil` for a store that keeps the bytes in the
    /// cell (PostgreSQL's `bytea`).
    package let externalData: ExternalBinaryData?
    /// ``layoutsByNumber`` as an array indexed by entity number, for the look-up every row makes;
    /// empty when a number is too large for one (a hostile store's), and the dictionary serves.
    private let layoutsByIndex: [SQLRowLayout?]

    package init(
        layoutsByNumber: [Int64: SQLRowLayout], schema: CoreDataSchema, storeIdentifier: String,
        externalData: ExternalBinaryData? = nil
    ) {
        self.layoutsByNumber = layoutsByNumber
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.externalData = externalData
        let highest = layoutsByNumber.keys.max() ?? 0
        if layoutsByNumber.keys.allSatisfy({ $0 >= 0 }), highest < 1 << 16 {
            var layouts = [SQLRowLayout?](repeating: nil, count: Int(highest) + 1)
            for (number, layout) in layoutsByNumber { layouts[Int(number)] = layout }
            layoutsByIndex = layouts
        } else {
            layoutsByIndex = []
        }
    }

    /// The layout of the entity whose number (`Z_ENT`) is `number`.
    package func layout(number: Int64) -> SQLRowLayout? {
        guard !layoutsByIndex.isEmpty else { return layoutsByNumber[number] }
        return number >= 0 && number < layoutsByIndex.count ? layoutsByIndex[Int(number)] : nil
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
        column: (Int) -> SQLValue, entityNumber: (_ table: String, _ key: Int64) throws -> Int64?,
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
        return StoredObject(objectID: objectID, version: Int(column(2).int64Value ?? 0), values: values)
    }

    /// The layout and ID of the row whose cells `column` gives; `nil` for an entity number the
    /// model does not know or a row without a key.
    package func identity(column: (Int) -> SQLValue) -> (layout: SQLRowLayout, objectID: ManagedObjectID)? {
        identity(key: column(0).int64Value, entityNumber: column(1).int64Value)
    }

    /// The ID of the row `key` of the entity whose number is `entityNumber`.
    package func objectID(entityNumber: Int64, key: Int64) -> ManagedObjectID? {
        layout(number: entityNumber).map { permanentID(entity: $0.entity, number: key) }
    }

    /// The layout and ID of a row from its key (`Z_PK`) and entity number (`Z_ENT`).
    package func identity(key: Int64?, entityNumber: Int64?) -> (layout: SQLRowLayout, objectID: ManagedObjectID)? {
        guard let entityNumber, let layout = layout(number: entityNumber), let key else { return nil }
        return (layout, permanentID(entity: layout.entity, number: key))
    }

    /// The object a to-one's foreign key names: `key`, of the entity `entityNumber` gives when the
    /// row has a destination-entity column, else of the one the key's row in `destinationTable`
    /// says (a destination with sub-entities), else of `destination`.
    package func toOneObjectID(
        key: Int64?, entityNumber: Int64?, destination: EntityDescription, destinationTable: String?,
        entityNumberOfRow: (_ table: String, _ key: Int64) throws -> Int64?
    ) throws -> ManagedObjectID? {
        guard let key else { return nil }
        var destinationEntity = entityNumber.flatMap { layout(number: $0)?.entity }
        if destinationEntity == nil, let destinationTable, let found = try entityNumberOfRow(destinationTable, key) {
            destinationEntity = layout(number: found)?.entity
        }
        return permanentID(entity: destinationEntity ?? destination, number: key)
    }

    /// The stored value of the property at `index` in the row of `layout` whose cells `column`
    /// gives (``storedObject(column:entityNumber:keepingUndecodableTransformables:)``, one property).
    package func storedValue(
        at index: Int, of layout: SQLRowLayout, objectID: ManagedObjectID, column: (Int) -> SQLValue,
        entityNumber: (_ table: String, _ key: Int64) throws -> Int64?, keepingUndecodableTransformables: Bool = false
    ) throws -> StoredValue {
        func integer(_ position: Int) -> Int64? { column(position).int64Value }
        switch layout.readProperties[index] {
        case .attribute(let position, .transformable):
            do {
                return .attribute(try transformableValue(column(position), property: layout.entity.properties[index], objectID: objectID))
            } catch let error as ManagedObjectError where keepingUndecodableTransformables {
                guard case .blob(let data) = column(position) else { throw error }
                return .attribute(UndecodedTransformable(data: data, reason: error.message))
            }
        case .attribute(let position, let type):
            return .attribute(CoreDataValues.attributeValue(column(position), type: type, resolveObjectID: objectID(forURI:)))
        case .externalBinary(let position):
            return .attribute(try externalBinaryValue(column(position), property: layout.entity.properties[index], objectID: objectID))
        case .toOne(let position, let entityPosition, let destination, let destinationTable):
            return .toOne(try toOneObjectID(
                key: integer(position), entityNumber: entityPosition.flatMap(integer), destination: destination,
                destinationTable: destinationTable, entityNumberOfRow: entityNumber))
        case .composite(let elements):
            return .attribute(CompositeValues.dictionary(elements.map { element in
                (element.path, CoreDataValues.attributeValue(column(element.position), type: element.type, resolveObjectID: objectID(forURI:)))
            }))
        case .toManyFault:
            return .toManyFault
        case .constant(let value):
            return value
        }
    }

    /// A Transformable cell (the BLOB its transformer wrote) as the value it transforms back to.
    private func transformableValue(_ cell: SQLValue, property: PropertyDescription, objectID: ManagedObjectID) throws -> Any? {
        guard case .attribute(let attribute) = property.kind else { return nil }
        // A cell of another kind reads as nil, as a cell that does not read as its attribute's
        // type does for every other type (`CoreDataValues.attributeValue`).
        guard case .blob(let data) = cell else { return nil }
        return try TransformableValues.value(of: data, attribute: attribute, objectID: objectID)
    }

    /// A Binary cell of an attribute that allows external storage: through Core Data's marker
    /// where the store keeps one (``ExternalBinaryData/value(ofCell:attribute:objectID:)``).
    private func externalBinaryValue(_ cell: SQLValue, property: PropertyDescription, objectID: ManagedObjectID) throws -> Any? {
        guard let externalData else {
            return CoreDataValues.attributeValue(cell, type: .binary, resolveObjectID: { _ in nil })
        }
        // As any other cell that does not read as its attribute's type: nil.
        guard case .blob(let data) = cell else { return nil }
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
