import GRDB

extension SQLiteStore: SnapshotRowReading {
    /// Steps the request's statement and hands each row to `body` while the statement is on it
    /// (``SQLSnapshotRow``): no ``StoredObject`` per row. To-manys the snapshot asks for are read
    /// in the same read transaction.
    func readSnapshotRows(_ request: StoreRequest, _ body: (SnapshotValues) throws -> Void) throws -> Bool {
        let plan = fetchPlan(for: request)
        let rest = plan.rest
        guard plan.countStatement == nil, rest.predicate == nil, rest.sortDescriptors.isEmpty,
              rest.fetchOffset <= 0, rest.fetchLimit <= 0 else { return false }
        return try read { db in
            let statement = try db.cachedStatement(sql: plan.statement)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(plan.arguments))
            try withExtendedLifetime(rows) {
                try SQLSnapshotRow.forEachRow(
                    of: SQLiteStatementCells(statement.sqliteStatement), reader: rowReader, step: { try rows.next() != nil },
                    entityNumber: { [self] in try entityNumber(ofRow: $1, in: $0, db: db) },
                    relatedObjectIDs: { [self] in try relatedObjectIDs(of: $0, relationship: $1, db: db) },
                    body)
            }
            return true
        }
    }
}
