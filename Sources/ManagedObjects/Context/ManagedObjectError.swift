import Foundation

/// An error from validation, saving or fetching, in Core Data's `NSCocoaErrorDomain` sense:
/// the same codes, naming the entity, object and key it concerns.
public struct ManagedObjectError: Error, Sendable, CustomStringConvertible {
    /// Core Data's error codes (`NSValidation…Error`, `NSManagedObject…Error`, …).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// NSManagedObjectValidationError: a value of the wrong type.
        public static let validation = Code(rawValue: 1550)
        /// NSValidationMultipleErrorsError: see `detailedErrors`.
        public static let multipleErrors = Code(rawValue: 1560)
        /// NSValidationMissingMandatoryPropertyError.
        public static let missingMandatoryProperty = Code(rawValue: 1570)
        /// NSValidationRelationshipLacksMinimumCountError.
        public static let relationshipLacksMinimumCount = Code(rawValue: 1580)
        /// NSValidationRelationshipExceedsMaximumCountError.
        public static let relationshipExceedsMaximumCount = Code(rawValue: 1590)
        /// NSValidationRelationshipDeniedDeleteError.
        public static let relationshipDeniedDelete = Code(rawValue: 1600)
        /// NSValidationNumberTooLargeError.
        public static let numberTooLarge = Code(rawValue: 1610)
        /// NSValidationNumberTooSmallError.
        public static let numberTooSmall = Code(rawValue: 1620)
        /// NSValidationDateTooLateError.
        public static let dateTooLate = Code(rawValue: 1630)
        /// NSValidationDateTooSoonError.
        public static let dateTooSoon = Code(rawValue: 1640)
        /// NSValidationInvalidDateError.
        public static let invalidDate = Code(rawValue: 1650)
        /// NSValidationStringTooLongError.
        public static let stringTooLong = Code(rawValue: 1660)
        /// NSValidationStringTooShortError.
        public static let stringTooShort = Code(rawValue: 1670)
        /// NSValidationStringPatternMatchingError.
        public static let stringPatternMatching = Code(rawValue: 1680)
        /// NSManagedObjectReferentialIntegrityError: an object that no longer exists.
        public static let referentialIntegrity = Code(rawValue: 133000)
        /// NSManagedObjectMergeError: another context saved the object since this one read it.
        public static let mergeConflict = Code(rawValue: 133020)
        /// NSManagedObjectConstraintMergeError: a save would break a uniqueness constraint.
        public static let constraintConflict = Code(rawValue: 133021)
        /// NSPersistentStoreInvalidTypeError: a store type that is not supported.
        public static let persistentStoreInvalidType = Code(rawValue: 134000)
        /// NSPersistentStoreIncompatibleSchemaError: an SQLite file that is not a Core Data store.
        public static let persistentStoreIncompatibleSchema = Code(rawValue: 134020)
        /// NSPersistentStoreOpenError: a store file that cannot be opened (not SQLite, corrupt).
        public static let persistentStoreOpen = Code(rawValue: 134080)
        /// NSPersistentStoreIncompatibleVersionHashError: a store written with another model
        /// (here: entities or columns the model has and the store lacks).
        public static let persistentStoreIncompatibleVersionHash = Code(rawValue: 134100)
        /// NSCoreDataError, the general error: here a fetch request that cannot run (an unknown
        /// entity, or a `Result` type that does not fit the result type), where Core Data raises.
        public static let invalidFetchRequest = Code(rawValue: 134060)
        /// NSCoreDataError (the same code as `invalidFetchRequest`), for what is wrong outside a
        /// fetch: a model whose classes were generated for another version of it.
        public static let coreData = invalidFetchRequest
        /// NSPersistentStoreOperationError: the operation needs a store and there is none.
        public static let persistentStoreOperation = Code(rawValue: 134070)
        /// NSPersistentHistoryTokenExpiredError: a history token the store cannot take (here: a
        /// token of another store).
        public static let persistentHistoryTokenExpired = Code(rawValue: 134301)
        /// NSSQLiteError: SQLite failed under a store operation (a damaged page, an I/O error).
        public static let sqlite = Code(rawValue: 134180)

