// Apart from the tests that use it, for the SPI registration it needs.
import CoreData
@_spi(Generated) import ManagedObjects

/// The Twitter model, registered once as generated code registers its model, so that
/// `entity()` finds the classes it binds (the hand-written `Tweet` and `TwitterUser`).
enum RegisteredTwitterModel {
    static let model: NSManagedObjectModel? = {
        guard let url = Bundle.module.url(forResource: "Twitter", withExtension: "xcdatamodeld"),
              let model = NSManagedObjectModel(contentsOf: url) else { return nil }
        GeneratedModels.register("EntityShapeTests.Twitter") { model }
        return model
    }()

    static func entity(for objectClass: NSManagedObject.Type) -> NSEntityDescription? {
        GeneratedModels.entity(for: objectClass)
    }
}
