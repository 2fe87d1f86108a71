import DataModel
import Foundation

/// A fetched property: a to-many computed by a fetch request, not stored. Core Data's
/// `NSFetchedPropertyDescription`. `init()` makes a draft (see ``PropertyDescription``); the
/// model keeps its request's entity and predicate (`FetchRequestTemplate`), not its sorts.
public final class FetchedPropertyDescription: PropertyDescription, @unchecked Sendable {
    @exclusivity(unchecked) public private(set) var fetchedProperty: FetchedProperty

    init(_ fetchedProperty: FetchedProperty) {
        self.fetchedProperty = fetchedProperty
        super.init(tag: .fetchedProperty, index: -1, isDraft: false)
    }

    /// A draft fetched property: no name, no request, optional.
    public init() {
        fetchedProperty = FetchedProperty(name: "", isOptional: true, fetchRequest: FetchRequestTemplate(name: "", entity: ""))
        super.init(tag: .fetchedProperty, index: -1, isDraft: true)
    }

    func adopt(_ fetchedProperty: FetchedProperty) {
        self.fetchedProperty = fetchedProperty
    }

    /// Applies `mutate` to a draft's fetched property; logs and ignores it otherwise.
    @_spi(CoreData) public func change(_ key: String, _ mutate: (inout FetchedProperty) -> Void) {
        guard isEditable else { return ModelEditing.ignore(key, of: description) }
        mutate(&fetchedProperty)
    }

    /// The request that fetches the property's objects: its entity and predicate (`nil` when
    /// none is set).
    public var fetchRequest: FetchRequest<ManagedObject>? {
        get { fetchRequest(of: ManagedObject.self) }
        set { setFetchRequest(newValue) }
    }

    /// ``fetchRequest`` with results of another type (Core Data's `NSFetchRequestResult`).
    public func fetchRequest<Result>(of _: Result.Type) -> FetchRequest<Result>? {
        let template = fetchedProperty.fetchRequest
        guard !template.entity.isEmpty else { return nil }
        let request = FetchRequest<Result>(entityName: template.entity)
        request.predicate = template.predicateString.flatMap { try? ObjectPredicate(parsing: $0) }
        return request
    }

    /// Sets ``fetchRequest`` from a request with results of any type.
    public func setFetchRequest<Result>(_ request: FetchRequest<Result>?) {
        change("fetchRequest") { property in
            property.fetchRequest = FetchRequestTemplate(
                name: property.name, entity: request?.entityName ?? "", predicateString: request?.predicate?.predicateFormat)
        }
    }

    public override var description: String { "FetchedPropertyDescription(\(name))" }
}
