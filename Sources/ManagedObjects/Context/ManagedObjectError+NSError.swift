import Foundation

// `error as NSError` gives Core Data's domain, code and user-info keys on every platform, so code
// that reads `nsError.code` or `nsError.userInfo[NSValidationKeyErrorKey]` works unchanged.
extension ManagedObjectError: CustomNSError {
    /// Core Data's user-info keys (`NSValidationKeyErrorKey`, `NSValidationValueErrorKey`,
    /// `NSValidationObjectErrorKey`, `NSDetailedErrorsKey`, `NSPersistentStoreSaveConflictsErrorKey`),
    /// with Core Data's string values.
    public enum UserInfoKey {
        public static let validationKey = "NSValidationErrorKey"
        public static let validationValue = "NSValidationErrorValue"
        public static let validationObject = "NSValidationErrorObject"
        public static let detailedErrors = "NSDetailedErrors"
        /// The conflicts of a 133020 or 133021 error (Core Data's
        /// `NSPersistentStoreSaveConflictsErrorKey`, whose value is `"conflictList"`).
        public static let conflictList = "conflictList"
    }

    public static var errorDomain: String { domain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let key { info[UserInfoKey.validationKey] = key }
        if let value { info[UserInfoKey.validationValue] = value }
        if let object { info[UserInfoKey.validationObject] = object }
        if !detailedErrors.isEmpty { info[UserInfoKey.detailedErrors] = detailedErrors.map { $0 as NSError } }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        // Typed arrays, so `as? [NSMergeConflict]` (or `[NSConstraintConflict]`) reads them.
        if !mergeConflicts.isEmpty {
            info[UserInfoKey.conflictList] = mergeConflicts
        } else if !constraintConflicts.isEmpty {
            info[UserInfoKey.conflictList] = constraintConflicts
        }
        return info
    }
}

#if !_runtime(_ObjC)
// Without the Objective-C runtime, Swift casts an error to `NSError` only by coercion
// (`error as NSError`): the conditional cast in `catch let error as NSError` fails for a Swift
// error, and in a non-throwing function crashes (swiftlang/swift#65106). Foundation on Linux
// bridges its own value types to their classes through `_ObjectiveCBridgeable`, which the
// runtime's casts do use, so conforming makes that cast give the error's `NSError`, and a cast
// back give the error itself. Apple platforms bridge every error to `NSError` already.
extension ManagedObjectError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError {
        BridgedManagedObjectError(self)
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout ManagedObjectError?) {
        result = (source as? BridgedManagedObjectError)?.error
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout ManagedObjectError?) -> Bool {
        result = (source as? BridgedManagedObjectError)?.error
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> ManagedObjectError {
        if let error = (source as? BridgedManagedObjectError)?.error { return error }
        return ManagedObjectError(
            Code(rawValue: source?.code ?? Code.coreData.rawValue), source?.localizedDescription ?? "unknown error")
    }
}

/// The `NSError` a ``ManagedObjectError`` bridges to: Core Data's domain, code and user info, and
/// the error itself, so a cast back gives it whole.
private final class BridgedManagedObjectError: NSError, @unchecked Sendable {
    // Unchecked: immutable after init; the error's objects are used on their context's queue,
    // as with Core Data's `NSError`.
    let error: ManagedObjectError

    init(_ error: ManagedObjectError) {
        self.error = error
        super.init(domain: ManagedObjectError.errorDomain, code: error.errorCode, userInfo: error.errorUserInfo)
    }

    required init?(coder: NSCoder) { nil }
}
#endif
