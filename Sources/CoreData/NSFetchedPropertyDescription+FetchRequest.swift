import ManagedObjects

extension FetchedPropertyDescription {
    /// Core Data's `fetchRequest`, typed as Core Data code writes it. The model keeps the
    /// request's entity and predicate.
    public var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get { fetchRequest(of: NSFetchRequestResult.self) }
        set { setFetchRequest(newValue) }
    }
}
