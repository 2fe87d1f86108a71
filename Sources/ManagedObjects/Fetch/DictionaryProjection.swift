import Foundation

/// What a dictionary fetch returns: Core Data's `NSDictionaryResultType` with its
/// `propertiesToFetch`, `propertiesToGroupBy` and `returnsDistinctResults`.
public struct DictionaryProjection: Sendable, Hashable {
    public var properties: [PropertyToFetch]
    public var groupBy: [String]
    public var returnsDistinctResults: Bool

    public init(properties: [PropertyToFetch], groupBy: [String] = [], returnsDistinctResults: Bool = false) {
        self.properties = properties
        self.groupBy = groupBy
        self.returnsDistinctResults = returnsDistinctResults
    }

    /// The columns for `propertiesToFetch == nil`: every stored attribute and to-one.
    static func allProperties(of entity: EntityDescription) -> [PropertyToFetch] {
        entity.properties.compactMap { property in
            switch property.kind {
            case .attribute(let attribute): attribute.isTransient ? nil : .property(attribute.name)
            case .relationship(let relationship):
                relationship.isToMany || relationship.isTransient ? nil : .property(relationship.name)
            case .fetchedProperty: nil
            }
        }
    }

    /// Throws `invalidFetchRequest` for what SQL could not answer either: with grouping, a
    /// property that is neither grouped by nor an aggregate; without, aggregates beside
    /// properties; key paths the model does not have; a to-many as a column.
    func check(for entity: EntityDescription, in request: String) throws {
        try entity.checkKeyPaths(properties.map(\.keyPath).filter { !$0.isEmpty } + groupBy, in: request)
        let aggregates = properties.filter { if case .expression = $0 { true } else { false } }
        let plain = properties.filter { if case .property = $0 { true } else { false } }
        for case .property(let keyPath) in properties where isToMany(keyPath, from: entity) {
            throw ManagedObjectError(
                .invalidFetchRequest, "\(request): '\(keyPath)' is a to-many relationship, which a dictionary cannot hold",
                entityName: entity.name, key: keyPath)
        }
        if !groupBy.isEmpty {
            for property in plain where !groupBy.contains(property.name) {
                throw ManagedObjectError(
                    .invalidFetchRequest,
                    "\(request): '\(property.name)' is fetched but neither grouped by nor an aggregate",
                    entityName: entity.name, key: property.name)
            }
        } else if !aggregates.isEmpty && !plain.isEmpty {
            throw ManagedObjectError(
                .invalidFetchRequest,
                "\(request): aggregates beside plain properties need propertiesToGroupBy",
                entityName: entity.name, key: plain[0].name)
        }
    }

    private func isToMany(_ keyPath: String, from entity: EntityDescription) -> Bool {
        var current = entity
        for step in keyPath.split(separator: ".").map(String.init) {
            guard let relationship = current.relationship(named: step) else { return false }
            if relationship.isToMany { return true }
            guard let destination = relationship.destinationEntity else { return false }
            current = destination
        }
        return false
    }

    /// Whether rows are groups (or one aggregate row) rather than one per object: then sort
    /// descriptors, offset and limit apply to the rows.
    var aggregatesRows: Bool {
        !groupBy.isEmpty || properties.contains { if case .expression = $0 { true } else { false } }
    }

    /// The rows for matching objects: sorted (objects by their key paths, or grouped rows by
    /// their columns), then windowed.
    func rows(of objects: [any KeyValueCoding], sortedBy sortDescriptors: [ObjectSortDescriptor],
              offset: Int, limit: Int) -> [[String: Any]] {
        guard aggregatesRows else {
            let sorted = sortDescriptors.isEmpty ? objects : sortDescriptors.sorted(objects.map(AnyKeyValueCoding.init)).map(\.base)
            return rows(of: Array(sorted.window(offset: offset, limit: limit)))
        }
        var rows = rows(of: objects)
        if !sortDescriptors.isEmpty {
            rows = sortDescriptors.sorted(rows.map(DictionaryRow.init)).map(\.values)
        }
        return Array(rows.window(offset: offset, limit: limit))
    }

    /// The result rows for matching objects in fetch order (a row per object, or per group).
    /// Keys whose value is `nil` are left out, as Core Data leaves them out.
    func rows(of objects: [any KeyValueCoding]) -> [[String: Any]] {
        let aggregates = properties.compactMap { if case .expression(let description) = $0 { description } else { nil } }
        var rows: [[String: Any]]
        if groupBy.isEmpty && !aggregates.isEmpty {
            var row: [String: Any] = [:]
            for aggregate in aggregates { row[aggregate.name] = aggregate.value(over: objects) }
            rows = [row]
        } else if groupBy.isEmpty {
            let paths = properties.map { ($0.name, CompiledKeyPath(keyValuePath: $0.keyPath)) }
            rows = objects.map { object in
                var row: [String: Any] = [:]
                for (name, path) in paths { row[name] = Self.columnValue(path.keyValue(of: object)) }
                return row
            }
        } else {
            let groupPaths = groupBy.map { ($0, CompiledKeyPath(keyValuePath: $0)) }
            var groups: [RowKey: (row: [String: Any], objects: [any KeyValueCoding])] = [:]
            var order: [RowKey] = []
            for object in objects {
                var row: [String: Any] = [:]
                for (name, path) in groupPaths { row[name] = Self.columnValue(path.keyValue(of: object)) }
                let key = RowKey(row)
                if groups[key] == nil {
                    groups[key] = (row, [])
                    order.append(key)
                }
                groups[key]?.objects.append(object)
            }
            rows = order.map { key in
                var (row, members) = groups[key]!
                for aggregate in aggregates { row[aggregate.name] = aggregate.value(over: members) }
                return row.filter { key, _ in properties.contains { $0.name == key } }
            }
        }
        if returnsDistinctResults {
            var seen = Set<RowKey>()
            rows = rows.filter { seen.insert(RowKey($0)).inserted }
        }
        return rows
    }

    /// A related object is given by its object ID, as Core Data gives one.
    private static func columnValue(_ value: Any?) -> Any? {
        guard let value = PredicateValues.normalized(value) else { return nil }
        if let object = value as? ObjectIdentifying, let objectID = object.objectIDValue.base as? ManagedObjectID {
            return objectID
        }
        return value
    }

    /// A row's values as a hashable key (values that are not hashable by their description).
    private struct RowKey: Hashable {
        let entries: [String: AnyHashable]

        init(_ row: [String: Any]) {
            entries = row.mapValues { value in
                if let scalar = ScalarValue.from(value), scalar.isNumber, let number = scalar.doubleValue {
                    return AnyHashable(number)  // 1 and 1.0 are the same value, as ValueComparison.equal says
                }
                return (value as? AnyHashable) ?? AnyHashable(String(describing: value))
            }
        }
    }
}
