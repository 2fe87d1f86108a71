// Core Data's error codes and user-info keys under their `NS…` names (ManagedObjects bridges
// its errors to `NSError` with these values).

import Foundation
import ManagedObjects

public let NSValidationKeyErrorKey = ManagedObjectError.UserInfoKey.validationKey
public let NSValidationValueErrorKey = ManagedObjectError.UserInfoKey.validationValue
public let NSValidationObjectErrorKey = ManagedObjectError.UserInfoKey.validationObject
public let NSDetailedErrorsKey = ManagedObjectError.UserInfoKey.detailedErrors

public let NSManagedObjectValidationError = ManagedObjectError.Code.validation.rawValue
public let NSValidationMultipleErrorsError = ManagedObjectError.Code.multipleErrors.rawValue
public let NSValidationMissingMandatoryPropertyError = ManagedObjectError.Code.missingMandatoryProperty.rawValue
public let NSValidationRelationshipLacksMinimumCountError = ManagedObjectError.Code.relationshipLacksMinimumCount.rawValue
public let NSValidationRelationshipExceedsMaximumCountError = ManagedObjectError.Code.relationshipExceedsMaximumCount.rawValue
public let NSValidationRelationshipDeniedDeleteError = ManagedObjectError.Code.relationshipDeniedDelete.rawValue
public let NSValidationNumberTooLargeError = ManagedObjectError.Code.numberTooLarge.rawValue
public let NSValidationNumberTooSmallError = ManagedObjectError.Code.numberTooSmall.rawValue
public let NSValidationDateTooLateError = ManagedObjectError.Code.dateTooLate.rawValue
public let NSValidationDateTooSoonError = ManagedObjectError.Code.dateTooSoon.rawValue
public let NSValidationInvalidDateError = ManagedObjectError.Code.invalidDate.rawValue
public let NSValidationStringTooLongError = ManagedObjectError.Code.stringTooLong.rawValue
public let NSValidationStringTooShortError = ManagedObjectError.Code.stringTooShort.rawValue
public let NSValidationStringPatternMatchingError = ManagedObjectError.Code.stringPatternMatching.rawValue
public let NSManagedObjectReferentialIntegrityError = ManagedObjectError.Code.referentialIntegrity.rawValue
public let NSManagedObjectMergeError = ManagedObjectError.Code.mergeConflict.rawValue
public let NSManagedObjectConstraintMergeError = ManagedObjectError.Code.constraintConflict.rawValue
public let NSPersistentStoreInvalidTypeError = ManagedObjectError.Code.persistentStoreInvalidType.rawValue
public let NSPersistentStoreIncompatibleSchemaError = ManagedObjectError.Code.persistentStoreIncompatibleSchema.rawValue
public let NSPersistentStoreOpenError = ManagedObjectError.Code.persistentStoreOpen.rawValue
public let NSPersistentStoreIncompatibleVersionHashError =
    ManagedObjectError.Code.persistentStoreIncompatibleVersionHash.rawValue
public let NSPersistentStoreOperationError = ManagedObjectError.Code.persistentStoreOperation.rawValue
/// A save or batch request that would change a read-only store (`NSReadOnlyPersistentStoreOption`)
/// throws it too, before anything is written.
public let NSPersistentStoreSaveError = ManagedObjectError.Code.persistentStoreSave.rawValue
public let NSPersistentHistoryTokenExpiredError = ManagedObjectError.Code.persistentHistoryTokenExpired.rawValue

/// Core Data's code for an unresolved conflict found by a store's save. A context's save reports
/// a conflict as `NSManagedObjectMergeError` (133020), as Core Data's contexts do, with the
/// conflicts under `NSPersistentStoreSaveConflictsErrorKey`; the runtime throws no 134050.
public let NSPersistentStoreSaveConflictsError = 134050

/// The conflicts of a 133020 error (`[NSMergeConflict]`) or a 133021 one
/// (`[NSConstraintConflict]`): Core Data's key, whose value is `"conflictList"`.
public let NSPersistentStoreSaveConflictsErrorKey = ManagedObjectError.UserInfoKey.conflictList

// User-info keys Core Data code reads; Core Data's string values. The runtime's errors do not
// carry these (see Docs/RuntimeDifferences.md).
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
public let NSAffectedObjectsErrorKey = "NSAffectedObjectsErrorKey"
public let NSAffectedStoresErrorKey = "NSAffectedStoresErrorKey"
