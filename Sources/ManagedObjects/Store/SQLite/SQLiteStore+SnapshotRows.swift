import GRDB

extension SQLiteStore: SnapshotRowReading {
    /// Steps the request's statement and hands each row to `make` while the statement is on it
    /// (``SQLSnapshotRow``): no ``StoredObject`` per row. To-manys the snapshot asks for are read
    /// in the same read transaction.
    func readSnapshotRows<Snapshot>(
        _ request: StoreRequest, _ make: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot]? {
        let plan = fetchPlan(for: request)
        let rest = plan.rest
        guard plan.countStatement == nil, rest.predicate == nil, rest.sortDescriptors.isEmpty,
              rest.fetchOffset <= 0, rest.fetchLimit <= 0 else { return nil }
        return try read { db in
            let statement = try db.cachedStatement(sql: plan.statement)
            let rows = try Row.fetchCursor(statement, arguments: StatementArguments(plan.arguments))
            let sqliteStatement = statement.sqliteStatement
            let row = SQLSnapshotRow(
                reader: rowReader, column: { SQLValue(DatabaseValue(sqliteStatement: sqliteStatement, index: CInt($0))) },
                entityNumber: { [self] in try entityNumber(ofRow: $1, in: $0, db: db) },
                relatedObjectIDs: { [self] in try relatedObjectIDs(of: $0, relationship: $1, db: db) })
            var snapshots: [Snapshot] = []
            try withExtendedLifetime(rows) {
                while try rows.next() != nil {
                    guard let values = row.currentValues() else { continue }
                    let snapshot = try make(values)
                    try row.checkRead()
                    snapshots.append(snapshot)
                }
            }
            return snapshots
        }
    }
}
