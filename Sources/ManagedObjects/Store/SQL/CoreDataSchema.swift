import DataModel
import Foundation

/// Where each entity and property of a model lives in Core Data's relational layout: a Core Data
/// SQLite file, and the same tables in PostgreSQL (every SQL store reads and writes through it).
///
/// Core Data's layout, as the real stores in `shared/stores` show it:
/// - one table `Z<ROOT>` per root entity (name uppercased) holding its sub-entities' rows and
///   columns too, with `Z_PK INTEGER PRIMARY KEY` (the number in the object ID), `Z_ENT` (the
///   entity's number) and `Z_OPT` (the row's version, 1 when inserted);
/// - a column `Z<ATTRIBUTE>` per stored attribute; when two sub-entities of one table declare
///   the same name, the later one (entity number order) gets `Z<NAME>1`, `Z<NAME>2`, …;
/// - a to-one as a foreign-key column `Z<RELATIONSHIP>` holding the destination's `Z_PK`, plus
///   `Z<n>_<RELATIONSHIP>` (n: the *destination* entity's number) holding the destination's
///   `Z_ENT` when the destination entity has sub-entities (Scout's `ZSYNCDELIVERY.Z3_OBJECT`,
///   SyncDelivery being 17 and SyncableObject 3; CoreDataPlus SampleModel2's `ZPAGE.Z1_BOOK`);
/// - an ordered to-many with a to-one inverse as the order column `Z_FOK_<INVERSE>` beside
///   the destination's foreign key;
/// - an unordered to-many without inverse as a column `Z<n><RELATIONSHIP>` (n: the declaring
///   entity's number) in the destination's table holding the owner's `Z_PK`, indexed (CartKit's
///   `ZCDCARTITEMMODIFIER.Z2MODIFIERS`, framework 1523); an ordered one keeps a join table (no
///   real store shows one);
/// - a many-to-many as a join table `Z_<n><RELATIONSHIP>` with one column per side,
///   `Z_<n><NAME>` (n: that side's entity number, NAME: the relationship that points to it),
///   plus `Z_FOK_<n><NAME>` for an ordered side. The relationship of the entity with the lower
///   number names the table and its entity's column comes first (bignerdranch's `Z_1BOOKS`:
///   `Z_1AUTHORS`, `Z_2BOOKS`); of a reflexive pair, the one whose name sorts last
///   (DuckDuckGo's Bookmarks V4: `Z_1FAVORITES` with `Z_1FAVORITEFOLDERS`, `Z_1FAVORITES`,
///   `Z_FOK_1FAVORITES`, where `favoriteFolders` ↔ `favorites`).
///
/// Entity numbers (`Z_ENT`): the real stores number root entities in name order, each followed
/// by its sub-entities depth first, siblings in name order (CoreDataPlus's SampleModel: Car 1,
/// SportCar 2, ExpensiveSportCar 3, Person 4, where plain name order would put
/// ExpensiveSportCar second). A store that exists keeps the numbers its `Z_PRIMARYKEY` gives.
package struct CoreDataSchema: @unchecked Sendable {
    // Unchecked: built once when the store opens and never mutated; the entity and relationship
    // descriptions it references are immutable.

    /// One table per root entity.
    package struct Table {
        package var name: String
        package var root: EntityDescription
        /// Attribute and foreign-key columns, in creation order (after Z_PK, Z_ENT, Z_OPT).
        package var columns: [Column]
    }

    package struct Column {
        package var name: String
        package var type: String
    }

    /// How one property of one entity is stored.
    package enum Storage {
        /// An attribute column.
        case attribute(column: String, type: AttributeType)
        /// A to-one foreign key, with the destination-entity column when there is one.
        case toOne(column: String, entityColumn: String?)
        /// A to-many read through the destination's foreign key to this object (the inverse
        /// to-one), ordered by `orderColumn` when the relationship is ordered.
        case toManyByInverse(table: String, foreignKey: String, orderColumn: String?)
        /// A to-many through a join table.
        case toManyByJoin(JoinTable, ownSide: JoinTable.Side)
        /// A composite attribute: one column per element, nested composites flattened
        /// (``CompositeColumn``).
        case composite([CompositeColumn])
        /// Not stored (transient, or a type this store does not keep).
        case none
    }

    /// One stored element of a composite attribute: its path of element names below the
    /// attribute (more than one through nested composites), its column and its type.
    package struct CompositeColumn {
        package var path: [String]
        package var column: String
        package var type: AttributeType
    }

    /// A many-to-many's table: two sides, each a column of `Z_PK`s of one entity.
    package struct JoinTable: Hashable {
        package enum Side: Hashable { case first, second }
        package var name: String
        package var firstColumn: String
        package var secondColumn: String
        /// The order column of each side's relationship, when that one is ordered: the members'
        /// positions in the relationship whose owner is in the other column.
        package var firstOrderColumn: String?
        package var secondOrderColumn: String?

        package func column(_ side: Side) -> String { side == .first ? firstColumn : secondColumn }
        package func otherColumn(_ side: Side) -> String { side == .first ? secondColumn : firstColumn }
        /// The order of the members of the relationship that `side` owns (the members are in
        /// the other column).
        package func orderColumn(ownedBy side: Side) -> String? { side == .first ? secondOrderColumn : firstOrderColumn }
    }

    package var tables: [Table] = []
    package var joinTables: [JoinTable] = []
    /// `Z_ENT` per entity name, and back.
    package var entityNumbers: [String: Int64] = [:]
    package var entitiesByNumber: [Int64: EntityDescription] = [:]
    /// Per entity name, the storage of each property by property index.
    package var storage: [String: [Storage]] = [:]
    /// Unique indexes for the model's uniqueness constraints: name, table, columns.
    package var uniqueIndexes: [(name: String, table: String, columns: [String])] = []
    /// Plain indexes Core Data makes: foreign keys and `Z_ENT` of tables with sub-entities.
    package var indexes: [(name: String, table: String, columns: [String])] = []
    /// The model's fetch indexes of properties, as Core Data names them (`Z_Car_byMakerAndNumberPlate`,
    /// columns `COLLATE BINARY ASC`/`DESC`, in CoreDataPlus's SampleModel V2 store).
    package var fetchIndexes: [(name: String, table: String, columns: [String])] = []
    /// The to-manys without inverse kept in a column of the destination's table
    /// (``Storage/toManyByInverse(table:foreignKey:orderColumn:)``): no to-one writes that
    /// column, so a save writes it from the to-many (``foreignKeyWrites(entity:index:owner:members:)``).
    package var ownerKeptForeignKeys: Set<ObjectIdentifier> = []

    /// The entities in Core Data's numbering order (see the type's documentation).
    package static func numberingOrder(of model: ManagedObjectModel) -> [EntityDescription] {
        func subtree(_ entity: EntityDescription) -> [EntityDescription] {
            [entity] + entity.subentities.sorted { $0.name < $1.name }.flatMap(subtree)
        }
        return model.entities.filter { $0.superentity == nil }.sorted { $0.name < $1.name }.flatMap(subtree)
    }

    /// An existing store's entity numbers by model entity name: each entity of `model` matched
    /// to a `Z_PRIMARYKEY` name (`numbersByStoredName`) by its name or, as an entity renamed in a
    /// later model version keeps its old name in the store, by its renaming identifier.
    /// `missing`: the model's entities the store lacks.
    package static func storedNumbers(
        _ numbersByStoredName: [String: Int64], of model: ManagedObjectModel
    ) -> (numbers: [String: Int64], missing: [String]) {
        var numbers: [String: Int64] = [:]
        var missing: [String] = []
        for entity in model.entities {
            if let number = numbersByStoredName[entity.name] ?? entity.entity.renamingIdentifier.flatMap({ numbersByStoredName[$0] }) {
                numbers[entity.name] = number
            } else {
                missing.append(entity.name)
            }
        }
        return (numbers, missing)
    }

    /// The layout of `model`, with entity numbers from an existing store's `Z_PRIMARYKEY`
    /// (entity name → number) or, for a new store, Core Data's numbering.
    package init(model: ManagedObjectModel, existingNumbers: [String: Int64]? = nil) {
        let ordered = Self.numberingOrder(of: model)
        for (position, entity) in ordered.enumerated() {
            let number = existingNumbers?[entity.name] ?? Int64(position + 1)
            entityNumbers[entity.name] = number
            entitiesByNumber[number] = entity
        }
        var tablesByRoot: [String: Int] = [:]
        for entity in ordered where entity.superentity == nil {
            tablesByRoot[entity.name] = tables.count
            tables.append(Table(name: "Z" + entity.name.uppercased(), root: entity, columns: []))
        }
        var joinTablesByRelationship: [ObjectIdentifier: (JoinTable, JoinTable.Side)] = [:]
        /// A column of the table at `tableIndex`: a clashing name gets the next free number.
        func addTableColumn(_ base: String, _ type: String, to tableIndex: Int) -> String {
            var name = base
            var suffix = 1
            while tables[tableIndex].columns.contains(where: { $0.name == name }) {
                name = base + String(suffix)
                suffix += 1
            }
            tables[tableIndex].columns.append(Column(name: name, type: type))
            return name
        }
        // Columns in entity order: a sub-entity's clashing name gets the next free number
        // (Scout's `ZNAME`, `ZNAME1`, `ZNAME2` of CrashObject 8, MetricsObject 9, NamedObject 12).
        for entity in ordered {
            let tableIndex = tablesByRoot[entity.rootEntity.name]!
            let inheritedCount = entity.superentity?.properties.count ?? 0
            var entityStorage = entity.superentity.flatMap { storage[$0.name] } ?? []
            func addColumn(_ base: String, _ type: String) -> String { addTableColumn(base, type, to: tableIndex) }
            for property in entity.properties[inheritedCount...] {
                switch property.kind {
                case .attribute(let attribute) where attribute.type == .composite && !attribute.isTransient:
                    // Core Data flattens a composite's elements into its entity's table.
                    entityStorage.append(.composite(Self.compositeElements(of: attribute.attribute, in: model.model).map { element in
                        CompositeColumn(
                            path: element.path, column: addColumn(Self.compositeColumnBase(attribute.name, element.path), element.type.column),
                            type: element.type.attribute)
                    }))
                case .attribute(let attribute):
                    guard !attribute.isTransient, let type = Self.columnType(of: attribute.type) else {
                        entityStorage.append(.none)
                        continue
                    }
                    entityStorage.append(.attribute(
                        column: addColumn("Z" + attribute.name.uppercased(), type), type: attribute.type))
                case .relationship(let relationship):
                    entityStorage.append(.none)  // to-manys are filled in below, once every column exists
                    guard !relationship.isTransient, !relationship.isToMany else { continue }
                    let column = addColumn("Z" + relationship.name.uppercased(), "INTEGER")
                    var entityColumn: String?
                    if let destination = relationship.destinationEntity, !destination.subentities.isEmpty {
                        entityColumn = addColumn("Z\(entityNumbers[destination.name]!)_\(relationship.name.uppercased())", "INTEGER")
                    }
                    entityStorage[relationship.index] = .toOne(column: column, entityColumn: entityColumn)
                    indexes.append((
                        name: "\(tables[tableIndex].name)_\(column)_INDEX", table: tables[tableIndex].name, columns: [column]))
                case .fetchedProperty: entityStorage.append(.none)  // not stored: never among `properties`
                }
            }
            storage[entity.name] = entityStorage
        }
        // To-manys: through the inverse's foreign key, else a join table.
        for entity in ordered {
            let inheritedCount = entity.superentity?.properties.count ?? 0
            var declared: [(Int, Storage)] = []
            for case .relationship(let relationship) in entity.properties[inheritedCount...].map(\.kind)
            where relationship.isToMany && !relationship.isTransient {
                guard let destination = relationship.destinationEntity else { continue }
                let destinationTable = tables[tablesByRoot[destination.rootEntity.name]!].name
                if let inverse = relationship.inverseRelationship, !inverse.isToMany,
                   case .toOne(let foreignKey, _)? = storage[destination.name]?[inverse.index] {
                    var orderColumn: String?
                    if relationship.isOrdered {
                        let tableIndex = tablesByRoot[destination.rootEntity.name]!
                        let name = "Z_FOK_" + inverse.name.uppercased()
                        if !tables[tableIndex].columns.contains(where: { $0.name == name }) {
                            tables[tableIndex].columns.append(Column(name: name, type: "INTEGER"))
                        }
                        orderColumn = name
                    }
                    declared.append((relationship.index, .toManyByInverse(
                        table: destinationTable, foreignKey: foreignKey, orderColumn: orderColumn)))
                    continue
                }
                if let (join, side) = joinTablesByRelationship[ObjectIdentifier(relationship)] {
                    declared.append((relationship.index, .toManyByJoin(join, ownSide: side)))
                    continue
                }
                let ownNumber = entityNumbers[entity.name]!
                if relationship.inverseRelationship == nil, !relationship.isOrdered {
                    let tableIndex = tablesByRoot[destination.rootEntity.name]!
                    let foreignKey = addTableColumn("Z\(ownNumber)\(relationship.name.uppercased())", "INTEGER", to: tableIndex)
                    ownerKeptForeignKeys.insert(ObjectIdentifier(relationship))
                    indexes.append((name: "\(destinationTable)_\(foreignKey)_INDEX", table: destinationTable, columns: [foreignKey]))
                    declared.append((relationship.index, .toManyByInverse(table: destinationTable, foreignKey: foreignKey, orderColumn: nil)))
                    continue
                }
                // The side that names the table (see the type's documentation): its column holds
                // its entity's keys and is named after the relationship pointing there (the
                // inverse, else itself); the other column holds the destination's keys.
                var owner = relationship
                if let inverse = relationship.inverseRelationship, inverse.isToMany, inverse !== relationship, let inverseEntity = inverse.entity {
                    let inverseNumber = entityNumbers[inverseEntity.name]!
                    if inverseNumber < ownNumber || (inverseNumber == ownNumber && inverse.name > relationship.name) { owner = inverse }
                }
                guard let ownerEntity = owner.entity, let ownerDestination = owner.destinationEntity else { continue }
                let ownerNumber = entityNumbers[ownerEntity.name]!
                let memberNumber = entityNumbers[ownerDestination.name]!
                let member = owner.inverseRelationship
                var join = JoinTable(
                    name: "Z_\(ownerNumber)\(owner.name.uppercased())",
                    firstColumn: "Z_\(ownerNumber)\((member?.name ?? owner.name).uppercased())",
                    secondColumn: "Z_\(memberNumber)\(owner.name.uppercased())")
                if join.firstColumn == join.secondColumn { join.secondColumn += "1" }
                // `Z_FOK_` takes the place of the column's `Z_`: Z_1FAVORITES is ordered by Z_FOK_1FAVORITES.
                if owner.isOrdered { join.secondOrderColumn = "Z_FOK_" + join.secondColumn.dropFirst(2) }
                if let member, member !== owner, member.isOrdered { join.firstOrderColumn = "Z_FOK_" + join.firstColumn.dropFirst(2) }
                joinTables.append(join)
                if let member { joinTablesByRelationship[ObjectIdentifier(member)] = (join, .second) }
                joinTablesByRelationship[ObjectIdentifier(owner)] = (join, .first)
                declared.append((relationship.index, .toManyByJoin(join, ownSide: owner === relationship ? .first : .second)))
            }
            // Sub-entities inherit what their ancestors declared.
            for descendant in entity.selfAndDescendants {
                for (index, value) in declared { storage[descendant.name]![index] = value }
            }
        }
        for table in tables where !table.root.subentities.isEmpty {
            indexes.append((name: "\(table.name)_Z_ENT_INDEX", table: table.name, columns: ["Z_ENT"]))
        }
        for entity in ordered {
            let table = tables[tablesByRoot[entity.rootEntity.name]!].name
            for names in entity.entity.uniquenessConstraints {
                let columns = names.compactMap { name -> String? in
                    guard let property = entity.property(named: name),
                          case .attribute(let column, _) = storage[entity.name]![property.index] else { return nil }
                    return column
                }
                guard columns.count == names.count, !columns.isEmpty else { continue }
                uniqueIndexes.append((
                    name: "Z_\(entity.name)_UNIQUE_\(names.joined(separator: "_"))", table: table, columns: columns))
            }
            // Indexes of models before fetch indexes (objcio's Moody, framework 637): an indexed
            // attribute's `<TABLE>_<COLUMN>_INDEX`, a compound index's `<TABLE>_<COLUMN>_<COLUMN>…`.
            let inheritedCount = entity.superentity?.properties.count ?? 0
            for case .attribute(let attribute) in entity.properties[inheritedCount...].map(\.kind) where attribute.attribute.isIndexed {
                guard case .attribute(let column, _) = storage[entity.name]![attribute.index] else { continue }
                indexes.append((name: "\(table)_\(column)_INDEX", table: table, columns: [column]))
            }
            for names in entity.entity.compoundIndexes {
                let columns = names.compactMap { name -> String? in
                    switch entity.property(named: name).map({ storage[entity.name]![$0.index] }) {
                    case .attribute(let column, _)?, .toOne(let column, _)?: column
                    default: nil
                    }
                }
                guard columns.count == names.count, !columns.isEmpty else { continue }
                indexes.append((name: ([table] + columns).joined(separator: "_"), table: table, columns: columns))
            }
            // Fetch indexes (model versions add and remove them; migration creates them).
            for index in entity.entity.fetchIndexes {
                let columns = index.elements.compactMap { element -> String? in
                    guard element.type.caseInsensitiveCompare("Binary") == .orderedSame, let name = element.property,
                          let property = entity.property(named: name) else { return nil }
                    switch storage[entity.name]![property.index] {
                    case .attribute(let column, _), .toOne(let column, _): return "\(column) COLLATE BINARY \(element.ascending ? "ASC" : "DESC")"
                    default: return nil
                    }
                }
                guard columns.count == index.elements.count, !columns.isEmpty else { continue }
                fetchIndexes.append((name: "Z_\(entity.name)_\(index.name)", table: table, columns: columns))
            }
        }
    }

    /// The stored elements of a composite attribute, nested composites flattened depth first in
    /// declaration order; transient elements and types no store keeps are left out.
    package static func compositeElements(
        of attribute: Attribute, in model: Model
    ) -> [(path: [String], type: (attribute: AttributeType, column: String))] {
        var result: [(path: [String], type: (attribute: AttributeType, column: String))] = []
        func add(_ compositeName: String?, prefix: [String], visited: Set<String>) {
            // The model validator rejects a composite that contains itself; `visited` keeps a
            // model read without validation from recursing forever.
            guard let compositeName, !visited.contains(compositeName), let composite = model.composite(named: compositeName) else { return }
            for element in composite.attributes where !element.isTransient {
                if element.type == .composite {
                    add(element.composite, prefix: prefix + [element.name], visited: visited.union([compositeName]))
                } else if let column = columnType(of: element.type) {
                    result.append((prefix + [element.name], (element.type, column)))
                }
            }
        }
        add(attribute.composite, prefix: [], visited: [])
        return result
    }

    /// The column of a composite's element: `Z<ATTRIBUTE>_<ELEMENT>` (`_` between the names of
    /// nested elements). Inferred, not learnt from a store: no store in `shared/stores` has a
    /// composite (Docs/RuntimeDifferences.md).
    package static func compositeColumnBase(_ attribute: String, _ path: [String]) -> String {
        "Z" + ([attribute] + path).map { $0.uppercased() }.joined(separator: "_")
    }

    /// Core Data's column type for an attribute type; `nil` for the types this store does
    /// not keep (Composite, Undefined).
    package static func columnType(of type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .string, .uri, .objectID: "VARCHAR"
        case .date: "TIMESTAMP"
        case .binary, .uuid, .transformable: "BLOB"
        case .composite, .undefined: nil
        }
    }

    /// Whether a save writes the foreign key or order keys of the to-many at `index` of
    /// `entity`'s properties, kept in the destination's rows (``foreignKeyWrites(entity:index:owner:members:)``).
    package func writesForeignKeys(entity: EntityDescription, index: Int) -> Bool {
        guard case .toManyByInverse(_, _, let orderColumn)? = storage[entity.name]?[index] else { return false }
        guard orderColumn == nil else { return true }
        if case .relationship(let relationship) = entity.properties[index].kind { return ownerKeptForeignKeys.contains(ObjectIdentifier(relationship)) }
        return false
    }

    /// The statements (SQL with `?` parameters, and the arguments) a save runs for the loaded
    /// to-many at `index` of `entity`'s properties when it is kept in the destination's rows:
    /// the owner's key of one without inverse (no to-one writes it), the order keys (1, 2, …)
    /// of an ordered one. Both SQL stores run them.
    package func foreignKeyWrites(
        entity: EntityDescription, index: Int, owner: Int64, members: [ManagedObjectID]
    ) -> [(sql: String, arguments: [Int64?])] {
        guard case .toManyByInverse(let table, let foreignKey, let orderColumn)? = storage[entity.name]?[index] else { return [] }
        var writes: [(sql: String, arguments: [Int64?])] = []
        if case .relationship(let relationship) = entity.properties[index].kind, ownerKeptForeignKeys.contains(ObjectIdentifier(relationship)) {
            writes.append(("UPDATE \(table) SET \(foreignKey) = NULL WHERE \(foreignKey) = ?", [owner]))
            for member in members { writes.append(("UPDATE \(table) SET \(foreignKey) = ? WHERE Z_PK = ?", [owner, member.storeNumber])) }
        }
        if let orderColumn {
            for (position, member) in members.enumerated() {
                writes.append(("UPDATE \(table) SET \(orderColumn) = ? WHERE Z_PK = ?", [Int64(position + 1), member.storeNumber]))
            }
        }
        return writes
    }

    /// The schema of a store a migration reads, written with `model` (its entity numbers from
    /// `numbersByStoredName`, its `Z_PRIMARYKEY`'s); throws `migration` (134110) naming `store`
    /// when it lacks entities of the model.
    package static func migrationSource(
        _ model: ManagedObjectModel, numbersByStoredName: [String: Int64], store: String
    ) throws -> (schema: CoreDataSchema, numbers: [String: Int64]) {
        let (numbers, missing) = storedNumbers(numbersByStoredName, of: model)
        guard missing.isEmpty else {
            throw ManagedObjectError(.migration, "\(store) lacks the entities \(missing.joined(separator: ", ")) of the version it is migrated from")
        }
        return (CoreDataSchema(model: model, existingNumbers: numbers), numbers)
    }

    package func table(of entity: EntityDescription) -> Table {
        tables.first { $0.root === entity.rootEntity }!
    }

    /// The statements that create the schema in an empty file, Core Data's way.
    package var creationStatements: [String] { creationStatements(dialect: .sqlite) }

    /// The schema's column type in `dialect`: Core Data's own for SQLite; for PostgreSQL the
    /// type holding the same values (dates stay seconds since 2001, as Core Data's TIMESTAMP
    /// column holds them).
    package static func columnType(_ type: String, dialect: SQLDialect) -> String {
        guard dialect == .postgreSQL else { return type }
        switch type {
        case "INTEGER": return "BIGINT"
        case "FLOAT", "TIMESTAMP": return "DOUBLE PRECISION"
        case "DECIMAL": return "NUMERIC"
        case "BLOB": return "BYTEA"
        default: return "TEXT"
        }
    }

    /// What a store reads as the entity number of a row of the table `tableName` (prefixed by
    /// `alias`): `Z_ENT`, or for a table of one entity that entity's number, since Core Data reads
    /// every row of such a table as that entity whatever its `Z_ENT` holds.
    package func entityNumberColumn(ofTable tableName: String, alias: String? = nil) -> String {
        if let table = tables.first(where: { $0.name == tableName }), table.root.subentities.isEmpty,
           let number = entityNumbers[table.root.name] {
            return "CAST(\(number) AS BIGINT)"
        }
        return alias.map { "\($0).Z_ENT" } ?? "Z_ENT"
    }

    /// The columns of `table`'s rows as stores read them: `Z_PK, Z_ENT, Z_OPT` (the entity
    /// number as ``entityNumberColumn(ofTable:alias:)`` gives it), then the table's columns
    /// (PostgreSQL's NUMERIC as text, the form the SQLite store reads too).
    package func selectClause(_ table: Table, dialect: SQLDialect) -> String {
        let alias = SQLPredicateTranslator.tableAlias
        let columns = ["\(alias).Z_PK", entityNumberColumn(ofTable: table.name, alias: alias), "\(alias).Z_OPT"] + table.columns.map {
            dialect == .postgreSQL && $0.type == "DECIMAL" ? "\(alias).\($0.name)::text" : "\(alias).\($0.name)"
        }
        return "SELECT \(columns.joined(separator: ", "))"
    }

    /// The statements that create the schema, Core Data's tables and indexes in `dialect`.
    /// PostgreSQL's key allocation is a sequence per table (``keySequence(of:)``), safe with
    /// many processes; `Z_PRIMARYKEY` still names the entities and their numbers.
    package func creationStatements(dialect: SQLDialect) -> [String] {
        let integer = Self.columnType("INTEGER", dialect: dialect)
        var statements: [String] = []
        for table in tables {
            let columns = ["Z_PK \(integer) PRIMARY KEY", "Z_ENT \(integer)", "Z_OPT \(integer)"]
                + table.columns.map { "\($0.name) \(Self.columnType($0.type, dialect: dialect))" }
            statements.append("CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )")
            if dialect == .postgreSQL { statements.append("CREATE SEQUENCE \(keySequence(of: table))") }
        }
        for join in joinTables {
            var columns = ["\(join.firstColumn) \(integer)", "\(join.secondColumn) \(integer)"]
            columns += [join.firstOrderColumn, join.secondOrderColumn].compactMap { $0.map { "\($0) \(integer)" } }
            columns.append("PRIMARY KEY (\(join.firstColumn), \(join.secondColumn))")
            statements.append("CREATE TABLE \(join.name) ( \(columns.joined(separator: ", ")) )")
            statements.append(
                "CREATE INDEX \(join.name)_\(join.secondColumn)_INDEX ON \(join.name) (\(join.secondColumn), \(join.firstColumn))")
        }
        for index in indexes {
            statements.append("CREATE INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))")
        }
        // SQLite's BINARY collation is PostgreSQL's default comparison of bytes in a unique index.
        let binary = dialect == .sqlite ? " COLLATE BINARY" : ""
        for index in uniqueIndexes {
            let columns = index.columns.map { "\($0)\(binary) ASC" }.joined(separator: ", ")
            statements.append("CREATE UNIQUE INDEX \(index.name) ON \(index.table) (\(columns))")
        }
        for index in fetchIndexes {
            let columns = index.columns.map { dialect == .sqlite ? $0 : $0.replacingOccurrences(of: " COLLATE BINARY", with: "") }
            statements.append("CREATE INDEX \(index.name) ON \(index.table) (\(columns.joined(separator: ", ")))")
        }
        let blob = Self.columnType("BLOB", dialect: dialect)
        let text = Self.columnType("VARCHAR", dialect: dialect)
        statements.append("CREATE TABLE Z_PRIMARYKEY (Z_ENT \(integer) PRIMARY KEY, Z_NAME \(text), Z_SUPER \(integer), Z_MAX \(integer))")
        statements.append("CREATE TABLE Z_METADATA (Z_VERSION \(integer) PRIMARY KEY, Z_UUID \(dialect == .sqlite ? "VARCHAR(255)" : text), Z_PLIST \(blob))")
        statements.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT \(blob))")
        return statements
    }

    /// The sequence a PostgreSQL store takes `table`'s keys from.
    package func keySequence(of table: Table) -> String { "\(table.name)_Z_PK_SEQ" }
}

