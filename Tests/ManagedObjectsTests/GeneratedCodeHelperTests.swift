import Foundation
@_spi(Generated) import ManagedObjects
import Testing

/// The one-object helpers generated to-many accessors forward to, on the ordered `Dog.walks`
/// (property index 1), with the inverse `Walk.dog` following.
@Suite struct GeneratedCodeHelperTests {
    @Test func oneObjectHelpersEditTheRelationshipAndItsInverse() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let dog = Dog(context: context)
            let (first, second, third) = (Walk(context: context), Walk(context: context), Walk(context: context))
            dog.addRelatedObject(first, at: 1)
            dog.addRelatedObject(second, at: 1)
            #expect(dog.walks.elements == [first, second])
            #expect(second.dog === dog)
            dog.insertRelatedObject(third, at: 0, propertyIndex: 1)
            #expect(dog.walks.elements == [third, first, second])
            dog.removeRelatedObject(at: 1, propertyIndex: 1)
            #expect(dog.walks.elements == [third, second])
            #expect(first.dog == nil)
            dog.replaceRelatedObject(at: 0, with: first, propertyIndex: 1)
            #expect(dog.walks.elements == [first, second])
            #expect(third.dog == nil)
            dog.removeRelatedObject(second, at: 1)
            #expect(dog.walks.elements == [first])
            #expect(second.dog == nil)
        }
    }

    /// What to-manys typed as Xcode types them (`toManyCollections: foundation`) forward to.
    @Test func foundationCollectionHelpersEditTheRelationshipAndItsInverse() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let dog = Dog(context: context)
            let (first, second, third) = (Walk(context: context), Walk(context: context), Walk(context: context))
            #expect(dog.toManyOrderedSet(at: 1)?.count == 0)
            dog.setToManyCollection(NSOrderedSet(array: [second, first]), at: 1)
            #expect(dog.walks.elements == [second, first])
            #expect(first.dog === dog)
            #expect(dog.toManyOrderedSet(at: 1)?.array as? [Walk] == [second, first])
            #expect(dog.toManySet(at: 1) == NSSet(array: [first, second]))
            dog.addToManyCollection(NSOrderedSet(array: [third]), at: 1)
            #expect(dog.walks.elements == [second, first, third])
            dog.removeToManyCollection(NSSet(array: [first]), at: 1)
            #expect(dog.walks.elements == [second, third])
            #expect(first.dog == nil)
            dog.insertIntoRelationship([first], at: NSIndexSet(index: 0), propertyIndex: 1)
            #expect(dog.walks.elements == [first, second, third])
            dog.replaceInRelationship(at: NSIndexSet(index: 2), with: [Walk(context: context)], propertyIndex: 1)
            #expect(third.dog == nil)
            dog.removeFromRelationship(at: NSIndexSet(indexesIn: NSRange(location: 0, length: 2)), propertyIndex: 1)
            #expect(dog.walks.count == 1 && first.dog == nil && second.dog == nil)
            dog.setToManyCollection(nil as NSOrderedSet?, at: 1)
            #expect(dog.walks.isEmpty)
        }
    }

    @Test func requiredValueGivesTheValue() throws {
        try withContext(DogWalkModel.managedObjectModel) { context in
            let walk = Walk(context: context)
            let dog = Dog(context: context)
            walk.dog = dog
            #expect(walk.requiredValue(walk.dog, key: "Walk.dog") === dog)
        }
    }

    /// The typed attribute accessors on `Book.pages` (Integer 32 at index 2) and `Book.isbn` (String at 1).
    @Test func typedAttributeAccessorsReadWriteAndFallBack() throws {
        try withContext(LibraryModel.managedObjectModel) { context in
            let book = Book(context: context)
            #expect(book.int32Attribute(at: 2) == nil)
            #expect(book.int32Attribute(at: 2, default: 7) == 7)
            book.setInt32NumberAttribute(NSNumber(value: 12), at: 2)
            #expect(book.int32Attribute(at: 2) == 12)
            #expect(book.int32NumberAttribute(at: 2) == NSNumber(value: 12))
            #expect(book.pages == 12)
            book.setInt32Attribute(nil, at: 2)
            #expect(book.int32NumberAttribute(at: 2) == nil)
            book.setStringAttribute("9780000000000", at: 1)
            #expect(book.isbn == "9780000000000")
            #expect(book.stringAttribute(at: 1, default: "") == "9780000000000")
        }
    }
}
