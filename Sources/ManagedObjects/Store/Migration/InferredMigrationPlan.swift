import DataModel
import Foundation

/// The mapping Core Data's lightweight migration infers between two versions, as SQL that
/// copies the source version's rows (tables qualified by `sourceQualifier`: the SQLite store's
/// attached file, the PostgreSQL store's schema the old tables moved to) into the destination
/// version's tables. One inference for every store; only the SQL's spelling follows `dialect`.
///
/// Each destination entity takes the rows of the source entity named by its renaming identifier,
/// else by its name (none: an added entity, no rows); each property the value of the source
/// property matched the same way:
/// - an attribute: the source column (numbers convert to one another); none, or
///   `nil` where the destination is required: the model's default;
/// - a to-one: the source foreign key, else the pairs the source kept for the relationship or its
///   inverse (a to-many, a join table), the first related object when there were several;
/// - a many-to-many's join table: those pairs;
/// - an ordered to-many's order: the source's where it was ordered, else (made ordered) the
///   order of the members' keys.
/// Object keys (`Z_PK`) and `Z_OPT` stay, except for the rows of an entity moved into another
/// entity's table (a new parent entity over entities of two tables): their keys move past the
/// table's (as do the foreign keys and join rows that point to them). Entity numbers are the
/// destination's own.
///
/// Not inferred (134140, naming the entity and property): type changes other than between
/// numbers (and String → URI).
package struct InferredMigrationPlan {
    let dialect: SQLDialect
    /// What names the source version's tables in the statements (`<qualifier>.<table>`).
    let sourceQualifier: String
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    let sourceSchema: CoreDataSchema
    package let destinationSchema: CoreDataSchema

    /// Added to the keys of a source table's rows (by table name): 0 but for an entity moved
    /// into a table whose keys its own would collide with.
    let keyOffsets: [String: Int64]
    let sourceHighestKeys: [String: Int64]

    /// `sourceHighestKeys`: by source table, the highest key it handed out.
    package init(
        source: ManagedObjectModel, destination: ManagedObjectModel, sourceSchema: CoreDataSchema,
        destinationSchema: CoreDataSchema, sourceHighestKeys: [String: Int64],
        dialect: SQLDialect = .sqlite, sourceQualifier: String = "source"
    ) throws {
        self.dialect = dialect
        self.sourceQualifier = sourceQualifier
        self.source = source
        self.destination = destination
        self.sourceSchema = sourceSchema
        self.destinationSchema = destinationSchema
        self.sourceHighestKeys = sourceHighestKeys
        // Each destination table takes its key ranges from its source tables one after the
        // other: the first keeps its keys, the next start past the highest so far.
        var offsets: [String: Int64] = [:]
        var ranges: [String: [(table: String, lower: Int64, upper: Int64)]] = [:]
        for entity in CoreDataSchema.numberingOrder(of: destination) {
            guard let origin = Self.sourceEntity(for: entity, in: source) else { continue }
            let table = destinationSchema.table(of: entity).name
            let sourceTable = sourceSchema.table(of: origin).name
            guard !(ranges[table] ?? []).contains(where: { $0.table == sourceTable }) else { continue }
            let highest = sourceHighestKeys[sourceTable] ?? 0
            let offset = offsets[sourceTable] ?? (ranges[table] ?? []).map(\.upper).max() ?? 0
            let lower = offset + 1, upper = offset + highest
            if let clash = (ranges[table] ?? []).first(where: { $0.lower <= upper && lower <= $0.upper }), highest > 0 {
                throw ManagedObjectError(
                    .migrationMissingMappingModel,
                    "cannot infer a mapping that puts \(entity.name) (rows of \(sourceTable)) in \(table) beside the rows of \(clash.table): "
                        + "their keys would collide and \(sourceTable) already moved elsewhere",
                    entityName: entity.name)
            }
            offsets[sourceTable] = offset
            ranges[table, default: []].append((sourceTable, lower, upper))
        }
        keyOffsets = offsets
    }

    /// `key` (a key of a row of source table `table`) as the destination's key.
    func shifted(_ key: String, from table: String) -> String {
        let offset = keyOffsets[table] ?? 0
        return offset == 0 ? key : "(\(key) + \(offset))"
    }

    func sourceTable(of entity: EntityDescription) -> String { sourceSchema.table(of: entity).name }

    /// A statement of the copy, `?` for its arguments, naming the entity whose rows it writes.
    package struct Statement {
        package var entity: String
        package var sql: String
        package var arguments: [SQLValue]
    }

    /// A source table in the statements.
    private func qualified(_ table: String) -> String { "\(sourceQualifier).\(table)" }

    /// The source entity whose rows `entity` takes: by renaming identifier, else by name.
    func sourceEntity(for entity: EntityDescription) -> EntityDescription? {
        Self.sourceEntity(for: entity, in: source)
    }

    static func sourceEntity(for entity: EntityDescription, in source: ManagedObjectModel) -> EntityDescription? {
        entity.entity.renamingIdentifier.flatMap { source[$0] } ?? source[entity.name]
    }

    /// The source property `property` of `entity` takes its values from.
    func sourceProperty(for property: PropertyDescription, of entity: EntityDescription) -> PropertyDescription? {
        Self.sourceProperty(for: property, of: entity, in: source)
    }

    static func sourceProperty(for property: PropertyDescription, of entity: EntityDescription, in source: ManagedObjectModel) -> PropertyDescription? {
        guard let sourceEntity = sourceEntity(for: entity, in: source) else { return nil }
        let renamingIdentifier: String? = switch property.kind {
        case .attribute(let attribute): attribute.attribute.renamingIdentifier
        case .relationship(let relationship): relationship.relationship.renamingIdentifier
        case .fetchedProperty: nil
        }
        return renamingIdentifier.flatMap { sourceEntity.property(named: $0) } ?? sourceEntity.property(named: property.name)
    }

    /// The destination columns of Binary attributes that allow external storage in one version
    /// and not in the other: copied as they are, their SQLite cells need Core Data's marker
    /// added (`toExternal`) or taken away afterwards (`ExternalBinaryData`).
    package func toggledExternalBinaryColumns() -> [(table: String, column: String, toExternal: Bool)] {
        var columns: [(table: String, column: String, toExternal: Bool)] = []
        for entity in destination.entities {
            for attribute in entity.attributes where attribute.type == .binary {
                guard case .attribute(let sourceAttribute)? = sourceProperty(for: attribute, of: entity)?.kind,
                      sourceAttribute.type == .binary,
                      sourceAttribute.attribute.allowsExternalBinaryDataStorage != attribute.attribute.allowsExternalBinaryDataStorage,
                      case .attribute(let column, _)? = destinationSchema.storage[entity.name]?[attribute.index] else { continue }
                let table = destinationSchema.table(of: entity).name
                if !columns.contains(where: { $0.table == table && $0.column == column }) {
                    columns.append((table, column, attribute.attribute.allowsExternalBinaryDataStorage))
                }
            }
        }
        return columns
    }

    /// The statements that fill the destination's (empty) tables, in order.
    package func copyStatements() throws -> [Statement] {
        var statements: [Statement] = []
        // Entity columns of to-ones read from pairs name rows that may be copied later.
        var entityColumnUpdates: [Statement] = []
        for entity in CoreDataSchema.numberingOrder(of: destination) {
            guard let origin = sourceEntity(for: entity), let number = destinationSchema.entityNumbers[entity.name],
                  let sourceNumber = sourceSchema.entityNumbers[origin.name] else { continue }
            let table = destinationSchema.table(of: entity).name
            let sourceTable = sourceTable(of: origin)
            var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
            var values = [shifted("s.Z_PK", from: sourceTable), String(number), "s.Z_OPT"]
            var arguments: [SQLValue] = []
            for (property, storage) in zip(entity.properties, destinationSchema.storage[entity.name] ?? []) {
                switch storage {
                case .attribute(let column, _):
                    guard case .attribute(let attribute) = property.kind,
                          let value = try attributeValue(attribute, of: entity) else { continue }
                    columns.append(column)
                    values.append(value.sql)
                    arguments += value.arguments
                case .composite(let elements):
                    // Each element the source composite has too (same path below the attribute)
                    // is copied, converted as an attribute would be; an added element starts
                    // NULL and a removed one is left behind, as Core Data infers.
                    guard case .attribute(let attribute) = property.kind,
                          case .attribute(let sourceAttribute)? = sourceProperty(for: attribute, of: entity)?.kind,
                          let sourceEntity = sourceEntity(for: entity),
                          case .composite(let sourceElements)? = sourceSchema.storage[sourceEntity.name]?[sourceAttribute.index] else { continue }
                    for element in elements {
                        guard let source = sourceElements.first(where: { $0.path == element.path }) else { continue }
                        columns.append(element.column)
                        values.append(try conversion(
                            of: "s.\(source.column)", from: source.type, to: element.type, entity: entity.name,
                            attribute: ([attribute.name] + element.path).joined(separator: ".")))
                    }
                case .toOne(let column, let entityColumn):
                    guard case .relationship(let relationship) = property.kind, let key = toOneKey(relationship, of: entity) else { continue }
                    columns.append(column)
                    values.append(key.shifted)
                    if let entityColumn, let target = relationship.destinationEntity {
                        // The related row's entity: looked up in the source row it came from,
                        // else (pairs) in the copied rows once all are.
                        if let sourceTable = key.sourceTable {
                            columns.append(entityColumn)
                            values.append("(SELECT \(entityNumberMapping("d.Z_ENT")) FROM \(qualified(sourceTable)) d WHERE d.Z_PK = \(key.raw))")
                        } else {
                            entityColumnUpdates.append(Statement(
                                entity: entity.name,
                                sql: """
                                    UPDATE \(table) SET \(entityColumn) = (SELECT d.Z_ENT FROM \(destinationSchema.table(of: target).name) d \
                                    WHERE d.Z_PK = \(table).\(column)) WHERE Z_ENT = \(number) AND \(column) IS NOT NULL
                                    """,
                                arguments: []))
                        }
                    }
                default:
                    continue
                }
            }
            statements.append(Statement(
                entity: entity.name,
                sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(qualified(sourceTable)) s WHERE s.Z_ENT = \(sourceNumber)",
                arguments: arguments))
        }
        statements += entityColumnUpdates
        statements += joinTableStatements()
        statements += ownerKeptForeignKeyStatements()
        statements += orderStatements()
        return statements
    }

    /// Fills the owner's key of each destination to-many without inverse kept in its
    /// destination's rows (``CoreDataSchema/ownerKeptForeignKeys``) from the pairs the source kept,
    /// once every row is in: no to-one of the destination writes that column.
    private func ownerKeptForeignKeyStatements() -> [Statement] {
        var statements: [Statement] = []
        for entity in destination.entities {
            let inheritedCount = entity.superentity?.properties.count ?? 0
            for case .relationship(let relationship) in entity.properties[inheritedCount...].map(\.kind)
            where destinationSchema.ownerKeptForeignKeys.contains(ObjectIdentifier(relationship)) {
                guard case .toManyByInverse(let table, let foreignKey, _)? = destinationSchema.storage[entity.name]?[relationship.index],
                      let pairs = sourcePairs(for: relationship) else { continue }
                statements.append(Statement(
                    entity: entity.name,
                    sql: """
                        UPDATE \(table) SET \(foreignKey) = (SELECT MIN(own) FROM (\(pairs)) AS pairs WHERE pairs.other = \(table).Z_PK) \
                        WHERE Z_PK IN (SELECT other FROM (\(pairs)) AS members)
                        """,
                    arguments: []))
            }
        }
        return statements
    }

    /// Fills the order of each ordered to-many once its pairs are in: the order the source kept
    /// for the same pairs (an ordered relationship before), else (unordered before) the order
    /// of the members' keys, the order their rows were stored in.
    private func orderStatements() -> [Statement] {
        var statements: [Statement] = []
        for entity in destination.entities {
            let inheritedCount = entity.superentity?.properties.count ?? 0
            for (property, storage) in zip(entity.properties, destinationSchema.storage[entity.name] ?? []).dropFirst(inheritedCount) {
                guard case .relationship(let relationship) = property.kind, relationship.isOrdered else { continue }
                let table: String, owner: String, member: String, order: String
                switch storage {
                case .toManyByInverse(let rows, let foreignKey, let column?):
                    (table, owner, member, order) = (rows, foreignKey, "Z_PK", column)
                case .toManyByJoin(let join, let side):
                    guard let column = join.orderColumn(ownedBy: side) else { continue }
                    (table, owner, member, order) = (join.name, join.column(side), join.otherColumn(side), column)
                default:
                    continue
                }
                let value = sourceOrder(of: relationship, of: entity, owner: "\(table).\(owner)", member: "\(table).\(member)")
                    ?? "(SELECT COUNT(*) FROM \(table) m WHERE m.\(owner) = \(table).\(owner) AND m.\(member) <= \(table).\(member))"
                statements.append(Statement(
                    entity: entity.name,
                    sql: "UPDATE \(table) SET \(order) = \(value) WHERE \(owner) IS NOT NULL",
                    arguments: []))
            }
        }
        return statements
    }

    /// The order the source kept for the pair `owner`, `member` (SQL for destination keys) of
    /// `relationship`: `nil` when its source relationship was not ordered.
    private func sourceOrder(of relationship: RelationshipDescription, of entity: EntityDescription, owner: String, member: String) -> String? {
        guard case .relationship(let sourceRelationship)? = sourceProperty(for: relationship, of: entity)?.kind,
              sourceRelationship.isOrdered, let sourceOwner = sourceRelationship.entity,
              let sourceMember = sourceRelationship.destinationEntity else { return nil }
        let (ownerTable, memberTable) = (sourceTable(of: sourceOwner), sourceTable(of: sourceMember))
        switch sourceSchema.storage[sourceOwner.name]?[sourceRelationship.index] {
        case .toManyByInverse(let rows, let foreignKey, let column?)?:
            return """
                (SELECT s.\(column) FROM \(qualified(rows)) s WHERE \(shifted("s.Z_PK", from: memberTable)) = \(member) \
                AND \(shifted("s.\(foreignKey)", from: ownerTable)) = \(owner))
                """
        case .toManyByJoin(let join, let side)?:
            guard let column = join.orderColumn(ownedBy: side) else { return nil }
            return """
                (SELECT s.\(column) FROM \(qualified(join.name)) s WHERE \(shifted("s.\(join.column(side))", from: ownerTable)) = \(owner) \
                AND \(shifted("s.\(join.otherColumn(side))", from: memberTable)) = \(member))
                """
        default:
            return nil
        }
    }

    /// The value of `attribute` for a row `s` of the source entity; `nil` for NULL.
    private func attributeValue(_ attribute: AttributeDescription, of entity: EntityDescription) throws -> (sql: String, arguments: [SQLValue])? {
        var sql: String?
        if case .attribute(let sourceAttribute)? = sourceProperty(for: attribute, of: entity)?.kind,
           let sourceEntity = sourceEntity(for: entity),
           case .attribute(let column, let sourceType)? = sourceSchema.storage[sourceEntity.name]?[sourceAttribute.index] {
            sql = try conversion(of: "s.\(column)", from: sourceType, to: attribute.type, entity: entity.name, attribute: attribute.name)
        }
        let defaultValue = try CoreDataValues.cell(attribute.defaultValue, type: attribute.type, attribute: attribute.name)
        guard !defaultValue.isNull, !attribute.isOptional || sql == nil else { return sql.map { ($0, []) } }
        let parameter = parameter(of: attribute.type)
        return (sql.map { "COALESCE(\($0), \(parameter))" } ?? parameter, [defaultValue])
    }

    /// A parameter holding a value of `type`: PostgreSQL types it as the column's type (a
    /// parameter in a SELECT list has no type of its own there).
    private func parameter(of type: AttributeType) -> String {
        guard dialect == .postgreSQL, let columnType = CoreDataSchema.columnType(of: type) else { return "?" }
        return "CAST(? AS \(CoreDataSchema.columnType(columnType, dialect: dialect)))"
    }

    /// A source column's value as the destination type, when Core Data infers that change.
    func conversion(
        of column: String, from sourceType: AttributeType, to type: AttributeType, entity: String, attribute: String
    ) throws -> String {
        // Numbers convert to one another, as Core Data's inferred mappings convert NSNumbers:
        // to Boolean non-zero is true, to an integer the fraction goes.
        let integers: Set<AttributeType> = [.integer16, .integer32, .integer64]
        let fractions: Set<AttributeType> = [.double, .float, .decimal]
        if sourceType == type { return column }
        if sourceType.isNumeric, type.isNumeric {
            // PostgreSQL keeps Booleans as integers too; its casts to an integer round, trunc() does not.
            if type == .boolean { return dialect == .sqlite ? "(\(column) != 0)" : "CAST((\(column) != 0) AS INTEGER)" }
            if integers.contains(type) {
                if integers.contains(sourceType) || sourceType == .boolean { return column }
                return dialect == .sqlite ? "CAST(\(column) AS INTEGER)" : "CAST(trunc(\(column)) AS BIGINT)"
            }
            if fractions.contains(type) {
                if fractions.contains(sourceType) && type != .decimal { return column }
                return dialect == .sqlite ? "CAST(\(column) AS REAL)" : "CAST(\(column) AS \(type == .decimal ? "NUMERIC" : "DOUBLE PRECISION"))"
            }
        }
        if sourceType == .string, type == .uri { return column }
        throw ManagedObjectError(
            .migrationMissingMappingModel,
            "cannot infer a mapping for \(entity).\(attribute) from type \(sourceType.rawValue) to \(type.rawValue); it needs a mapping model",
            entityName: entity, key: attribute)
    }

    /// The foreign key of a to-one for a source row `s`, as SQL: as the destination's key, and
    /// (when it comes from the row's own column) as the source's with the table it points to;
    /// `nil` when the source kept no such pairs.
    private func toOneKey(
        _ relationship: RelationshipDescription, of entity: EntityDescription
    ) -> (shifted: String, raw: String, sourceTable: String?)? {
        guard let origin = sourceEntity(for: entity) else { return nil }
        if case .relationship(let sourceRelationship)? = sourceProperty(for: relationship, of: entity)?.kind,
           case .toOne(let column, _)? = sourceSchema.storage[origin.name]?[sourceRelationship.index],
           let sourceDestination = sourceRelationship.destinationEntity {
            let table = sourceTable(of: sourceDestination)
            return (shifted("s.\(column)", from: table), "s.\(column)", table)
        }
        let own = shifted("s.Z_PK", from: sourceTable(of: origin))
        return sourcePairs(for: relationship).map { pairs in
            let key = "(SELECT MIN(other) FROM (\(pairs)) AS pairs WHERE own = \(own))"
            return (key, key, nil)
        }
    }

    /// The pairs (`own`, `other`: keys of the relationship's entity and of its destination)
    /// the source kept for a destination relationship, through the matching source
    /// relationship or, reversed, its inverse's.
    private func sourcePairs(for relationship: RelationshipDescription) -> String? {
        guard let owner = relationship.entity else { return nil }
        if case .relationship(let sourceRelationship)? = sourceProperty(for: relationship, of: owner)?.kind,
           let pairs = pairs(of: sourceRelationship) {
            return "SELECT a AS own, b AS other FROM (\(pairs)) AS pairs"
        }
        if let inverse = relationship.inverseRelationship, let inverseOwner = inverse.entity,
           case .relationship(let sourceInverse)? = sourceProperty(for: inverse, of: inverseOwner)?.kind,
           let pairs = pairs(of: sourceInverse) {
            return "SELECT b AS own, a AS other FROM (\(pairs)) AS pairs"
        }
        return nil
    }

    /// A source relationship's pairs as `a` (its entity's keys), `b` (the destination's), as
    /// destination keys.
    private func pairs(of relationship: RelationshipDescription) -> String? {
        guard let owner = relationship.entity, let target = relationship.destinationEntity else { return nil }
        let (ownTable, otherTable) = (sourceTable(of: owner), sourceTable(of: target))
        switch sourceSchema.storage[owner.name]?[relationship.index] {
        case .toOne(let column, _)?:
            return "SELECT \(shifted("Z_PK", from: ownTable)) AS a, \(shifted(column, from: otherTable)) AS b FROM \(qualified(ownTable)) WHERE \(column) IS NOT NULL"
        case .toManyByInverse(let table, let foreignKey, _)?:
            return "SELECT \(shifted(foreignKey, from: ownTable)) AS a, \(shifted("Z_PK", from: otherTable)) AS b FROM \(qualified(table)) WHERE \(foreignKey) IS NOT NULL"
        case .toManyByJoin(let join, let side)?:
            return "SELECT \(shifted(join.column(side), from: ownTable)) AS a, \(shifted(join.otherColumn(side), from: otherTable)) AS b FROM \(qualified(join.name))"
        default:
            return nil
        }
    }

    /// `CASE` mapping a source entity number to the destination's.
    private func entityNumberMapping(_ column: String) -> String {
        let cases = source.entities.compactMap { sourceEntity -> String? in
            guard let target = destination.entities.first(where: { self.sourceEntity(for: $0) === sourceEntity }),
                  let from = sourceSchema.entityNumbers[sourceEntity.name], let to = destinationSchema.entityNumbers[target.name]
            else { return nil }
            return "WHEN \(from) THEN \(to)"
        }
        return cases.isEmpty ? "NULL" : "CASE \(column) \(cases.joined(separator: " ")) END"
    }

    /// Fills each destination join table from the pairs its first side's relationship had.
    private func joinTableStatements() -> [Statement] {
        var statements: [Statement] = []
        var filled: Set<String> = []
        for entity in destination.entities {
            for (property, storage) in zip(entity.properties, destinationSchema.storage[entity.name] ?? []) {
                guard case .toManyByJoin(let join, .first) = storage, case .relationship(let relationship) = property.kind,
                      relationship.entity === entity, !filled.contains(join.name),
                      let destinationEntity = relationship.destinationEntity,
                      let pairs = sourcePairs(for: relationship) else { continue }
                filled.insert(join.name)
                let ownTable = destinationSchema.table(of: entity).name
                let otherTable = destinationSchema.table(of: destinationEntity).name
                statements.append(Statement(
                    entity: entity.name,
                    sql: """
                        INSERT \(dialect == .sqlite ? "OR IGNORE " : "")INTO \(join.name) (\(join.firstColumn), \(join.secondColumn)) \
                        SELECT own, other FROM (\(pairs)) AS pairs WHERE own IN (SELECT Z_PK FROM \(ownTable)) AND other IN (SELECT Z_PK FROM \(otherTable))\
                        \(dialect == .postgreSQL ? " ON CONFLICT DO NOTHING" : "")
                        """,
                    arguments: []))
            }
        }
        return statements
    }

    /// A required attribute or to-one of the destination, and the SQL counting the rows that
    /// lack a value of it (added or made required without a default).
    package struct RequiredValueCheck {
        package var entity: String
        package var property: String
        package var countSQL: String

        /// 134110 naming the entity and property that `missing` objects of `store` lack.
        package func error(missing: Int, store: String) -> ManagedObjectError {
            ManagedObjectError(
                .migration,
                "\(missing) \(entity) object(s) of \(store) would have no value for the required \(property), which has no default value in the new version",
                entityName: entity, key: property)
        }
    }

    /// The checks a migrated store must pass, run after the copy: a count that is not 0 fails it.
    package func requiredValueChecks() -> [RequiredValueCheck] {
        var checks: [RequiredValueCheck] = []
        for entity in destination.entities {
            let inheritedCount = entity.superentity?.properties.count ?? 0
            let numbers = entity.selfAndDescendants.compactMap { destinationSchema.entityNumbers[$0.name] }.map(String.init)
            let table = destinationSchema.table(of: entity).name
            for property in entity.properties[inheritedCount...] where !property.isOptional {
                let column: String
                switch destinationSchema.storage[entity.name]?[property.index] {
                case .attribute(let name, _)?: column = name
                case .toOne(let name, _)?: column = name
                default: continue
                }
                checks.append(RequiredValueCheck(
                    entity: entity.name, property: property.name,
                    countSQL: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT IN (\(numbers.joined(separator: ", "))) AND \(column) IS NULL"))
            }
        }
        return checks
    }

    /// Per destination table, the highest key its source tables handed out (`Z_MAX`, moved
    /// by their offsets), so keys are never reused.
    package func destinationHighestKeys() -> [(CoreDataSchema.Table, Int64)] {
        destinationSchema.tables.map { table in
            let sources = Set(destination.entities.filter { $0.rootEntity === table.root }.compactMap(sourceEntity(for:)).map(sourceTable(of:)))
            return (table, sources.map { (sourceHighestKeys[$0] ?? 0) + (keyOffsets[$0] ?? 0) }.max() ?? 0)
        }
    }
}
