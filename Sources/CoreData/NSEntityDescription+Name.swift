@_spi(CoreData) import ManagedObjects

extension EntityDescription {
    /// Core Data's `name`: a `String?` (`if let name = entity.name`, `entity().name ?? ""`), never
    /// `nil` here (setting `nil` on a draft clears it to ""). This module imports ManagedObjects,
    /// so in code that imports CoreData this declaration shadows the runtime's `name: String`;
    /// code on ManagedObjects alone keeps that.
    public var name: String? {
        get { entity.name }
        set { change("name") { $0.name = newValue ?? "" } }
    }
}

/// Core Data's entities are `NSObject`s, compared with `==` (`inverseEntity == object.entity`);
/// an entity here is one object per model, so equal means identical.
extension EntityDescription: Equatable {
    public static func == (lhs: EntityDescription, rhs: EntityDescription) -> Bool { lhs === rhs }
}
