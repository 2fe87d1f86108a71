import Foundation
@_spi(Generated) import ManagedObjects
import Testing

/// The door's one-object helpers generated to-many accessors forward to, on the ordered `Dog.walks`
/// (property index 1), with the inverse `Walk.dog` following.
@Suite struct GeneratedCodeHelperTests {
    @Test func oneObjectHelpersEditTheRelationshipAndItsInverse() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let dog = Dog(context: context)
            let (first, second, third) = (Walk(context: context), Walk(context: context), Walk(context: context))
            dog._managedGen.addObject(first, at: 1)
            dog._managedGen.addObject(second, at: 1)
            #expect(dog.walks.elements == [first, second])
            #expect(second.dog === dog)
            dog._managedGen.insertObject(third, at: 0, propertyIndex: 1)
            #expect(dog.walks.elements == [third, first, second])
            dog._managedGen.removeObject(at: 1, propertyIndex: 1)
            #expect(dog.walks.elements == [third, second])
            #expect(first.dog == nil)
            dog._managedGen.replaceObject(at: 0, with: first, propertyIndex: 1)
            #expect(dog.walks.elements == [first, second])
            #expect(third.dog == nil)
            dog._managedGen.removeObject(second, at: 1)
            #expect(dog.walks.elements == [first])
            #expect(second.dog == nil)
        }
    }

    /// What to-manys typed as Xcode types them (`toManyCollections: foundation`) forward to.
    @Test func foundationCollectionHelpersEditTheRelationshipAndItsInverse() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let dog = Dog(context: context)
            let (first, second, third) = (Walk(context: context), Walk(context: context), Walk(context: context))
            #expect(dog._managedGen.nsOrderedSet(at: 1)?.count == 0)
            dog._managedGen.setCollection(NSOrderedSet(array: [second, first]), at: 1)
            #expect(dog.walks.elements == [second, first])
            #expect(first.dog === dog)
            #expect(dog._managedGen.nsOrderedSet(at: 1)?.array as? [Walk] == [second, first])
            #expect(dog._managedGen.nsSet(at: 1) == NSSet(array: [first, second]))
            dog._managedGen.addCollection(NSOrderedSet(array: [third]), at: 1)
            #expect(dog.walks.elements == [second, first, third])
            dog._managedGen.removeCollection(NSSet(array: [first]), at: 1)
            #expect(dog.walks.elements == [second, third])
            #expect(first.dog == nil)
            dog._managedGen.insertObjects([first], at: NSIndexSet(index: 0), propertyIndex: 1)
            #expect(dog.walks.elements == [first, second, third])
            dog._managedGen.replaceObjects(at: NSIndexSet(index: 2), with: [Walk(context: context)], propertyIndex: 1)
            #expect(third.dog == nil)
            dog._managedGen.removeObjects(at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)), propertyIndex: 1)
            #expect(dog.walks.count == 1 && first.dog == nil && second.dog == nil)
            dog._managedGen.setCollection(nil as NSOrderedSet?, at: 1)
            #expect(dog.walks.isEmpty)
        }
    }

    @Test func requiredValueGivesTheValue() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let walk = Walk(context: context)
            let dog = Dog(context: context)
            walk.dog = dog
            #expect(walk._managedGen.required(walk.dog, key: "Walk.dog") === dog)
        }
    }

    /// The typed attribute accessors on `Book.pages` (Integer 32 at index 2) and `Book.isbn` (String at 1).
    @Test func typedAttributeAccessorsReadWriteAndFallBack() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            let book = Book(context: context)
            #expect(book._managedGen.int32(at: 2) == nil)
            #expect(book._managedGen.int32(at: 2, default: 7) == 7)
            book._managedGen.setInt32Number(NSNumber(value: 12), at: 2)
            #expect(book._managedGen.int32(at: 2) == 12)
            #expect(book._managedGen.int32Number(at: 2) == NSNumber(value: 12))
            #expect(book.pages == 12)
            book._managedGen.setInt32(nil, at: 2)
            #expect(book._managedGen.int32Number(at: 2) == nil)
            book._managedGen.setString("9780000000000", at: 1)
            #expect(book.isbn == "9780000000000")
            #expect(book._managedGen.string(at: 1, default: "") == "9780000000000")
        }
    }
}
