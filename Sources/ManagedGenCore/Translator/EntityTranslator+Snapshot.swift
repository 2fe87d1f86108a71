import DataModelReader
import Foundation

// An entity's snapshot (option `snapshots`, user info `managedgen.snapshots`): a `Sendable`,
// `Codable`, `Hashable` struct nested in the class with the object's ID and its stored
// properties (attributes typed as the class types them, to-ones as a typed ID, to-manys as an
// array of them), `apply(to:)` to write it back, the class's `snapshot()` and
// `fetchSnapshots(where:sortedBy:in:)`; on the root class of a class tree, the `AnySnapshot`
// enum over its concrete entities. The reading and writing are the runtime's
// (`SnapshotValues`, `readSnapshots`, `setToOneObjectID`, …), called by property index.
extension EntityTranslator {
    /// `SnapshotValues` of the object now, from its door.
    fileprivate var snapshotValuesCall: String { "\(RuntimeContract.door).\(RuntimeContract.ObjectDoor.snapshotValues)()" }

    /// One stored property of the snapshot.
    fileprivate struct Field {
        var name: String
        var type: String
        /// Reads it from `values` (`SnapshotValues`).
        var read: String
        /// Writes it to `object`; `nil` for a derived attribute (the store computes it).
        var write: String?
    }

    /// The extension with the snapshot and the tree's `AnySnapshot`, or nothing when the entity has neither.
    func snapshotDeclarations() -> [Declaration] {
        var members: [Declaration] = []
        if let snapshotName = plan.snapshotTypeName { members += snapshotMembers(SwiftNames.escaped(snapshotName)) }
        if let anySnapshotName = plan.anySnapshotTypeName { members += anySnapshotMembers(SwiftNames.escaped(anySnapshotName)) }
        return members.isEmpty ? [] : [.extension(ExtensionDeclaration(extendedType: className, members: members))]
    }

    /// The struct, `snapshot()` and the fetches. A class with subclasses marks its `snapshot()`
    /// and fetches `@_disfavoredOverload`, so that on a subclass the subclass's own are chosen,
    /// and fetches the rows of its own entity only: its struct has no field of a sub-entity.
    private func snapshotMembers(_ snapshotType: String) -> [Declaration] {
        let chain = index.model.inheritanceChain(of: plan.entity)
        var fields: [Field] = []
        var leftOut: [String] = []
        for entity in chain {
            for attribute in entity.attributes where !attribute.isTransient {
                if let field = attributeField(attribute) { fields.append(field) } else { leftOut.append(attribute.name) }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                fields.append(relationshipField(relationship))
            }
        }
        var documentation = [
            "The stored values of a `\(plan.entity.name)`, as a value that may cross tasks, be encoded (related objects as",
            "their typed IDs) and be compared: `snapshot()`, `fetchSnapshots(where:sortedBy:in:)`; `apply(to:)` writes it back.",
        ]
        if !leftOut.isEmpty {
            documentation.append("Left out (their types are not Sendable, Codable and Hashable): \(leftOut.map { "`\($0)`" }.joined(separator: ", ")).")
        }
        let objectIDType = types.runtime("ObjectID") + "<\(className)>"
        var members: [Declaration] = [
            .variable(VariableDeclaration(access: access, isLet: true, name: "objectID", type: objectIDType)),
        ]
        members += fields.map { .variable(VariableDeclaration(access: access, name: $0.name, type: $0.type)) }
        members.append(.initializer(InitializerDeclaration(
            access: nil, parameters: [Parameter(label: "_", name: "values", type: types.runtime(RuntimeContract.SnapshotValues.type))],
            body: ["self.objectID = values.\(RuntimeContract.SnapshotValues.objectID)()"] + fields.map { "self.\($0.name) = \($0.read)" })))
        members.append(.function(
            FunctionDeclaration(
                access: access, name: "apply", parameters: [Parameter(label: "to", name: "object", type: className)],
                isThrowing: true, body: fields.compactMap(\.write)),
            documentation: [
                "Writes these values into `object` (its ID aside); related objects are found by ID in its context.",
                "- Throws: `ManagedObjectError` (133000) for a related ID no store of the context has.",
            ]))
        let conformances = ["Sendable", "Codable", "Hashable"].map(types.swift)
        let snapshot = Declaration.type(
            TypeDeclaration(.struct, access: access, name: snapshotType, inheritance: conformances, members: members),
            documentation: documentation)
        let disfavored = plan.hasSubentities ? ["@_disfavoredOverload"] : []
        let snapshotFunction = Declaration.function(
            FunctionDeclaration(
                attributes: disfavored, access: access, name: "snapshot", returnType: snapshotType,
                body: ["\(snapshotType)(\(snapshotValuesCall))"]),
            documentation: ["The object's values now, unsaved changes included."])
        var fetchDocumentation = [
            "The saved `\(plan.entity.name)` objects matching `predicate`, sorted, read from the store's rows into snapshots",
            "without making objects. Unsaved changes of `context` are not seen (those of a parent context are).",
        ]
        if plan.hasSubentities {
            fetchDocumentation.append("Objects of its sub-entities are left out: this snapshot cannot hold their values.")
        }
        return [snapshot, snapshotFunction] + snapshotFetches(
            name: "fetchSnapshots", result: snapshotType, includingSubentities: !plan.hasSubentities,
            attributes: disfavored, documentation: fetchDocumentation)
    }

