/// A store that hands the rows of a request to a snapshot's initializer one at a time, as it
/// reads them (``SnapshotValues`` over the row), instead of answering with ``StoredObject``s:
/// what `fetchSnapshots` reads through when the context's one store is such a store.
protocol SnapshotRowReading {
    /// Hands the request's rows (result type `.snapshots`) to `body` in the request's order;
    /// `false`, having read nothing, when the store's SQL does not answer the whole request (a
    /// predicate or sort left to evaluate in memory), for the caller to ask for stored objects.
    func readSnapshotRows(_ request: StoreRequest, _ body: (SnapshotValues) throws -> Void) throws -> Bool
}

extension FetchPlan {
    /// Hands the store's answer to `body` row by row, when the context reads from one store that
    /// reads rows so (``SnapshotRowReading``) and nothing is left to evaluate here; `false` else.
    func readStoreRows(_ body: (SnapshotValues) throws -> Void) throws -> Bool {
        guard !evaluatesInContext, let store = try context.answeringStore(for: storeRequest) as? SnapshotRowReading else {
            return false
        }
        var request = storeRequest
        request.resultType = .snapshots
        try context.coordinator.checkBindings(of: request)
        return try store.readSnapshotRows(request, body)
    }
}
