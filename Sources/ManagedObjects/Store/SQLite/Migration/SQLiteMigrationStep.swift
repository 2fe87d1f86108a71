import DataModel
import Foundation
import GRDB

/// One step of a migration: the store file written with `source` copied into a new file laid
/// out for `destination`, with the mapping Core Data's lightweight migration infers.
///
/// Each destination entity takes the rows of the source entity named by its renaming identifier,
/// else by its name (none: an added entity, no rows); each property the value of the source
/// property matched the same way, in the same transaction:
/// - an attribute: the source column (integers widen, integers become floating point); none, or
///   `nil` where the destination is required: the model's default;
/// - a to-one: the source foreign key, else the pairs the source kept for the relationship or its
///   inverse (a to-many, a join table), the first related object when there were several;
/// - a many-to-many's join table: those pairs.
/// Object keys (`Z_PK`) and `Z_OPT` stay; entity numbers are the destination's own. Indexes and
/// uniqueness constraints are the destination's (created with the schema).
///
/// Not inferred here (134140, naming the entity and property): other attribute type changes,
/// an entity moved into another entity's table (a new parent entity over rows of two tables).
struct SQLiteMigrationStep {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel

    func run(from sourcePath: String, to destinationPath: String) throws {
        let layout = try SQLiteStoreMetadata.readStore(at: sourcePath, StoreVersionIdentification.StoreLayout.read)
        let (numbers, missing) = SQLiteSchema.storedNumbers(layout.primaryKeys.mapValues(\.number), of: source)
        guard missing.isEmpty else {
            throw ManagedObjectError(.migration, "\(sourcePath) lacks the entities \(missing.joined(separator: ", ")) of the version it is migrated from")
        }
        let plan = Plan(
            source: source, destination: destination,
            sourceSchema: SQLiteSchema(model: source, existingNumbers: numbers),
            destinationSchema: SQLiteSchema(model: destination))
        let statements = try plan.copyStatements()
        let identifier = layout.metadata["NSStoreUUID"] as? String ?? UUID().uuidString
        do {
            let queue = try DatabaseQueue(path: destinationPath)
            defer { try? queue.close() }
            try SQLiteStore.create(
                schema: plan.destinationSchema, model: destination, identifier: identifier, in: queue, path: destinationPath)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [sourcePath])
            }
            try queue.write { db in
                for statement in statements {
                    do {
                        try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        throw ManagedObjectError(
                            .migration, "the \(statement.entity) objects of \(sourcePath) break a uniqueness constraint of the new version: \(error.message ?? "")",
                            entityName: statement.entity)
                    }
                }
                try plan.checkRequiredValues(db, path: sourcePath)
                for (table, highest) in plan.highestKeys(layout: layout, numbers: numbers) {
                    try db.execute(
                        sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(?, (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table.name))) WHERE Z_ENT = ?",
                        arguments: [highest, plan.destinationSchema.entityNumbers[table.root.name]])
                }
            }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "DETACH DATABASE source")
                // Core Data's stores are in WAL mode; the mode is kept in the file.
                try db.execute(sql: "PRAGMA journal_mode = WAL")
            }
            try queue.close()
        } catch let error as ManagedObjectError {
            throw error
        } catch {
            throw ManagedObjectError(.migration, "migrating \(sourcePath) failed: \(error)")
        }
    }

    /// The inferred mapping between two versions, as SQL over the source file attached as `source`.
    struct Plan {
        let source: ManagedObjectModel
        let destination: ManagedObjectModel
        let sourceSchema: SQLiteSchema
        let destinationSchema: SQLiteSchema

        struct Statement {
            var entity: String
            var sql: String
            var arguments: [DatabaseValue]
        }

        /// The source entity whose rows `entity` takes: by renaming identifier, else by name.
        func sourceEntity(for entity: EntityDescription) -> EntityDescription? {
            entity.entity.renamingIdentifier.flatMap { source[$0] } ?? source[entity.name]
        }

        /// The source property `property` of `entity` takes its values from.
        func sourceProperty(for property: PropertyDescription, of entity: EntityDescription) -> PropertyDescription? {
            guard let sourceEntity = sourceEntity(for: entity) else { return nil }
            let renamingIdentifier: String? = switch property {
            case .attribute(let attribute): attribute.attribute.renamingIdentifier
            case .relationship(let relationship): relationship.relationship.renamingIdentifier
            }
            return renamingIdentifier.flatMap { sourceEntity.property(named: $0) } ?? sourceEntity.property(named: property.name)
        }

        func copyStatements() throws -> [Statement] {
            var statements: [Statement] = []
            var sourceTablesByTable: [String: [String: String]] = [:]
            for entity in SQLiteSchema.numberingOrder(of: destination) {
                guard let origin = sourceEntity(for: entity), let number = destinationSchema.entityNumbers[entity.name],
                      let sourceNumber = sourceSchema.entityNumbers[origin.name] else { continue }
                let table = destinationSchema.table(of: entity).name
                let sourceTable = sourceSchema.table(of: origin).name
                sourceTablesByTable[table, default: [:]][sourceTable] = entity.name
                if let other = sourceTablesByTable[table]?.first(where: { $0.key != sourceTable }) {
                    throw ManagedObjectError(
                        .migrationMissingMappingModel,
                        "cannot infer a mapping that puts \(entity.name) (rows of \(sourceTable)) in one table with \(other.value) (rows of \(other.key)): "
                            + "moving an entity into another entity's hierarchy needs a mapping model",
                        entityName: entity.name)
                }
                var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                var values = ["s.Z_PK", String(number), "s.Z_OPT"]
                var arguments: [DatabaseValue] = []
                for (property, storage) in zip(entity.properties, destinationSchema.storage[entity.name] ?? []) {
                    switch storage {
                    case .attribute(let column, _):
                        guard case .attribute(let attribute) = property,
                              let value = try attributeValue(attribute, of: entity) else { continue }
                        columns.append(column)
                        values.append(value.sql)
                        arguments += value.arguments
                    case .toOne(let column, let entityColumn):
                        guard case .relationship(let relationship) = property, let key = toOneKey(relationship, of: entity) else { continue }
                        columns.append(column)
                        values.append(key)
                        if let entityColumn, let destinationEntity = relationship.destinationEntity,
                           let sourceDestination = sourceEntity(for: destinationEntity) {
                            columns.append(entityColumn)
                            values.append("(SELECT \(entityNumberMapping("d.Z_ENT")) FROM source.\(sourceSchema.table(of: sourceDestination).name) d WHERE d.Z_PK = \(key))")
                        }
                        if let order = orderColumn(of: relationship, in: destinationSchema),
                           case .relationship(let sourceRelationship)? = sourceProperty(for: property, of: entity),
                           let sourceOrder = orderColumn(of: sourceRelationship, in: sourceSchema) {
                            columns.append(order)
                            values.append("s.\(sourceOrder)")
                        }
                    default:
                        continue
                    }
                }
                statements.append(Statement(
                    entity: entity.name,
                    sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM source.\(sourceTable) s WHERE s.Z_ENT = \(sourceNumber)",
                    arguments: arguments))
            }
            statements += joinTableStatements()
            return statements
        }

        /// The value of `attribute` for a row `s` of the source entity; `nil` for NULL.
        private func attributeValue(_ attribute: AttributeDescription, of entity: EntityDescription) throws -> (sql: String, arguments: [DatabaseValue])? {
            var sql: String?
            if case .attribute(let sourceAttribute)? = sourceProperty(for: .attribute(attribute), of: entity),
               let sourceEntity = sourceEntity(for: entity),
               case .attribute(let column, let sourceType)? = sourceSchema.storage[sourceEntity.name]?[sourceAttribute.index] {
                sql = try conversion(of: "s.\(column)", from: sourceType, to: attribute.type, entity: entity.name, attribute: attribute.name)
            }
            let defaultValue = try SQLiteValues.databaseValue(attribute.defaultValue, type: attribute.type, attribute: attribute.name)
            guard !defaultValue.isNull, !attribute.isOptional || sql == nil else { return sql.map { ($0, []) } }
            return (sql.map { "COALESCE(\($0), ?)" } ?? "?", [defaultValue])
        }

        /// A source column's value as the destination type, when Core Data infers that change.
        private func conversion(
            of column: String, from sourceType: AttributeType, to type: AttributeType, entity: String, attribute: String
        ) throws -> String {
            let integers: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean]
            let floats: Set<AttributeType> = [.double, .float]
            if sourceType == type || (integers.contains(sourceType) && integers.contains(type) && type != .boolean)
                || (floats.contains(sourceType) && floats.contains(type)) {
                return column
            }
            if integers.contains(sourceType), floats.contains(type) || type == .decimal { return "CAST(\(column) AS REAL)" }
            if sourceType == .string, type == .uri { return column }
            throw ManagedObjectError(
                .migrationMissingMappingModel,
                "cannot infer a mapping for \(entity).\(attribute) from type \(sourceType.rawValue) to \(type.rawValue); it needs a mapping model",
                entityName: entity, key: attribute)
        }

        /// The foreign key of a to-one for a source row `s`, as SQL; `nil` when the source kept no such pairs.
        private func toOneKey(_ relationship: RelationshipDescription, of entity: EntityDescription) -> String? {
            if case .relationship(let sourceRelationship)? = sourceProperty(for: .relationship(relationship), of: entity),
               let sourceEntity = sourceEntity(for: entity),
               case .toOne(let column, _)? = sourceSchema.storage[sourceEntity.name]?[sourceRelationship.index] {
                return "s.\(column)"
            }
            return sourcePairs(for: relationship).map { "(SELECT MIN(other) FROM (\($0)) WHERE own = s.Z_PK)" }
        }

        /// The pairs (`own`, `other`: keys of the relationship's entity and of its destination)
        /// the source kept for a destination relationship, through the matching source
        /// relationship or, reversed, its inverse's.
        private func sourcePairs(for relationship: RelationshipDescription) -> String? {
            guard let owner = relationship.entity else { return nil }
            if case .relationship(let sourceRelationship)? = sourceProperty(for: .relationship(relationship), of: owner),
               let pairs = pairs(of: sourceRelationship) {
                return "SELECT a AS own, b AS other FROM (\(pairs))"
            }
            if let inverse = relationship.inverseRelationship, let inverseOwner = inverse.entity,
               case .relationship(let sourceInverse)? = sourceProperty(for: .relationship(inverse), of: inverseOwner),
               let pairs = pairs(of: sourceInverse) {
                return "SELECT b AS own, a AS other FROM (\(pairs))"
            }
            return nil
        }

        /// A source relationship's pairs as `a` (its entity's keys), `b` (the destination's).
        private func pairs(of relationship: RelationshipDescription) -> String? {
            guard let owner = relationship.entity else { return nil }
            switch sourceSchema.storage[owner.name]?[relationship.index] {
            case .toOne(let column, _)?:
                return "SELECT Z_PK AS a, \(column) AS b FROM source.\(sourceSchema.table(of: owner).name) WHERE \(column) IS NOT NULL"
            case .toManyByInverse(let table, let foreignKey, _)?:
                return "SELECT \(foreignKey) AS a, Z_PK AS b FROM source.\(table) WHERE \(foreignKey) IS NOT NULL"
            case .toManyByJoin(let join, let side)?:
                return "SELECT \(join.column(side)) AS a, \(join.otherColumn(side)) AS b FROM source.\(join.name)"
            default:
                return nil
            }
        }

        /// The order column a to-one's rows keep for their ordered to-many inverse.
        private func orderColumn(of relationship: RelationshipDescription, in schema: SQLiteSchema) -> String? {
            guard let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity,
                  case .toManyByInverse(_, _, let order?)? = schema.storage[destination.name]?[inverse.index] else { return nil }
            return order
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
                    guard case .toManyByJoin(let join, .first) = storage, case .relationship(let relationship) = property,
                          relationship.entity === entity, !filled.contains(join.name),
                          let destinationEntity = relationship.destinationEntity,
                          let pairs = sourcePairs(for: relationship) else { continue }
                    filled.insert(join.name)
                    let ownTable = destinationSchema.table(of: entity).name
                    let otherTable = destinationSchema.table(of: destinationEntity).name
                    statements.append(Statement(
                        entity: entity.name,
                        sql: """
                            INSERT OR IGNORE INTO \(join.name) (\(join.firstColumn), \(join.secondColumn)) \
                            SELECT own, other FROM (\(pairs)) WHERE own IN (SELECT Z_PK FROM \(ownTable)) AND other IN (SELECT Z_PK FROM \(otherTable))
                            """,
                        arguments: []))
                }
            }
            return statements
        }

        /// Throws 134110 naming the first required attribute or to-one that rows lack a value of
        /// (added or made required without a default).
        func checkRequiredValues(_ db: Database, path: String) throws {
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
                    let missing = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \(table) WHERE Z_ENT IN (\(numbers.joined(separator: ", "))) AND \(column) IS NULL") ?? 0
                    guard missing == 0 else {
                        throw ManagedObjectError(
                            .migration,
                            "\(missing) \(entity.name) object(s) of \(path) would have no value for the required \(property.name), which has no default value in the new version",
                            entityName: entity.name, key: property.name)
                    }
                }
            }
        }

        /// Per destination table, the highest key its source table handed out (`Z_MAX`), so keys are never reused.
        func highestKeys(layout: StoreVersionIdentification.StoreLayout, numbers: [String: Int64]) -> [(SQLiteSchema.Table, Int64)] {
            destinationSchema.tables.compactMap { table in
                guard let sourceRoot = sourceEntity(for: table.root)?.rootEntity, let number = numbers[sourceRoot.name],
                      let highest = layout.primaryKeys.values.first(where: { $0.number == number })?.max else { return (table, 0) }
                return (table, highest)
            }
        }
    }
}