    /// `fetchSnapshots(where:sortedBy:in:)` (or `fetchAnySnapshots`) with a format-string
    /// predicate and with a `#Predicate`, each making `result`s of the rows as the store reads them.
    private func snapshotFetches(
        name: String, result: String, includingSubentities: Bool, attributes: [String], documentation: [String]
    ) -> [Declaration] {
        let subentities = includingSubentities ? "" : ", includingSubentities: false"
        let body = ["try \(RuntimeContract.door).\(RuntimeContract.ClassDoor.readSnapshots)(predicate, sortedBy: sortDescriptors\(subentities), in: context) {", "    \(result)($0)", "}"]
        let format = FunctionDeclaration(
            attributes: attributes, access: access, modifiers: [.static], name: name,
            parameters: [
                Parameter(label: "where", name: "predicate", type: "\(types.predicate)?", defaultValue: "nil"),
                Parameter(label: "sortedBy", name: "sortDescriptors", type: "[\(types.sortDescriptor)]", defaultValue: "[]"),
                Parameter(label: "in", name: "context", type: types.context),
            ],
            isThrowing: true, returnType: "[\(result)]", body: body)
        let typed = FunctionDeclaration(
            attributes: ["@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)"] + attributes, access: access,
            modifiers: [.static], name: name,
            parameters: [
                Parameter(label: "where", name: "predicate", type: "\(types.foundation("Predicate"))<\(className)>"),
                Parameter(
                    label: "sortedBy", name: "sortDescriptors", type: "[\(types.foundation("SortDescriptor"))<\(className)>]",
                    defaultValue: "[]"),
                Parameter(label: "in", name: "context", type: types.context),
            ],
            isThrowing: true, returnType: "[\(result)]", body: body)
        return [
            .function(format, documentation: documentation),
            .function(typed, documentation: documentation + ["A typed predicate and sorts (`#Predicate`), as `fetch(where:sortedBy:in:)` takes."]),
        ]
    }

    /// The enum over the snapshots of the class tree this class is the root of: one case per
    /// concrete entity, `anySnapshot()`, and fetches of the rows of the entity and every
    /// sub-entity, as Core Data's fetch returns them (called on a subclass: of its entity and its sub-entities).
    private func anySnapshotMembers(_ enumType: String) -> [Declaration] {
        let concrete = index.tree(of: plan.entity).filter { !$0.isAbstract }.map(index.plan(for:))
        func caseName(_ plan: ModelIndex.EntityPlan) -> String { SwiftNames.escaped(SwiftNames.lowercasingFirst(plan.className)) }
        func snapshotType(_ plan: ModelIndex.EntityPlan) -> String {
            "\(SwiftNames.escaped(plan.className)).\(SwiftNames.escaped(plan.snapshotTypeName ?? "Snapshot"))"
        }
        var members: [Declaration] = concrete.map { Declaration(.enumCase(name: "\(caseName($0))(\(snapshotType($0)))")) }
        var body = ["switch values.\(RuntimeContract.SnapshotValues.entityName) {"]
        for (offset, entityPlan) in concrete.enumerated() {
            let label = offset == concrete.count - 1 ? "default" : "case \(SwiftNames.stringLiteral(entityPlan.entity.name))"
            body += ["\(label): self = .\(caseName(entityPlan))(\(snapshotType(entityPlan))(values))"]
        }
        body.append("}")
        members.append(.initializer(InitializerDeclaration(
            access: nil, parameters: [Parameter(label: "_", name: "values", type: types.runtime(RuntimeContract.SnapshotValues.type))],
            body: body)))
        let conformances = ["Sendable", "Codable", "Hashable"].map(types.swift)
        let anySnapshot = Declaration.type(
            TypeDeclaration(.enum, access: access, name: enumType, inheritance: conformances, members: members),
            documentation: [
                "The snapshot of any object of the `\(plan.entity.name)` class tree: one case per concrete entity, with that",
                "entity's snapshot. `anySnapshot()`, `fetchAnySnapshots(where:sortedBy:in:)`.",
            ])
        let anySnapshotFunction = Declaration.function(
            FunctionDeclaration(access: access, name: "anySnapshot", returnType: enumType, body: ["\(enumType)(\(snapshotValuesCall))"]),
            documentation: ["The object's values now, unsaved changes included, in the case of its entity."])
        return [anySnapshot, anySnapshotFunction] + snapshotFetches(
            name: "fetchAnySnapshots", result: enumType, includingSubentities: true, attributes: [],
            documentation: [
                "The saved objects of this class's entity and its sub-entities matching `predicate`, sorted, read from the",
                "store's rows into snapshots without making objects. Unsaved changes of `context` are not seen.",
            ])
    }