        public var description: String { String(rawValue) }
    }

    public static let domain = "NSCocoaErrorDomain"

    public var code: Code
    /// The entity of the object concerned.
    public var entityName: String?
    /// The object concerned.
    public var objectID: ManagedObjectID?
    /// The object a validation error is about (`NSValidationObjectErrorKey`), as Core Data's
    /// error holds it; use it on its context's queue only.
    public var object: ManagedObject? {
        get { objectReference?.object }
        set { objectReference = newValue.map(ObjectReference.init) }
    }
    private var objectReference: ObjectReference?
    /// The property concerned (`NSValidationKeyErrorKey`).
    public var key: String?
    /// A description of the offending value (`NSValidationValueErrorKey`).
    public var value: String?
    public var message: String
    /// The individual errors of a `multipleErrors` (1560) error (`NSDetailedErrorsKey`).
    public var detailedErrors: [ManagedObjectError]
    /// The objects another context saved since this one read them, for a `mergeConflict`
    /// (133020) error (see ``conflictList``).
    public var mergeConflicts: [MergeConflict] = []
    /// The objects sharing a uniqueness constraint's values, for a `constraintConflict`
    /// (133021) error (see ``conflictList``).
    public var constraintConflicts: [ConstraintConflict] = []
    /// The error of the layer below (SQLite's, PostgreSQL's, the file system's) this one reports,
    /// as Core Data keeps it under `NSUnderlyingErrorKey`.
    public var underlyingError: (any Error)?

    public init(
        _ code: Code,
        _ message: String,
        entityName: String? = nil,
        objectID: ManagedObjectID? = nil,
        key: String? = nil,
        value: String? = nil,
        detailedErrors: [ManagedObjectError] = [],
        underlying underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.entityName = entityName
        self.objectID = objectID
        self.key = key
        self.value = value
        self.detailedErrors = detailedErrors
        self.underlyingError = underlyingError
    }

    /// One error for one problem; a 1560 error wrapping them all for several.
    package static func combining(_ errors: [ManagedObjectError]) -> ManagedObjectError? {
        guard let first = errors.first else { return nil }
        if errors.count == 1 { return first }
        return ManagedObjectError(
            .multipleErrors, "\(errors.count) validation errors", detailedErrors: errors)
    }

    /// What a store's save throws for objects no longer at the version the context read
    /// (`stored`: the store's version, `nil` for an object it no longer has): `mergeConflict`
    /// (133020) naming both versions, several as one with each in `detailedErrors`; `nil` for
    /// none. Every store's optimistic locking reports through it.
    package static func versionConflicts(
        _ conflicts: [(objectID: ManagedObjectID, read: Int, stored: Int?)]
    ) -> ManagedObjectError? {
        let errors = conflicts.map { objectID, read, stored in
            ManagedObjectError(
                .mergeConflict,
                "another context saved this object since it was read (read version \(read), store has \(stored.map { "version \($0)" } ?? "deleted"))",
                entityName: objectID.entity.name, objectID: objectID)
        }
        guard let error = combining(errors) else { return nil }
        return error.code == .multipleErrors
            ? ManagedObjectError(.mergeConflict, "\(errors.count) merge conflicts", detailedErrors: errors)
            : error
    }

    /// The error with every object ID (its own and its details') passed through `transform`.
    func mappingObjectIDs(_ transform: (ManagedObjectID) -> ManagedObjectID) -> ManagedObjectError {
        var error = self
        error.objectID = objectID.map(transform)
        error.detailedErrors = detailedErrors.map { $0.mappingObjectIDs(transform) }
        return error
    }

    public var description: String {
        var text = "\(Self.domain) \(code.rawValue): \(message)"
        var subject: [String] = []
        if let entityName { subject.append("entity \(entityName)") }
        if let key { subject.append("key \(key)") }
        if let objectID { subject.append("object \(objectID)") }
        if !subject.isEmpty { text += " (\(subject.joined(separator: ", ")))" }
        for detail in detailedErrors { text += "\n  \(detail)" }
        return text
    }
}

/// Holds a validation error's object: an error is `Sendable`, an object is used on its
/// context's queue, as with Core Data's `NSError`.
private final class ObjectReference: @unchecked Sendable {
    let object: ManagedObject
    init(_ object: ManagedObject) { self.object = object }
}
