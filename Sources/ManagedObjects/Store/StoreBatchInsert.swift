import Foundation

/// A batch insert as a store receives it: rows of attribute values, written straight to the
/// store without contexts (Core Data's `NSBatchInsertRequest` as a store executes it).
public struct StoreBatchInsert: @unchecked Sendable {
    // Unchecked: values are attribute values of their storage types (see `StoredValue`).
    public var entity: EntityDescription
    /// The stored attributes every row gives a value for, in column order.
    public var attributes: [AttributeDescription]
    /// Row after row, one value per attribute, each of the attribute's storage type (`nil`:
    /// no value): `values[row * attributes.count + column]`.
    public var values: [Any?]
    public var rowCount: Int
    /// What a row whose constrained values another object already has does: `false` fails the
    /// batch (133021, nothing written), as under Core Data's default error merge policy; `true`
    /// updates that object instead (Core Data's upsert under an object-trump merge policy).
    public var updatesObjectsOnConstraintConflict = false
    /// Whether the outcome lists the inserted (or, upserting, updated) objects' IDs.
    public var returnsObjectIDs = false
    /// The running context's `transactionAuthor` and `name`, which persistent history records.
    public var transactionAuthor: String?
    public var contextName: String?

    public init(entity: EntityDescription, attributes: [AttributeDescription], values: [Any?], rowCount: Int) {
        self.entity = entity
        self.attributes = attributes
        self.values = values
        self.rowCount = rowCount
    }

    /// The value of `column` in `row`.
    package func value(row: Int, column: Int) -> Any? {
        values[row * attributes.count + column]
    }
}

extension ManagedObjectError.Code {
    /// NSPersistentStoreSaveError: a store could not write a change (here: a batch delete whose
    /// Nullify rule would empty a mandatory to-one of a remaining object).
    public static let persistentStoreSave = ManagedObjectError.Code(rawValue: 134030)
}