    /// The attribute as a field: typed as the class types it, except `NSNumber?` (Xcode's
    /// non-scalar numbers), which is the Swift number, optional; a non-optional type with no
    /// value to read for nothing stored is optional (a snapshot never traps). `nil` for a type
    /// that cannot be in a snapshot.
    private func attributeField(_ attribute: Attribute) -> Field? {
        let propertyIndex = plan.propertyIndex(of: attribute.name)!
        let name = swiftName(attribute.name)
        let write = attribute.isDerived ? nil : mapper.attributeWrite(attribute, "self.\(name)", at: propertyIndex, of: "object")
        if let swiftType = mapper.swiftType(of: attribute) {
            let read = mapper.rawValueRead(attribute, type: swiftType, at: propertyIndex, receiver: "values")
            return Field(name: name, type: read.type, read: read.expression, write: write)
        }
        guard isSnapshotSafe(attribute) else { return nil }
        let storage = mapper.storageType(of: attribute).type
        // The typed reads where the storage has one (`values.string(at: 1)`): a concrete call,
        // which the runtime specializes; the generic one from another module is not.
        let generic = "values.\(RuntimeContract.SnapshotValues.attribute)"
        let optional = Field(
            name: name, type: "\(storage)?",
            read: mapper.typedAttributeRead(attribute, at: propertyIndex, from: "values") ?? "\(generic)(at: \(propertyIndex))",
            write: write)
        let numberAsObject = index.options.optionality == .xcode && !mapper.usesScalar(attribute) && attribute.type.isNumeric && attribute.type != .decimal
        guard !numberAsObject, !mapper.isOptionalProperty(attribute),
              let fallback = mapper.fallbackValue(for: attribute, override: nil) else { return optional }
        let read = mapper.typedAttributeRead(attribute, at: propertyIndex, from: "values", fallback: fallback)
            ?? "\(generic)(at: \(propertyIndex), default: \(fallback))"
        return Field(name: name, type: storage, read: read, write: write)
    }

    /// Value types from the standard library and Foundation, which are Sendable, Codable and Hashable.
    private static let safeTypeNames: Set<String> = [
        "String", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "Date", "Data", "URL", "UUID", "Decimal",
    ]

    /// Whether the attribute's storage type can be a snapshot's: plain attribute types, and
    /// Transformables typed as arrays, sets and dictionaries of the safe types.
    private func isSnapshotSafe(_ attribute: Attribute) -> Bool {
        switch attribute.type {
        case .objectID, .undefined, .composite: return false
        case .transformable:
            guard mapper.codableType(of: attribute) == nil else { return false }
            let type = mapper.transformableType(attribute.customClassName).type
            var text = type
            for prefix in ["Swift.", "Foundation."] { text = text.replacingOccurrences(of: prefix, with: "") }
            let tokens = text.split(whereSeparator: { "[]:<> ,".contains($0) }).map(String.init).filter { $0 != "Set" }
            return !tokens.isEmpty && tokens.allSatisfy(Self.safeTypeNames.contains)
        default: return true
        }
    }

    private func relationshipField(_ relationship: Relationship) -> Field {
        let propertyIndex = plan.propertyIndex(of: relationship.name)!
        let name = swiftName(relationship.name)
        let id = types.runtime("ObjectID") + "<\(index.classReference(for: relationship.destinationEntity))>"
        let door = TypeMapper.door(of: "object")
        if relationship.isToMany {
            return Field(
                name: name, type: "[\(id)]", read: "values.\(RuntimeContract.SnapshotValues.toMany)(at: \(propertyIndex))",
                write: "try \(door).\(RuntimeContract.ObjectDoor.setToManyIDs)(self.\(name), at: \(propertyIndex))")
        }
        return Field(
            name: name, type: "\(id)?", read: "values.\(RuntimeContract.SnapshotValues.toOne)(at: \(propertyIndex))",
            write: "try \(door).\(RuntimeContract.ObjectDoor.setToOneID)(self.\(name), at: \(propertyIndex))")
    }
}
