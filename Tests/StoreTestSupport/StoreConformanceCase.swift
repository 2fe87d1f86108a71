import DataModel
import Foundation
import ManagedObjects

/// A case of the conformance table run as a fetch: its object (a record or a dictionary, or
/// nothing for predicates of constants) becomes a saved object, nested records becoming related
/// objects (to-one, or ordered to-many for arrays of them), every other value a Transformable
/// attribute (typed: an attribute of the value's type, for stores that keep typed columns). Every
/// store test target runs the same cases (in-memory, SQLite, PostgreSQL).
package struct StoreConformanceCase {
    package let line: Int
    package let format: String
    package let predicate: ObjectPredicate
    /// The saved object's values, as ``shape`` lays them out.
    package let values: [String: Any]
    package let shape: ConformanceShape
    /// What the table says the predicate answers for the object.
    package let expected: Bool

    /// The table's cases a store can run, and how many were left out for each reason.
    package static func all(typed: Bool) -> (cases: [StoreConformanceCase], skipped: [String: Int]) {
        var cases: [StoreConformanceCase] = []
        var skipped: [String: Int] = [:]
        for testCase in PredicateConformanceSuite.all() {
            guard case .result(let expected) = testCase.expected else {
                skipped["an error case", default: 0] += 1
                continue
            }
            // Nothing stands for a predicate of constants: any object will do.
            guard let values = testCase.object == nil ? [:] : ConformanceShape.record(testCase.object as Any) else {
                skipped["the object is no record", default: 0] += 1
                continue
            }
            guard var predicate = try? ObjectPredicate(parsing: testCase.format, arguments: testCase.arguments) else {
                // The table's own test (PredicateConformanceTests) fails for it.
                skipped["the predicate does not build", default: 0] += 1
                continue
            }
            if !testCase.variables.isEmpty { predicate = predicate.withSubstitutionVariables(testCase.variables) }
            // SELF is the record itself, which a managed object is not.
            guard !testCase.format.lowercased().contains("self") else {
                skipped["SELF", default: 0] += 1
                continue
            }
            let shape = ConformanceShape("Record", typed: typed)
            guard shape.add(values) else {
                skipped["values a store cannot hold", default: 0] += 1
                continue
            }
            for keyPath in predicate.keyPathsRead { shape.reserve(keyPath.split(separator: ".").map(String.init)[...]) }
            cases.append(StoreConformanceCase(
                line: testCase.line, format: testCase.format, predicate: predicate, values: values, shape: shape, expected: expected))
        }
        return (cases, skipped)
    }
}

/// An object graph as entities: each nested place gets an entity of its own.
package final class ConformanceShape {
    package let name: String
    /// Whether attributes get the type of their values (a store that keeps typed columns
    /// needs it); otherwise every attribute is Transformable and holds any value.
    let typed: Bool
    var attributes: Set<String> = []
    var attributeTypes: [String: AttributeType] = [:]
    var toOne: [String: ConformanceShape] = [:]
    var toMany: [String: ConformanceShape] = [:]

    package init(_ name: String, typed: Bool = false) {
        self.name = name
        self.typed = typed
    }

    /// The attribute type that stores `value` as it is; `nil` for a value only a
    /// Transformable attribute holds.
    package static func attributeType(of value: Any) -> AttributeType? {
        switch value {
        case is Bool: .boolean
        case is Int, is Int64, is Int32, is Int16, is Int8, is UInt8, is UInt16, is UInt32: .integer64
        case is Double, is Float: .double
        case is Decimal: .decimal
        case is String: .string
        case is Date: .date
        case is Data: .binary
        case is UUID: .uuid
        case is URL: .uri
        default: nil
        }
    }

    package var all: [ConformanceShape] { [self] + toOne.values.flatMap(\.all) + toMany.values.flatMap(\.all) }

    package var entity: Entity {
        Entity(
            name: name,
            attributes: attributes.subtracting(toOne.keys).subtracting(toMany.keys).sorted()
                .map { Attribute(name: $0, type: typed ? attributeTypes[$0] ?? .string : .transformable, isOptional: true) },
            relationships: toOne.keys.sorted().map { Relationship(name: $0, destinationEntity: toOne[$0]!.name, isOptional: true) }
                + toMany.keys.sorted().map {
                    Relationship(name: $0, destinationEntity: toMany[$0]!.name, isToMany: true, isOrdered: true, isOptional: true)
                })
    }

    /// Adds what `values` holds; `nil` when a value cannot be stored (a mix of records
    /// and other values in one array, an object that only stands for an ID).
    package func add(_ values: [String: Any]) -> Bool {
        for (key, value) in values {
            if let record = Self.record(value) {
                let shape = toOne[key] ?? ConformanceShape("\(name)_\(key)", typed: typed)
                toOne[key] = shape
                guard shape.add(record) else { return false }
            } else if let array = value as? [Any], !array.isEmpty, array.contains(where: { Self.record($0) != nil }) {
                let records = array.compactMap(Self.record)
                guard records.count == array.count else { return false }
                let shape = toMany[key] ?? ConformanceShape("\(name)_\(key)", typed: typed)
                toMany[key] = shape
                for record in records where !shape.add(record) { return false }
            } else if value is ObjectIdentifying {
                return false
            } else {
                if typed {
                    // NSNull is stored as nil, which any type holds.
                    if !(value is NSNull) {
                        guard let type = Self.attributeType(of: value), attributeTypes[key].map({ $0 == type }) ?? true
                        else { return false }
                        attributeTypes[key] = type
                    }
                }
                attributes.insert(key)
            }
        }
        return true
    }

    /// Makes sure a key path read by the predicate exists, as attributes at its end.
    package func reserve(_ keys: ArraySlice<String>) {
        guard let key = keys.first, !key.hasPrefix("@"), key.lowercased() != "self" else { return }
        if let shape = toOne[key] ?? toMany[key] {
            shape.reserve(keys.dropFirst())
        } else {
            attributes.insert(key)
        }
    }

    package static func record(_ value: Any) -> [String: Any]? {
        if value is PredicateStoredTestRecord { return nil }
        if let record = value as? PredicateTestRecord { return record.values }
        return value as? [String: Any]
    }

    /// Inserts the graph's objects, `values` at the root.
    package func insert(_ values: [String: Any], into context: ManagedObjectContext, model: ManagedObjectModel) -> ManagedObject {
        let object = ManagedObject(entity: model[name]!, insertInto: context)
        for (key, value) in values {
            if let shape = toOne[key], let record = Self.record(value) {
                object.setValue(shape.insert(record, into: context, model: model), forKey: key)
            } else if let shape = toMany[key], let array = value as? [Any] {
                let members = array.compactMap(Self.record).map { shape.insert($0, into: context, model: model) }
                object.setValue(members, forKey: key)
            } else {
                object.setValue(typed && value is NSNull ? nil : value, forKey: key)
            }
        }
        return object
    }
}
