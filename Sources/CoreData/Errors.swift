// Core Data's error codes, as the `NS…Error` constants Foundation on Apple platforms declares
// (Foundation on Linux does not), and `ManagedObjectError` bridged to `NSError`.

import Foundation
import ManagedObjects

extension ManagedObjectError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let key { info[NSValidationKeyErrorKey] = key }
        if let value { info[NSValidationValueErrorKey] = value }
        if !detailedErrors.isEmpty { info[NSDetailedErrorsKey] = detailedErrors.map { $0 as NSError } }
        return info
    }
}

public let NSValidationKeyErrorKey = "NSValidationErrorKey"
public let NSValidationValueErrorKey = "NSValidationErrorValue"
public let NSDetailedErrorsKey = "NSDetailedErrors"

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
