import DataModel
import Foundation

/// Predicates and sort descriptors as SQL over an entity's table, answering exactly as the
/// in-memory evaluator does, or not at all (`nil`: the store reads the rows, narrowed by what
/// does translate (``narrowing(for:)``), and evaluates in memory). Every value of the
/// predicate is a bound parameter, never SQL text.
///
/// What translates:
/// - comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`, either side the key path) of an Integer,
///   Double, Float, Boolean, Date or String attribute with a constant of its kind (a literal
///   or a format argument; numbers up to 2⁵³ in magnitude, where `Double` is exact, as the
///   evaluator compares integers with doubles; dates as seconds since 2001), `== nil`, `!= nil`;
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES` of a String attribute with a
///   string constant, `IN` with a constant collection, `BETWEEN` with two constant bounds;
/// - `AND`, `OR`, `NOT`, `TRUEPREDICATE`, `FALSEPREDICATE`;
/// - key paths through to-one relationships (`tweeter.name`), as correlated sub-selects on
///   the foreign key, NULL when the relationship is;
/// - to-manys of the fetched entity: `tweets.@count`, and `ANY`/`NONE`/`ALL` (or no modifier,
///   which compares as `ANY`) of `tweets.text`, as EXISTS over the members.
///
/// Strings compare in SQL through collations and a function (``register(in:)``) that call the
/// evaluator's own Swift code (`StringMatching`, `ObjectSortDescriptor.Comparison`), since
/// SQLite's own comparisons are bytewise. A comparison the evaluator answers `false` for a nil
/// value is NULL in SQL, which a WHERE treats as false, as AND and OR do; `NOT` makes NULL false
/// first, and `!=` is written to be true for NULL, as it is in memory.
///
/// One translator, two dialects (``SQLDialect``): SQLite, with the evaluator's own string
/// comparisons registered as collations and a function, and PostgreSQL, where strings compare
/// with the server's own operators and translate only where those answer as the evaluator
/// does (`COLLATE "C"`, `lower()` for `[c]`, `LIKE` with escaped patterns, `~` for MATCHES;
/// `[d]` and localized sorts stay in memory). Parameters are `?` in both: a PostgreSQL
/// statement numbers them when it is complete (``SQLDialect/numberingParameters(_:)``).
package struct SQLPredicateTranslator {
    /// A piece of SQL and the values of its `?` parameters, in order.
    package struct Fragment {
        package var sql: String
        package var arguments: [SQLValue]
    }

    /// The alias of the fetched entity's table in the statements the store builds.
    package static let tableAlias = "t0"

    let schema: CoreDataSchema
    let entity: EntityDescription
    let dialect: SQLDialect

    package init(schema: CoreDataSchema, entity: EntityDescription, dialect: SQLDialect = .sqlite) {
        self.schema = schema
        self.entity = entity
        self.dialect = dialect
    }

    // MARK: Predicates

    /// The predicate as a WHERE condition, or `nil` when some part of it does not translate.
    package func condition(for predicate: ObjectPredicate) -> Fragment? {
        switch predicate.source {
        case .syntax(let syntax, let arguments):
            return condition(for: syntax, arguments: arguments)
        case .and(let operands):
            return joined(operands.map { condition(for: $0) }, with: "AND")
        case .or(let operands):
            return joined(operands.map { condition(for: $0) }, with: "OR")
        case .not(let operand):
            return condition(for: operand).map(negated)
        case .block:
            return nil
        }
    }

    /// For a predicate that does not translate whole, a condition that keeps every row it can
    /// match (possibly more): the parts of its ANDs that translate, an OR when each of its
    /// parts narrows. `nil` keeps every row. The predicate is then evaluated in memory over
    /// the rows kept.
    package func narrowing(for predicate: ObjectPredicate) -> Fragment? {
        if let exact = condition(for: predicate) { return exact }
        switch predicate.source {
        case .syntax(let syntax, let arguments):
            return narrowing(for: syntax, arguments: arguments)
        case .and(let operands):
            return conjunction(operands.compactMap { narrowing(for: $0) })
        case .or(let operands):
            return joined(operands.map { narrowing(for: $0) }, with: "OR")
        case .not, .block:
            return nil
        }
    }

    private func narrowing(for syntax: PredicateSyntax, arguments: [Any?]) -> Fragment? {
        if let exact = condition(for: syntax, arguments: arguments) { return exact }
        switch syntax {
        case .and(let operands):
            return conjunction(operands.compactMap { narrowing(for: $0, arguments: arguments) })
        case .or(let operands):
            return joined(operands.map { narrowing(for: $0, arguments: arguments) }, with: "OR")
        case .value, .not, .comparison:
            return nil
        }
    }

    /// The AND of the parts that narrow; `nil` (every row) when none does.
    private func conjunction(_ parts: [Fragment]) -> Fragment? {
        parts.isEmpty ? nil : joined(parts, with: "AND")
    }

    private func condition(for syntax: PredicateSyntax, arguments: [Any?]) -> Fragment? {
        switch syntax {
        case .value(let value):
            return Fragment(sql: value ? dialect.true : dialect.false, arguments: [])
        case .and(let operands):
            return joined(operands.map { condition(for: $0, arguments: arguments) }, with: "AND")
        case .or(let operands):
            return joined(operands.map { condition(for: $0, arguments: arguments) }, with: "OR")
        case .not(let operand):
            return condition(for: operand, arguments: arguments).map(negated)
        case .comparison(let comparison):
            return condition(for: comparison, arguments: arguments)
        }
    }

    private func joined(_ parts: [Fragment?], with connective: String) -> Fragment? {
        let translated = parts.compactMap { $0 }
        guard translated.count == parts.count else { return nil }
        guard !translated.isEmpty else { return Fragment(sql: connective == "AND" ? dialect.true : dialect.false, arguments: []) }
        if translated.count == 1 { return translated[0] }
        return Fragment(
            sql: "(" + translated.map(\.sql).joined(separator: " \(connective) ") + ")",
            arguments: translated.flatMap(\.arguments))
    }

    /// NULL (a comparison of a nil value) counts as false before it is negated.
    private func negated(_ fragment: Fragment) -> Fragment {
        Fragment(sql: "NOT COALESCE(\(fragment.sql), \(dialect.false))", arguments: fragment.arguments)
    }

    private func condition(for comparison: PredicateComparison, arguments: [Any?]) -> Fragment? {
        let flippedOperators: [PredicateOperator: PredicateOperator] = [
            .lessThan: .greaterThan, .lessThanOrEqualTo: .greaterThanOrEqualTo, .greaterThan: .lessThan,
            .greaterThanOrEqualTo: .lessThanOrEqualTo, .equalTo: .equalTo, .notEqualTo: .notEqualTo,
        ]
        let (operatorType, options) = (comparison.operatorType, comparison.options)
        if let path = keyPath(comparison.left, arguments), let value = constant(comparison.right, arguments) {
            if comparison.modifier == .direct, let (expression, type) = attributeExpression(path) {
                return condition(expression, type, operatorType, value, options)
            }
            // A key path through a to-many compares as ANY, as in memory; the members' nil
            // values are left out there, so here too.
            guard let (selection, expression, type) = memberExpression(path),
                  let test = condition(expression, type, operatorType, value, options) else { return nil }
            let member = "SELECT 1 \(selection) AND \(expression) IS NOT NULL"
            switch comparison.modifier {
            case .direct, .any: return Fragment(sql: "EXISTS (\(member) AND \(test.sql))", arguments: test.arguments)
            case .none: return Fragment(sql: "NOT EXISTS (\(member) AND \(test.sql))", arguments: test.arguments)
            case .all: return Fragment(sql: "NOT EXISTS (\(member) AND \(negated(test).sql))", arguments: test.arguments)
            }
        }
        if comparison.modifier == .direct, let path = keyPath(comparison.right, arguments),
           let value = constant(comparison.left, arguments), let flipped = flippedOperators[operatorType],
           let (expression, type) = attributeExpression(path) {
            return condition(expression, type, flipped, value, options)
        }
        return nil
    }

    /// `attribute <operator> value`, the attribute read by `expression`.
    private func condition(
        _ expression: String, _ type: AttributeType, _ operatorType: PredicateOperator, _ value: Any?, _ options: PredicateComparisonOptions
    ) -> Fragment? {
        let collated: String
        switch (type, dialect) {
        case (.string, .sqlite): collated = "\(expression) COLLATE \(Self.predicateCollationName(options))"
        case (.string, .postgreSQL):
            // Code point order is the evaluator's for the strings it meets; `[d]` folding is not
            // the server's (no `unaccent` by default): such comparisons stay in memory.
            guard !options.contains(.diacriticInsensitive) else { return nil }
            collated = options.contains(.caseInsensitive) ? "lower(\(expression)) COLLATE \"C\"" : "\(expression) COLLATE \"C\""
        default: collated = expression
        }
        // The constant as the collated expression compares it.
        let parameter = type == .string && dialect == .postgreSQL && options.contains(.caseInsensitive) ? "lower(?)" : "?"
        let orderOperators: [PredicateOperator: String] = [
            .lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">", .greaterThanOrEqualTo: ">=", .equalTo: "=",
        ]
        switch operatorType {
        case .equalTo where value == nil:
            return Fragment(sql: "\(expression) IS NULL", arguments: [])
        case .notEqualTo where value == nil:
            return Fragment(sql: "\(expression) IS NOT NULL", arguments: [])
        case .notEqualTo:
            guard let bound = Self.bound(value, for: type) else { return nil }
            return Fragment(sql: "(\(expression) IS NULL OR \(collated) <> \(parameter))", arguments: [bound])
        case _ where orderOperators[operatorType] != nil:
            // Nothing orders against nil.
            guard value != nil else { return Fragment(sql: dialect.false, arguments: []) }
            guard let bound = Self.bound(value, for: type) else { return nil }
            return Fragment(sql: "\(collated) \(orderOperators[operatorType]!) \(parameter)", arguments: [bound])
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard type == .string, let pattern = value as? String, Self.textParameter(pattern) != nil else { return nil }
            if operatorType == .matches, (try? StringMatching.RegularExpression(pattern, options: options)) == nil { return nil }
            if dialect == .postgreSQL { return postgreSQLMatch(expression, operatorType, pattern, options) }
            return Fragment(
                sql: "\(Self.stringMatchFunction)(\(Self.stringOperatorCodes[operatorType]!), \(options.rawValue), \(expression), ?)",
                arguments: [.text(pattern)])
        case .in:
            guard let elements = PredicateValues.elements(value), PredicateValues.string(value) == nil else { return nil }
            let bound = elements.map { Self.bound($0, for: type) }
            guard bound.allSatisfy({ $0 != nil }) else { return nil }
            guard !bound.isEmpty else { return Fragment(sql: dialect.false, arguments: []) }
            return Fragment(
                sql: "\(collated) IN (\(bound.map { _ in parameter }.joined(separator: ", ")))", arguments: bound.compactMap { $0 })
        case .between:
            guard let bounds = PredicateValues.elements(value), bounds.count == 2,
                  let lower = Self.bound(bounds[0], for: type), let upper = Self.bound(bounds[1], for: type) else { return nil }
            return Fragment(sql: "(\(collated) >= \(parameter) AND \(collated) <= \(parameter))", arguments: [lower, upper])
        default:
            return nil
        }
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE as PostgreSQL's `LIKE` (the pattern's own `%`,
    /// `_` and `\\` escaped; LIKE's `*` and `?` as `%` and `_`), MATCHES as `~` anchored at both
    /// ends, as the evaluator matches the whole string; `[c]` through `lower()`. `nil` (stays in
    /// memory) for `[d]`, for a LIKE pattern with a backslash escape, and for a regular
    /// expression the server's dialect may read otherwise than ICU (anything beyond literals,
    /// classes, groups, alternation, anchors and quantifiers).
    private func postgreSQLMatch(
        _ expression: String, _ operatorType: PredicateOperator, _ pattern: String, _ options: PredicateComparisonOptions
    ) -> Fragment? {
        guard !options.contains(.diacriticInsensitive) else { return nil }
        let caseInsensitive = options.contains(.caseInsensitive)
        let subject = caseInsensitive ? "lower(\(expression))" : expression
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
        }
        let likePattern: String
        switch operatorType {
        case .beginsWith: likePattern = escaped(pattern) + "%"
        case .endsWith: likePattern = "%" + escaped(pattern)
        case .contains: likePattern = "%" + escaped(pattern) + "%"
        case .like:
            guard !pattern.contains("\\") else { return nil }
            likePattern = escaped(pattern).replacingOccurrences(of: "*", with: "%").replacingOccurrences(of: "?", with: "_")
        case .matches:
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " .*+?()[]|^$-_,:;@#/'\"=<>!&~`"))
            guard pattern.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }), !pattern.contains("[:"),
                  !pattern.contains("(?") else { return nil }
            // PostgreSQL's `.` matches a line break, as the evaluator's does.
            return Fragment(sql: "(\(expression) \(caseInsensitive ? "~*" : "~") ?)", arguments: [.text("^(?:" + pattern + ")$")])
        default:
            return nil
        }
        return Fragment(
            sql: "(\(subject) LIKE \(caseInsensitive ? "lower(?)" : "?") ESCAPE '\\')",
            arguments: [.text(likePattern)])
    }

    /// A key path written in the format or given as a `%K` argument.
    private func keyPath(_ expression: PredicateExpressionSyntax, _ arguments: [Any?]) -> String? {
        switch expression {
        case .keyPath(let path): path
        case .argument(let index, .keyPath) where arguments.indices.contains(index): arguments[index] as? String
        default: nil
        }
    }

    /// A literal or a format argument as the evaluator sees it (`.some(nil)` for nil);
    /// `nil` for anything else.
    private func constant(_ expression: PredicateExpressionSyntax, _ arguments: [Any?]) -> Any?? {
        switch expression {
        case .literal(.null): return .some(nil)
        case .literal(.bool(let flag)): return flag
        case .literal(.integer(let integer)): return integer
        case .literal(.double(let double)): return double
        case .literal(.string(let string)): return string
        case .argument(let index, let kind) where kind != .keyPath && arguments.indices.contains(index):
            return .some(PredicateValues.normalized(arguments[index]))
        case .aggregate(let items):
            var values: [Any] = []
            for item in items {
                guard let value = constant(item, arguments), let value else { return nil }
                values.append(value)
            }
            return values
        default:
            return nil
        }
    }

    /// The SQL reading an attribute at the end of a key path of to-one relationships, and the
    /// attribute's type, or the number of members of a to-many of the fetched entity
    /// (`tweets.@count`); `nil` for any other key path.
    private func attributeExpression(_ path: String) -> (sql: String, type: AttributeType)? {
        if path.hasSuffix(".@count"), let toMany = members(ofToMany: String(path.dropLast(".@count".count))) {
            return ("(SELECT COUNT(*) \(toMany.from))", .integer64)
        }
        var current = entity
        var owner = Self.tableAlias
        // The foreign key of each to-one passed so far, as correlated sub-selects.
        var reference: (key: String, table: String)?
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for (position, name) in components.enumerated() {
            guard let property = current.propertiesByName[name], let storage = schema.storage[current.name]?[property.index] else { return nil }
            let column = "\(owner).\(storage.column ?? "")"
            func read(_ column: String) -> String {
                guard let reference else { return column }
                return "(SELECT \(column) FROM \(reference.table) \(owner) WHERE \(owner).Z_PK = \(reference.key))"
            }
            if case .composite(let elements) = storage {
                // `address.city`: an element's own column (a whole composite is not compared).
                let rest = Array(components[(position + 1)...])
                guard let element = elements.first(where: { $0.path == rest }), Self.translatedTypes.contains(element.type) else { return nil }
                return (read("\(owner).\(element.column)"), element.type)
            }
            if position == components.count - 1 {
                guard case .attribute(_, let type) = storage, Self.translatedTypes.contains(type) else { return nil }
                return (read(column), type)
            }
            guard case .toOne = storage, case .relationship(let relationship) = property.kind,
                  let destination = relationship.destinationEntity else { return nil }
            reference = (read(column), schema.table(of: destination).name)
            current = destination
            owner = "r\(position + 1)"
        }
        return nil
    }

    /// For `relationship.attribute`, a to-many of the fetched entity and an attribute of its
    /// members: the FROM and WHERE that select the members (alias `m`), the SQL reading the
    /// attribute of one, and its type.
    private func memberExpression(_ path: String) -> (members: String, sql: String, type: AttributeType)? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.count == 2, let (from, destination) = members(ofToMany: components[0]),
              let property = destination.propertiesByName[components[1]],
              case .attribute(let column, let type)? = schema.storage[destination.name]?[property.index],
              Self.translatedTypes.contains(type) else { return nil }
        return (from, "m.\(column)", type)
    }

    /// The FROM and WHERE that select the members (alias `m`) of a to-many of the fetched
    /// entity, as the store reads them (``SQLiteStore/relatedObjectIDs(of:relationship:)``).
    private func members(ofToMany name: String) -> (from: String, destination: EntityDescription)? {
        guard let property = entity.propertiesByName[name], case .relationship(let relationship) = property.kind,
              let destination = relationship.destinationEntity else { return nil }
        let owner = "\(Self.tableAlias).Z_PK"
        switch schema.storage[entity.name]?[property.index] {
        case .toManyByInverse(let table, let foreignKey, _)?:
            return ("FROM \(table) m WHERE m.\(foreignKey) = \(owner)", destination)
        case .toManyByJoin(let join, let side)?:
            return (
                "FROM \(join.name) j JOIN \(schema.table(of: destination).name) m ON m.Z_PK = j.\(join.otherColumn(side)) WHERE j.\(join.column(side)) = \(owner)",
                destination)
        default:
            return nil
        }
    }

    private static let translatedTypes: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean, .double, .float, .date, .string]

    /// The largest magnitude at which every integer is a `Double`: up to it, SQLite's exact
    /// comparison of integers with reals agrees with the evaluator's comparison as doubles.
    private static let exactDoubleMagnitude = 9_007_199_254_740_992.0

    /// The constant as a parameter that compares with the column as the evaluator compares it
    /// with the attribute value; `nil` when it would not (another kind of value).
    private static func bound(_ value: Any?, for type: AttributeType) -> SQLValue? {
        guard let scalar = ScalarValue.from(PredicateValues.normalized(value)) else { return nil }
        switch (type, scalar) {
        case (.string, .string(let string)):
            return textParameter(string)
        case (.date, .date(let date)):
            return .real(date.timeIntervalSinceReferenceDate)
        case (.integer16, .int(let integer)), (.integer32, .int(let integer)), (.integer64, .int(let integer)),
             (.boolean, .int(let integer)), (.double, .int(let integer)), (.float, .int(let integer)), (.date, .int(let integer)):
            return Double(integer.magnitude) <= exactDoubleMagnitude ? .integer(integer) : nil
        case (.integer16, .double(let double)), (.integer32, .double(let double)), (.integer64, .double(let double)),
             (.boolean, .double(let double)), (.double, .double(let double)), (.float, .double(let double)), (.date, .double(let double)):
            return double.isFinite && double.magnitude <= exactDoubleMagnitude ? .real(double) : nil
        default:
            return nil
        }
    }

    /// A string as a text parameter; `nil` (the comparison stays in memory) for one holding a
    /// NUL, which SQLite text parameters end at.
    private static func textParameter(_ string: String) -> SQLValue? {
        string.utf8.contains(0) ? nil : .text(string)
    }

    // MARK: Sorts

    /// The descriptors as ORDER BY terms (without the `Z_PK` tie-break), or `nil` when one
    /// does not translate.
    package func ordering(for sortDescriptors: [ObjectSortDescriptor]) -> String? {
        var terms: [String] = []
        for descriptor in sortDescriptors {
            guard let (expression, type) = attributeExpression(descriptor.key) else { return nil }
            var term = expression
            if type == .string {
                switch dialect {
                case .sqlite:
                    guard let collation = Self.sortCollationNames[descriptor.comparison] else { return nil }
                    term += " COLLATE \(collation)"
                case .postgreSQL:
                    // Code point order (`compare`); the localized comparisons sort in memory.
                    guard descriptor.comparison == .compare else { return nil }
                    term += " COLLATE \"C\""
                }
            }
            // SQLite puts NULL first ascending and last descending, as the evaluator does;
            // PostgreSQL the other way round unless told.
            terms.append(term + (descriptor.ascending ? " ASC" : " DESC") + (dialect == .postgreSQL ? (descriptor.ascending ? " NULLS FIRST" : " NULLS LAST") : ""))
        }
        return terms.joined(separator: ", ")
    }

    // MARK: Swift comparisons in SQL

    static let stringMatchFunction = "MO_STRING_MATCH"
    static let stringOperatorCodes: [PredicateOperator: Int] = [.beginsWith: 1, .endsWith: 2, .contains: 3, .like: 4, .matches: 5]
    /// By code: looked up for every row the function runs on.
    static let stringOperators: [PredicateOperator?] = (0...stringOperatorCodes.values.max()!).map { code in
        stringOperatorCodes.first { $0.value == code }?.key
    }

    /// The `[c]`/`[d]` options that change how strings compare: the others are hints.
    static let foldingOptions: [PredicateComparisonOptions] = [
        [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive],
    ]

    static func predicateCollationName(_ options: PredicateComparisonOptions) -> String {
        let folding = options.intersection([.caseInsensitive, .diacriticInsensitive])
        return "MO_PREDICATE" + (folding.isEmpty ? "" : "_" + folding.letters.uppercased())
    }

    /// A collation per sort comparison (the localized ones in the process's current locale,
    /// as in memory).
    static let sortCollationNames: [ObjectSortDescriptor.Comparison: String] = [
        .compare: "MO_SORT_COMPARE", .caseInsensitive: "MO_SORT_CASEINSENSITIVE", .localized: "MO_SORT_LOCALIZED",
        .localizedCaseInsensitive: "MO_SORT_LOCALIZEDCASEINSENSITIVE", .localizedStandard: "MO_SORT_STANDARD",
    ]
}

extension CoreDataSchema.Storage {
    /// The column of an attribute or a to-one's foreign key.
    var column: String? {
        switch self {
        case .attribute(let column, _), .toOne(let column, _): column
        default: nil
        }
    }
}
