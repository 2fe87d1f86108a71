// A value transformer as Core Data apps write them (a secure-unarchiving subclass with its
// allowed classes, registered under an `NSValueTransformerName`), in a file importing both
// Foundation and CoreData: the names must not clash with Foundation's on Linux.
import CoreData
import Foundation
import Testing

final class ColorNamesTransformer: NSSecureUnarchiveFromDataTransformer, @unchecked Sendable {
    static let name = NSValueTransformerName(rawValue: "ColorNamesTransformer")

    override class var allowedTopLevelClasses: [AnyClass] { [NSArray.self, NSString.self] }

    static func register() {
        ValueTransformer.setValueTransformer(ColorNamesTransformer(), forName: name)
    }
}

@Suite struct ColorNamesTransformerTests {
    @Test func portedTransformerRegistersAndRoundTrips() throws {
        ColorNamesTransformer.register()
        #expect(ValueTransformer.valueTransformerNames().contains(ColorNamesTransformer.name))
        #expect(ValueTransformer.valueTransformerNames().contains(.secureUnarchiveFromDataTransformerName))
        let transformer = try #require(ValueTransformer.valueTransformer(forName: ColorNamesTransformer.name))
        let data = try #require(transformer.transformedValue(["red", "green"]) as? Data)
        #expect(transformer.reverseTransformedValue(data) as? [String] == ["red", "green"])
        // A dictionary is not among its allowed classes.
        #expect(transformer.transformedValue(["red": 1]) == nil)
    }
}
