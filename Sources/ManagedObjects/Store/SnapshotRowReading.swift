/// A store that hands the rows of a request to a snapshot's initializer one at a time, as it
/// reads them (``SnapshotValues`` over the row), instead of answering with ``StoredObject``s:
/// what `fetchSnapshots` reads through when the context's one store is such a store.
protocol SnapshotRowReading {
    /// The request's rows (result type `.snapshots`) made into values by `make` in the
    /// request's order; `nil` when the store's SQL does not answer the whole request (a
    /// predicate or sort left to evaluate in memory), for the caller to ask for stored objects.
    func readSnapshotRows<Snapshot>(
        _ request: StoreRequest, _ make: (SnapshotValues) throws -> Snapshot
    ) throws -> [Snapshot]?
}

extension FetchPlan {
    /// The store's answer made into snapshots row by row, when the context reads from one store
    /// that reads rows so (``SnapshotRowReading``) and nothing is left to evaluate here.
    func readStoreRows<Snapshot>(_ make: (SnapshotValues) throws -> Snapshot) throws -> [Snapshot]? {
        guard !evaluatesInContext, let store = try context.answeringStore(for: storeRequest) as? SnapshotRowReading else {
            return nil
        }
        var request = storeRequest
        request.resultType = .snapshots
        try context.coordinator.checkBindings(of: request)
        return try store.readSnapshotRows(request, make)
    }
}
