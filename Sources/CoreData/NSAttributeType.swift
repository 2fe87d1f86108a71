import DataModel
@_spi(CoreData) import ManagedObjects

/// Core Data's attribute types, with its raw values (`AttributeType.coreDataRawValue`).
public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0
    case integer16AttributeType = 100
    case integer32AttributeType = 200
    case integer64AttributeType = 300
    case decimalAttributeType = 400
    case doubleAttributeType = 500
    case floatAttributeType = 600
    case stringAttributeType = 700
    case booleanAttributeType = 800
    case dateAttributeType = 900
    case binaryDataAttributeType = 1000
    case UUIDAttributeType = 1100
    case URIAttributeType = 1200
    case transformableAttributeType = 1800
    case objectIDAttributeType = 2000
    case compositeAttributeType = 2100
}

extension AttributeDescription {
    /// Core Data's `attributeType` (the runtime's `type`).
    public var attributeType: NSAttributeType {
        // Every AttributeType has a raw value among the cases above.
        get { NSAttributeType(rawValue: type.coreDataRawValue) ?? .undefinedAttributeType }
        set { type = AttributeType(coreDataRawValue: newValue.rawValue) ?? .undefined }
    }
}
