import Foundation

/// The class names an archive may give for objects of an allowed class: the class itself and
/// its mutable subclass, as secure decoding admits a subclass of an allowed class.
enum KeyedArchiveClasses {
    static func names(admittedBy allowed: AnyClass) -> [String] {
        let name = String(describing: allowed)
        switch name {
        case "NSArray", "NSDictionary", "NSSet", "NSOrderedSet", "NSString", "NSData":
            return [name, "NSMutable" + name.dropFirst(2)]
        case "NSNumber": return [name, "NSDecimalNumber"]
        default: return [name]
        }
    }
}
