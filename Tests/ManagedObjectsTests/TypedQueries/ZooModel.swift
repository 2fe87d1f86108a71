// Hand-written in the shape ManagedGen generates, with the key-path tables typed queries read:
// a final root (Warden), a class tree (Creature, its subclass Hound) and a `_`-suffixed attribute
// with its non-optional wrapper (nickname_ / nickname).
import DataModel
import Foundation
@_spi(Generated) import ManagedObjects

enum ZooModel {
    static let model = Model(entities: [
        Entity(name: "Warden", representedClassName: "Warden", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "age", type: .integer64, isOptional: false, defaultValueString: "0"),
            Attribute(name: "rating", type: .double, isOptional: false, defaultValueString: "0"),
            Attribute(name: "active", type: .boolean, isOptional: false, defaultValueString: "NO"),
            Attribute(name: "hired", type: .date, isOptional: true),
            Attribute(name: "nickname_", type: .string, isOptional: true),
        ], relationships: [
            Relationship(name: "mentor", destinationEntity: "Warden", inverseName: "mentees", inverseEntity: "Warden",
                         isOptional: true, deleteRule: .nullify),
            Relationship(name: "mentees", destinationEntity: "Warden", inverseName: "mentor", inverseEntity: "Warden",
                         isToMany: true, isOptional: true, deleteRule: .nullify),
            Relationship(name: "animals", destinationEntity: "Creature", inverseName: "warden", inverseEntity: "Creature",
                         isToMany: true, isOptional: true, deleteRule: .nullify),
        ]),
        Entity(name: "Creature", representedClassName: "Creature", codeGeneration: .class, attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "legs", type: .integer16, isOptional: false, defaultValueString: "4"),
        ], relationships: [
            Relationship(name: "warden", destinationEntity: "Warden", inverseName: "animals", inverseEntity: "Warden",
                         isOptional: true, deleteRule: .nullify),
        ]),
        Entity(name: "Hound", representedClassName: "Hound", parentEntity: "Creature", codeGeneration: .class, attributes: [
            Attribute(name: "breed", type: .string, isOptional: true),
        ]),
    ])

    static let managedObjectModel = ManagedObjectModel(
        model, classes: ["Warden": Warden.self, "Creature": Creature.self, "Hound": Hound.self])
}

final class Warden: ManagedObject {
    override class var entityName: String { "Warden" }
}

extension Warden: FetchableManagedObject {
    var name: String? { get { _managedGen.string(at: 0) } set { _managedGen.setString(newValue, at: 0) } }
    var age: Int64 { get { _managedGen.int64(at: 1, default: 0) } set { _managedGen.setInt64(newValue, at: 1) } }
    var rating: Double { get { _managedGen.double(at: 2, default: 0) } set { _managedGen.setDouble(newValue, at: 2) } }
    var active: Bool { get { _managedGen.bool(at: 3, default: false) } set { _managedGen.setBool(newValue, at: 3) } }
    var hired: Date? { get { _managedGen.date(at: 4) } set { _managedGen.setDate(newValue, at: 4) } }
    var nickname_: String? { get { _managedGen.string(at: 5) } set { _managedGen.setString(newValue, at: 5) } }
    var mentor: Warden? { get { toOneRelationship(at: 6) } set { setToOneRelationship(newValue, at: 6) } }
    var mentees: Set<Warden> { get { relationship(at: 7) } set { setRelationship(newValue, at: 7) } }
    var animals: Set<Creature> { get { relationship(at: 8) } set { setRelationship(newValue, at: 8) } }
    var nickname: String { get { _managedGen.string(at: 5, default: "") } set { _managedGen.setString(newValue, at: 5) } }

    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [
            \Warden.name: "name", \Warden.age: "age", \Warden.rating: "rating", \Warden.active: "active",
            \Warden.hired: "hired", \Warden.nickname_: "nickname_", \Warden.mentor: "mentor", \Warden.mentees: "mentees",
            \Warden.animals: "animals", \Warden.nickname: "nickname_",
        ]
    }
}

class Creature: ManagedObject {
    override class var entityName: String { "Creature" }
}

protocol CreatureFetching: Creature, FetchableManagedObject {}

extension Creature: CreatureFetching {
    var name: String? { get { _managedGen.string(at: 0) } set { _managedGen.setString(newValue, at: 0) } }
    var legs: Int16 { get { _managedGen.int16(at: 1, default: 4) } set { _managedGen.setInt16(newValue, at: 1) } }
    var warden: Warden? { get { toOneRelationship(at: 2) } set { setToOneRelationship(newValue, at: 2) } }
}

extension CreatureFetching {
    // `Self` is the class asked (Hound for `\Hound.name`); a subclass adds its own properties.
    static var propertyNamesByKeyPath: [AnyKeyPath: String] {
        [\Self.name: "name", \Self.legs: "legs", \Self.warden: "warden"]
            .merging((self as? Hound.Type)?.propertyNamesOfHound ?? [:]) { own, _ in own }
    }
}

final class Hound: Creature {
    override class var entityName: String { "Hound" }
}

extension Hound {
    var breed: String? { get { _managedGen.string(at: 3) } set { _managedGen.setString(newValue, at: 3) } }
    static var propertyNamesOfHound: [AnyKeyPath: String] { [\Hound.breed: "breed"] }
}
