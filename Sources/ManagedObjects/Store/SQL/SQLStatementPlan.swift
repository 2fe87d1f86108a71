
/// How an SQL store answers a ``StoreRequest``: a statement that reads the rows (or counts
/// them), and what is left to evaluate in memory over the rows it reads. As much of the request
/// as ``SQLPredicateTranslator`` turns into SQL in the store's dialect; when the predicate does
/// not translate whole, the rows read are narrowed by the parts that do and the predicate is
/// evaluated in memory. Parameters are `?` (a PostgreSQL store numbers them).
package struct SQLStatementPlan {
    /// Reads the candidate rows (the columns of ``CoreDataSchema/selectClause(_:dialect:)``),
    /// in the order `rest` expects them.
    package var statement: String
    /// Counts the matching objects, when SQL answers a count request alone.
    package var countStatement: String?
    package var arguments: [SQLValue]
    /// The table and the WHERE (on its rows as `SQLPredicateTranslator.tableAlias`) that
    /// selects the candidate rows (`arguments` bind it), for a batch request's UPDATE or DELETE.
    package var table: String
    package var conditions: String
    /// The request as it remains for ``StoreRequest/evaluate(over:graph:)``: the parts
    /// SQL answered are removed.
    package var rest: StoreRequest

    package init(_ request: StoreRequest, schema: CoreDataSchema, dialect: SQLDialect) {
        let alias = SQLPredicateTranslator.tableAlias
        let table = schema.table(of: request.entity)
        let numbers = request.entities.compactMap { schema.entityNumbers[$0.name] }
        // A request for every entity of the table (a root and all its sub-entities) needs no
        // Z_ENT test: COUNT(*) of the whole table is the fastest answer.
        let wholeTable = request.entities.count == request.entity.rootEntity.selfAndDescendants.count
        var conditions = wholeTable ? [] : ["\(alias).Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"]
        var arguments: [SQLValue] = []
        var rest = request
        let translator = SQLPredicateTranslator(schema: schema, entity: request.entity, dialect: dialect)
        if let predicate = request.predicate {
            if let condition = translator.condition(for: predicate) {
                conditions.append(condition.sql)
                arguments += condition.arguments
                rest.predicate = nil
            } else if let narrowing = translator.narrowing(for: predicate) {
                conditions.append(narrowing.sql)
                arguments += narrowing.arguments
            }
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE \(conditions.joined(separator: " AND "))"
        let from = "FROM \(table.name) \(alias)\(whereClause)"
        self.table = table.name
        self.conditions = whereClause
        if request.resultType == .count, rest.predicate == nil {
            statement = ""
            countStatement = "SELECT COUNT(*) \(from)"
            self.arguments = arguments
            self.rest = rest
            return
        }
        // Dictionary results sort their groups in memory; a translated sort of objects is SQL's.
        var ordering = ""
        if !request.resultType.isDictionaries, let terms = translator.ordering(for: request.sortDescriptors) {
            ordering = terms.isEmpty ? "" : terms + ", "
            rest.sortDescriptors = []
        }
        var window = ""
        if rest.predicate == nil, rest.sortDescriptors.isEmpty, !request.resultType.isDictionaries,
           request.fetchOffset > 0 || request.fetchLimit > 0 {
            window = " LIMIT ? OFFSET ?"
            // No limit: SQLite's -1, PostgreSQL's NULL.
            let noLimit: SQLValue = dialect == .sqlite ? .integer(-1) : .null
            arguments += [request.fetchLimit > 0 ? .integer(Int64(request.fetchLimit)) : noLimit, .integer(Int64(max(0, request.fetchOffset)))]
            rest.fetchOffset = 0
            rest.fetchLimit = 0
        }
        statement = "\(schema.selectClause(table, dialect: dialect)) \(from) ORDER BY \(ordering)\(alias).Z_PK\(window)"
        countStatement = nil
        self.arguments = arguments
        self.rest = rest
    }
}
