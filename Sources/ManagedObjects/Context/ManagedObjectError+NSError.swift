import Foundation

// `error as NSError` gives Core Data's domain, code and user-info keys on every platform, so code
// that reads `nsError.code` or `nsError.userInfo[NSValidationKeyErrorKey]` works unchanged.
extension ManagedObjectError: CustomNSError {
    /// Core Data's user-info keys (`NSValidationKeyErrorKey`, `NSValidationValueErrorKey`,
    /// `NSValidationObjectErrorKey`, `NSDetailedErrorsKey`), with Core Data's string values.
    public enum UserInfoKey {
        public static let validationKey = "NSValidationErrorKey"
        public static let validationValue = "NSValidationErrorValue"
        public static let validationObject = "NSValidationErrorObject"
        public static let detailedErrors = "NSDetailedErrors"
    }

    public static var errorDomain: String { domain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let key { info[UserInfoKey.validationKey] = key }
        if let value { info[UserInfoKey.validationValue] = value }
        if let object { info[UserInfoKey.validationObject] = object }
        if !detailedErrors.isEmpty { info[UserInfoKey.detailedErrors] = detailedErrors.map { $0 as NSError } }
        return info
    }
}
