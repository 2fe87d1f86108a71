// CS193p's way to the container (seeds 000 and 003): Xcode's template puts it in the app
// delegate, named after the app (the lecture's Smashtag), and the lecture adds static vars. There is no `UIApplication` on Linux, so
// `(UIApplication.shared.delegate as! AppDelegate)` is `AppDelegate.shared` here.
import CoreData

@MainActor
class AppDelegate {
    static let shared = AppDelegate()

    lazy var persistentContainer: NSPersistentContainer = {
        let container = NSPersistentContainer(name: "Smashtag")
        container.loadPersistentStores(completionHandler: { (storeDescription, error) in
            if let error = error as NSError? {
                fatalError("Unresolved error \(error), \(error.userInfo)")
            }
        })
        return container
    }()

    static var persistentContainer: NSPersistentContainer {
        return AppDelegate.shared.persistentContainer
    }

    static var viewContext: NSManagedObjectContext {
        return persistentContainer.viewContext
    }
}
