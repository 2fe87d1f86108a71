// Hand-written in the exact shape ManagedGen generates (Docs/GeneratedCode.md) for the DogWalk
// model (seed 002): an ordered to-many `walks`.
import DataModel
import Foundation
import ManagedObjects

public enum DogWalkModel {
    public static let model = Model(entities: [
        Entity(name: "Dog", representedClassName: "Dog", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "walks", destinationEntity: "Walk", inverseName: "dog",
                         inverseEntity: "Walk", isToMany: true, isOrdered: true, isOptional: true,
                         deleteRule: .cascade),
        ]),
        Entity(name: "Walk", representedClassName: "Walk", codeGeneration: .class, attributes: [
            Attribute(name: "date", type: .date, isOptional: true),
        ], relationships: [
            Relationship(name: "dog", destinationEntity: "Dog", inverseName: "walks",
                         inverseEntity: "Dog", isOptional: true),
        ]),
    ])

    public static let managedObjectModel = ManagedObjectModel(
        model, classes: ["Dog": Dog.self, "Walk": Walk.self])
}

public final class Dog: ManagedObject {
    public override class var entityName: String { "Dog" }

    public class func fetchRequest() -> FetchRequest<Dog> {
        FetchRequest<Dog>(entityName: "Dog")
    }
}

extension Dog {
    public enum Keys {
        public static let name = "name"
        public static let walks = "walks"
    }

    public var name: String? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var walks: OrderedSet<Walk> {
        get { orderedRelationship(at: 1) }
        set { setOrderedRelationship(newValue, at: 1) }
    }

    public func addToWalks(_ value: Walk) { addToRelationship([value], at: 1) }
    public func removeFromWalks(_ value: Walk) { removeFromRelationship([value], at: 1) }
    public func addToWalks(_ values: OrderedSet<Walk>) { addToRelationship(values, at: 1) }
    public func removeFromWalks(_ values: OrderedSet<Walk>) { removeFromRelationship(values, at: 1) }
    public func insertIntoWalks(_ value: Walk, at index: Int) { insertIntoRelationship([value], at: IndexSet(integer: index), propertyIndex: 1) }
    public func insertIntoWalks(_ values: [Walk], at indexes: IndexSet) { insertIntoRelationship(values, at: indexes, propertyIndex: 1) }
    public func removeFromWalks(at index: Int) { removeFromRelationship(at: IndexSet(integer: index), propertyIndex: 1) }
    public func removeFromWalks(at indexes: IndexSet) { removeFromRelationship(at: indexes, propertyIndex: 1) }
    public func replaceWalks(at index: Int, with value: Walk) { replaceInRelationship(at: IndexSet(integer: index), with: [value], propertyIndex: 1) }
    public func replaceWalks(at indexes: IndexSet, with values: [Walk]) { replaceInRelationship(at: indexes, with: values, propertyIndex: 1) }
}

public final class Walk: ManagedObject {
    public override class var entityName: String { "Walk" }

    public class func fetchRequest() -> FetchRequest<Walk> {
        FetchRequest<Walk>(entityName: "Walk")
    }
}

extension Walk {
    public enum Keys {
        public static let date = "date"
        public static let dog = "dog"
    }

    public var date: Date? {
        get { attributeValue(at: 0) }
        set { setAttributeValue(newValue, at: 0) }
    }

    public var dog: Dog? {
        get { toOneRelationship(at: 1) }
        set { setToOneRelationship(newValue, at: 1) }
    }
}
