import ManagedObjects

extension ManagedObject {
    /// Core Data's `entity()` class method: the entity a generated model binds this class to.
    /// Traps when none does (or several do), as Core Data raises when no loaded model claims the
    /// class; a class of a model read from a file at run time is not found (see
    /// Docs/RuntimeDifferences.md).
    public class func entity() -> EntityDescription {
        guard let entity = GeneratedModels.entity(for: self) else {
            preconditionFailure("entity(): no generated model binds the class \(self) to an entity (or several do)")
        }
        return entity
    }
}
