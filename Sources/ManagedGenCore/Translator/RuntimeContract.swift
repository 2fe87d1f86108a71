/// Every name generated code takes from the `ManagedObjects` runtime, in one place: the door
/// generated accessors go through (`_managedGen`, `GeneratedObjectAccess` on an object,
/// `GeneratedClassAccess` on a class), the door's methods, the members generated classes
/// override or call, and the runtime types generated code names (always module-qualified).
/// `RuntimeContractTests` checks each against the built runtime's symbol graph, so a rename
/// on either side fails there instead of in users' builds. When what generated code needs
/// changes, `version` and the runtime's `GeneratedCodeContract` change with it.
enum RuntimeContract {
    /// The runtime's `GeneratedCodeContract.Version<n>` that generated files name.
    static let version = 4

    static let module = "ManagedObjects"

    /// The one door: an object's `_managedGen` (`GeneratedObjectAccess`), a class's `_managedGen`
    /// (`GeneratedClassAccess`). The one name the runtime reserves for generated accessors.
    static let door = "_managedGen"

    /// What generated code calls on an object's door (`_managedGen.string(at: 0)`).
    enum ObjectDoor {
        static let type = "GeneratedObjectAccess"
        static let value = "value", setValue = "setValue"
        static let rawValue = "rawValue", setRawValue = "setRawValue"
        static let required = "required"
        static let toOne = "toOne", setToOne = "setToOne"
        static let toMany = "toMany", setToMany = "setToMany"
        static let ordered = "ordered", setOrdered = "setOrdered"
        static let addObject = "addObject", removeObject = "removeObject"
        static let addObjects = "addObjects", removeObjects = "removeObjects"
        static let insertObject = "insertObject", insertObjects = "insertObjects"
        static let replaceObject = "replaceObject", replaceObjects = "replaceObjects"
        static let nsSet = "nsSet", nsOrderedSet = "nsOrderedSet"
        static let setCollection = "setCollection", addCollection = "addCollection", removeCollection = "removeCollection"
        static let snapshotValues = "snapshotValues", setToOneID = "setToOneID", setToManyIDs = "setToManyIDs"

        /// The typed accessors of one storage type (`int32` → `int32(at:)`, `setInt32(_:at:)`,
        /// `int32Number(at:)`, `setInt32Number(_:at:)`): non-generic, so quick to typecheck.
        static func typed(_ stem: String) -> String { stem }
        static func setTyped(_ stem: String) -> String { "set" + SwiftNames.uppercasingFirst(stem) }
        static func number(_ stem: String) -> String { stem + "Number" }
        static func setNumber(_ stem: String) -> String { "set" + SwiftNames.uppercasingFirst(stem) + "Number" }

        /// Every method name above, for the contract test.
        static var methods: Set<String> {
            let stems = TypeMapper.accessorStems
            return Set([
                value, setValue, rawValue, setRawValue, required, toOne, setToOne, toMany, setToMany, ordered, setOrdered,
                addObject, removeObject, addObjects, removeObjects, insertObject, insertObjects, replaceObject, replaceObjects,
                nsSet, nsOrderedSet, setCollection, addCollection, removeCollection, snapshotValues, setToOneID, setToManyIDs,
            ] + stems.map(typed) + stems.map(setTyped)
                + TypeMapper.numberAccessorStems.map(number) + TypeMapper.numberAccessorStems.map(setNumber))
        }
    }

    /// What generated code calls on a class's door (`Dog._managedGen.findOrInsert(…)`).
    enum ClassDoor {
        static let type = "GeneratedClassAccess"
        static let findOrInsert = "findOrInsert", propertyNames = "propertyNames", readSnapshots = "readSnapshots"
        static var methods: Set<String> { [findOrInsert, propertyNames, readSnapshots] }
    }

    /// What a generated snapshot's initializer reads from its `SnapshotValues` (`values.toOne(at: 2)`).
    enum SnapshotValues {
        static let type = "SnapshotValues"
        static let objectID = "objectID", entityName = "entityName", attribute = "attribute"
        static let rawValueAttribute = "rawValueAttribute", toOne = "toOne", toMany = "toMany"
        /// With the typed reads, named as the object door's (`values.string(at: 1)`).
        static var members: Set<String> {
            Set([objectID, entityName, attribute, rawValueAttribute, toOne, toMany] + TypeMapper.accessorStems.map(ObjectDoor.typed))
        }
    }

    /// The namespace of the model description types the model literal is built from
    /// (`ManagedObjects.ModelLiteral.Entity`): `ManagedObjects` does not re-export `DataModel`.
    enum ModelLiteral {
        static let type = "ModelLiteral"
        static let types: Set<String> = [
            "Model", "Entity", "Attribute", "Relationship", "ModelMetadata", "UserInfoEntry", "FetchedProperty",
            "FetchRequestTemplate", "Configuration", "Composite", "FetchIndex",
        ]
        /// Those the model enum names by private aliases (`private typealias Entity = …`): the ones
        /// each entity's literal repeats, so the literal reads `Attribute.compact(…)`. Not `Model`:
        /// the public `model`'s type is inferred from its initializer, and a private alias there
        /// would make it a private type.
        static let aliased = ["Entity", "Attribute", "Relationship"]
        /// The short form of `Attribute` and `Relationship` generated literals use (SPI, in
        /// extensions of `DataModel`'s types: `Attribute.compact("name", .string)`).
        static let compact = "compact"
    }

    /// Members of `ManagedObject` a generated class overrides; with `door`, what the runtime's
    /// SPI reserves as property names (`SwiftNames.managedObjectMembers`).
    static let storedPropertyLayoutHash = "storedPropertyLayoutHash"
    static let entityName = "entityName"
    static let propertyNamesByKeyPath = "propertyNamesByKeyPath"

    /// The names the runtime's generated-code SPI takes from a generated class's members.
    static var reservedMembers: Set<String> { [door, storedPropertyLayoutHash] }

    /// The runtime's types generated code names, always as `ManagedObjects.<Name>`: an app's
    /// own type of the same name (which the generator cannot see) then cannot shadow them.
    static let types: Set<String> = [
        "ManagedObject", "FetchableManagedObject", "ManagedObjectContext", "ManagedObjectID", "ManagedObjectModel",
        "ManagedObjectModelVersions", "FetchRequest", "ObjectPredicate", "ObjectSortDescriptor", "ObjectID", "OrderedSet",
        "GeneratedModels", "GeneratedCodeContract", "CodableValueTransformer", ObjectDoor.type, ClassDoor.type,
        SnapshotValues.type, ModelLiteral.type,
    ]
}
