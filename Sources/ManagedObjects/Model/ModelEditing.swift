import Logging

/// What happens to a change of a model description that may no longer change (its model is
/// in use, or it was read from a model file or generated code): Core Data raises; here the
/// change is not applied and a warning says so, through swift-log (label
/// `ManagedObjects.ManagedObjectModel`), naming the description and the key.
enum ModelEditing {
    private static let logger = Logger(label: "ManagedObjects.ManagedObjectModel")

    static func ignore(_ key: String, of description: String, because reason: String = "its model is in use or was not built in code") {
        logger.warning("ignored: setting '\(key)' of \(description): \(reason)")
    }
}
