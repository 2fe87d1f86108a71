import Foundation
import GRDB

/// How an `ACHANGE` row names the properties an update changed (`ZCOLUMNS`) and keeps the
/// values of a deleted object's preserved attributes (`ZTOMBSTONE0`, `ZTOMBSTONE1`, …), for
/// each entity of a model.
///
/// Inferred, not learnt from a real file: the only real stores here with history (CoreDataPlus's
/// SampleModel2) hold inserts alone (`ZCOLUMNS` NULL) and no attribute that preserves its value
/// on deletion (no tombstone column). The encoding follows the public reverse-engineering notes
/// of Core Data's history tables, which agree on these points:
/// - `ZCOLUMNS` is a bitmap over the changed object's own entity's stored (non-transient)
///   properties, inherited ones included, attributes and relationships in one list sorted by
///   name; bit *n* counted from the most significant bit of the first byte is the *n*th
///   property (one note counts from the least significant bit instead; the one checked against
///   a Core Data writer says most significant first), as many bytes as the list needs.
/// - An entity's attributes marked `preservesValueInHistoryOnDeletion`, sorted by name, keep
///   their values in `ZTOMBSTONE0`, `ZTOMBSTONE1`, … in that order, each stored as the
///   attribute's own column stores it; the table has as many of these BLOB columns as the entity
///   with the most such attributes needs. Attributes that allow external binary storage are not
///   kept (Core Data does not tombstone them).
package struct PersistentHistoryColumns: Sendable {
    package struct EntityColumns: Sendable {
        /// The properties in bitmap order.
        let properties: [PropertyDescription]
        /// Property index → position in `properties`.
        let bitByIndex: [Int: Int]
        /// The attributes a deletion keeps, in tombstone-column order.
        let tombstoneAttributes: [AttributeDescription]
        /// Their columns in the entity's table, in the same order.
        let tombstoneSourceColumns: [String]
    }

    private let byEntity: [ObjectIdentifier: EntityColumns]
    /// How many `ZTOMBSTONE<n>` columns the model needs.
    package let tombstoneColumnCount: Int

    package init(model: ManagedObjectModel, schema: CoreDataSchema) {
        var byEntity: [ObjectIdentifier: EntityColumns] = [:]
        var count = 0
        for entity in model.entities {
            let properties = entity.properties.filter { !$0.isTransient }.sorted { $0.name < $1.name }
            var attributes: [AttributeDescription] = []
            var columns: [String] = []
            for case .attribute(let attribute) in properties.map(\.kind)
            where attribute.attribute.preserveAfterDeletion && !attribute.attribute.allowsExternalBinaryDataStorage {
                guard case .attribute(let column, _)? = schema.storage[entity.name]?[attribute.index] else { continue }
                attributes.append(attribute)
                columns.append(column)
            }
            count = max(count, attributes.count)
            byEntity[ObjectIdentifier(entity)] = EntityColumns(
                properties: properties,
                bitByIndex: Dictionary(uniqueKeysWithValues: properties.enumerated().map { ($1.index, $0) }),
                tombstoneAttributes: attributes, tombstoneSourceColumns: columns)
        }
        self.byEntity = byEntity
        tombstoneColumnCount = count
    }

    package func columns(of entity: EntityDescription) -> EntityColumns? {
        byEntity[ObjectIdentifier(entity)]
    }

    /// The `ZTOMBSTONE<n>` column names.
    package static func tombstoneColumn(_ position: Int) -> String { "ZTOMBSTONE\(position)" }

    /// `ZCOLUMNS` for the properties at `indexes` of `entity` (`nil` when there is none).
    package func bitmap(of indexes: some Sequence<Int>, in entity: EntityDescription) -> Data? {
        guard let columns = columns(of: entity) else { return nil }
        var bytes = [UInt8](repeating: 0, count: (columns.properties.count + 7) / 8)
        var any = false
        for index in indexes {
            guard let bit = columns.bitByIndex[index] else { continue }
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
            any = true
        }
        return any ? Data(bytes) : nil
    }

    /// The properties a `ZCOLUMNS` bitmap names; `nil` when a set bit is past the entity's
    /// properties (the bitmap is not of this model's entity), which the caller reports.
    func properties(in bitmap: Data, of entity: EntityDescription) -> Set<PropertyDescription>? {
        guard let columns = columns(of: entity) else { return nil }
        var properties = Set<PropertyDescription>()
        for (byteIndex, byte) in bitmap.enumerated() where byte != 0 {
            for offset in 0..<8 where byte & (0x80 >> UInt8(offset)) != 0 {
                let bit = byteIndex * 8 + offset
                guard bit < columns.properties.count else { return nil }
                properties.insert(columns.properties[bit])
            }
        }
        return properties
    }
}
