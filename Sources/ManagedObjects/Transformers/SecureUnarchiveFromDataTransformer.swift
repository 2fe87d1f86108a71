import Foundation

/// Core Data's default transformer for a Transformable attribute (name
/// `NSSecureUnarchiveFromData`): a value to an `NSKeyedArchiver` archive and back, decoding
/// only the classes `allowedTopLevelClasses` names. Foundation's
/// `NSSecureUnarchiveFromDataTransformer`.
///
/// A subclass widens or narrows the allowed classes by overriding `allowedTopLevelClasses`.
/// Archives are written by `KeyedArchiveWriter` in the bytes Apple's archiver writes (Foundation's
/// archiver on Linux lays them out differently and in a different order each run) and read by
/// `KeyedArchiveReader` (Foundation's unarchiver on Linux stops the program on a class that is
/// not allowed, and its property list parser recurses on hostile nesting).
open class SecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    // Unchecked: it holds no state, as its superclass (`ValueTransformer`).
    /// Foundation's plist classes, as Apple's transformer allows them.
    open class var allowedTopLevelClasses: [AnyClass] {
        [NSArray.self, NSDictionary.self, NSSet.self, NSOrderedSet.self, NSString.self, NSNumber.self,
         NSDate.self, NSData.self, NSURL.self, NSUUID.self, NSNull.self]
    }

    override open class func transformedValueClass() -> AnyClass { NSData.self }
    override open class func allowsReverseTransformation() -> Bool { true }

    /// The archive of `value`; `nil` when it is `nil` or cannot be archived.
    override open func transformedValue(_ value: Any?) -> Any? {
        value.flatMap { try? archive($0) }
    }

    /// The value `value` (an archive) holds; `nil` when it is not `Data` or not a valid archive
    /// of allowed classes.
    override open func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).flatMap { try? unarchive($0) }
    }

    /// The archive of `value`, which must be made of allowed plist types; throws
    /// ``KeyedArchiveError`` saying what is not.
    public func archive(_ value: Any) throws -> Data {
        try KeyedArchiveWriter.archive(value, allowedClassNames: allowedClassNames)
    }

    /// The value `data` holds (`nil` for an archive of nil); throws ``KeyedArchiveError``
    /// saying what is wrong with it.
    public func unarchive(_ data: Data) throws -> Any? {
        var reader = try KeyedArchiveReader(data: data, allowedClassNames: allowedClassNames)
        return try reader.rootObject()
    }

    /// The archive class names the allowed classes admit (with their mutable subclasses), found
    /// once: a store archives each object's value through the one registered instance.
    /// Set in `init` only (the subclass's `allowedTopLevelClasses` is known after `super.init`).
    private(set) var allowedClassNames: Set<String> = []

    override public init() {
        super.init()
        allowedClassNames = Set(Self.allowedTopLevelClasses.flatMap { KeyedArchiveClasses.names(admittedBy: $0) })
    }
}
