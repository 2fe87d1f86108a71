import Foundation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FetchRequest where Result: FetchableManagedObject {
    /// A request for `Result`'s entity with a typed predicate and sort, as SwiftData's
    /// `FetchDescriptor` takes them:
    /// `FetchRequest(predicate: #Predicate<Tweet> { $0.text != nil }, sortBy: [SortDescriptor(\Tweet.created, order: .reverse)])`.
    /// They become the format-string predicate and key-path sort descriptors stores run; one
    /// that cannot (see ``ObjectPredicate/init(_:)``) makes the fetch throw, naming it.
    public convenience init(predicate: Predicate<Result>? = nil, sortBy sortDescriptors: [SortDescriptor<Result>] = []) {
        self.init(entityName: Result.entityName)
        if let predicate { filter(predicate) }
        sort(by: sortDescriptors)
    }

    /// Adds a typed condition: the request keeps the objects both its predicate (a fetch-request
    /// template's, say) and `predicate` accept.
    public func filter(_ predicate: Predicate<Result>) {
        do {
            let typed = try ObjectPredicate(predicate)
            self.predicate = self.predicate.map { $0 && typed } ?? typed
        } catch {
            self.predicate = nil
            typedPredicateError = error
        }
    }

    /// Replaces the sort descriptors with typed ones.
    public func sort(by sortDescriptors: [SortDescriptor<Result>]) {
        do {
            self.sortDescriptors = try sortDescriptors.map(ObjectSortDescriptor.init)
        } catch {
            self.sortDescriptors = []
            typedSortError = error
        }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FetchableManagedObject {
    /// The objects of this class's entity that `predicate` accepts, sorted:
    /// `try Tweet.fetch(where: #Predicate { $0.text != nil }, sortedBy: [SortDescriptor(\.created)], in: context)`.
    /// (`where` has no default: `Tweet.fetch(in:)` is the untyped form's, unambiguously.)
    public static func fetch(
        where predicate: Predicate<Self>?, sortedBy sortDescriptors: [SortDescriptor<Self>] = [],
        in context: ManagedObjectContext
    ) throws -> [Self] {
        try context.fetch(FetchRequest<Self>(predicate: predicate, sortBy: sortDescriptors))
    }

    /// Every object of this class's entity, in the order of typed sort descriptors:
    /// `try Tweet.fetch(sortedBy: [SortDescriptor(\.created)], in: context)`.
    public static func fetch(sortedBy sortDescriptors: [SortDescriptor<Self>], in context: ManagedObjectContext) throws -> [Self] {
        try fetch(where: nil, sortedBy: sortDescriptors, in: context)
    }

    /// How many objects of this class's entity `predicate` accepts.
    public static func count(where predicate: Predicate<Self>, in context: ManagedObjectContext) throws -> Int {
        try context.count(for: FetchRequest<Self>(predicate: predicate))
    }

    /// The first object of this class's entity, in sort order, that `predicate` accepts.
    public static func first(
        where predicate: Predicate<Self>, sortedBy sortDescriptors: [SortDescriptor<Self>] = [],
        in context: ManagedObjectContext
    ) throws -> Self? {
        let request = FetchRequest<Self>(predicate: predicate, sortBy: sortDescriptors)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }
}
