import DataModel
import Foundation
import ManagedObjects
import Testing

/// Values shaped as Core Data gives them, in the runtime itself (so on every platform, not only
/// through the Linux `CoreData` module): key-value coding numbers as `NSNumber`, `Identifiable`
/// from a protocol extension, `ObjectPredicate(format:)`.
@Suite("Core Data's value shapes")
struct CoreDataValueShapesTests {
    /// A class that declares its own `id`, as SwiftUI code does on NSManagedObject subclasses.
    final class Reading: ManagedObject {
        var id: String { value(forKey: "code") as? String ?? "" }
    }

    static let model = ManagedObjectModel(Model(entities: [
        Entity(name: "Reading", representedClassName: "Reading", attributes: [
            Attribute(name: "code", type: .string, isOptional: true),
            Attribute(name: "count", type: .integer64, isOptional: true),
            Attribute(name: "small", type: .integer16, isOptional: true),
            Attribute(name: "rating", type: .double, isOptional: true),
            Attribute(name: "ratio", type: .float, isOptional: true),
            Attribute(name: "flag", type: .boolean, isOptional: true),
            Attribute(name: "price", type: .decimal, isOptional: true),
        ]),
    ]), classes: ["Reading": Reading.self])

    @Test func keyValueCodingNumbersReadAsIntDoubleBoolAndNSNumber() throws {
        try withContext(Self.model) { context in
            let reading = Reading(context: context)
            reading.setValue(42, forKey: "count")
            reading.setValue(7, forKey: "small")
            reading.setValue(2.5, forKey: "rating")
            reading.setValue(0.5, forKey: "ratio")
            reading.setValue(true, forKey: "flag")
            reading.setValue(Decimal(string: "9.99"), forKey: "price")
            #expect(reading.value(forKey: "count") as? Int == 42)
            #expect(reading.value(forKey: "count") as? Double == 42)
            #expect(reading.value(forKey: "count") as? Int64 == 42)
            #expect((reading.value(forKey: "count") as? NSNumber)?.int64Value == 42)
            #expect(reading.value(forKey: "small") as? Int == 7)
            #expect(reading.value(forKey: "rating") as? Double == 2.5)
            #expect(reading.value(forKey: "rating") as? Int == nil)
            #expect(reading.value(forKey: "ratio") as? Double == 0.5)
            #expect(reading.value(forKey: "flag") as? Bool == true)
            #expect(reading.value(forKey: "price") as? Decimal == Decimal(string: "9.99"))
            #expect(reading.value(forKey: "code") == nil)
            #expect(reading.value(forKeyPath: "count") as? Int == 42)
            // The Swift value itself, as predicates and sorts read it.
            #expect(reading.storedValue(forKey: "small") is Int16)
            #expect(reading.storedValue(forKey: "count") as? Int64 == 42)
            #expect(reading.changedValues()["count"] as? Int == 42)
            #expect(ObjectPredicate(format: "count == 42 AND flag == YES").evaluate(with: reading))
        }
    }

    @Test func aSubclassMayDeclareItsOwnID() throws {
        try withContext(Self.model) { context in
            let reading = Reading(context: context)
            reading.setValue("r1", forKey: "code")
            #expect(reading.id == "r1")
            let plain: ManagedObject = reading
            #expect(plain.id == ObjectIdentifier(reading))
        }
    }

    @Test func errorsBridgeToNSErrorWithCoreDataCodes() throws {
        let model = ManagedObjectModel(Model(entities: [
            Entity(name: "Named", attributes: [Attribute(name: "name", type: .string)]),
        ]))
        try withContext(model) { context in
            _ = ManagedObject(entity: try #require(model["Named"]), insertInto: context)
            do {
                try context.save()
                Issue.record("saved an object without its mandatory name")
            } catch {
                let nsError = error as NSError
                #expect(nsError.domain == NSCocoaErrorDomain)
                #expect(nsError.code == 1570)
                #expect(nsError.userInfo[ManagedObjectError.UserInfoKey.validationKey] as? String == "name")
                #expect(nsError.localizedDescription.contains("name"))
            }
        }
    }

    @Test func predicatesTakeTheFormatLabel() {
        let predicate = ObjectPredicate(format: "name BEGINSWITH[c] %@ AND count > %d", "a", 2)
        #expect(predicate.evaluate(with: ["name": "Anna", "count": 3]))
        #expect(!predicate.evaluate(with: ["name": "Anna", "count": 2]))
        #expect(ObjectPredicate(format: "name IN %@", argumentArray: [["a", "b"]]).evaluate(with: ["name": "b"]))
        #expect(ObjectPredicate(format: "TRUEPREDICATE", argumentArray: nil).evaluate(with: nil))
    }
}
