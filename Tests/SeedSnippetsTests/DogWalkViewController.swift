// The DogWalk chapter's view controller (seed 002, "A walk down persistence lane"), its Core Data
// code as the chapter writes it, with UIKit taken away: the class is no UIViewController, and
// `add(_:)` takes no button and reloads no table.
import Foundation
import CoreData

class ViewController {
    lazy var coreDataStack = CoreDataStack(modelName: "DogWalk")

    var currentDog: Dog?

    func viewDidLoad() {
        let dogName = "Fido"
        let dogFetch: NSFetchRequest<Dog> = Dog.fetchRequest()
        // The chapter writes `#keyPath(Dog.name)`, which needs the Objective-C runtime.
        dogFetch.predicate = NSPredicate(format: "%K == %@",
                                         "name", dogName)
        do {
            let results = try coreDataStack.managedContext.fetch(dogFetch)
            if results.count > 0 {
                // Fido found, use Fido
                currentDog = results.first
            } else {
                // Fido not found, create Fido
                currentDog = Dog(context: coreDataStack.managedContext)
                currentDog?.name = dogName
                coreDataStack.saveContext()
            }
        } catch let error as NSError {
            print("Fetch error: \(error) description: \(error.userInfo)")
        }
    }

    func add() {
        // Insert a new Walk entity into Core Data
        let walk = Walk(context: coreDataStack.managedContext)
        walk.date = Date()
        // Insert the new Walk into the Dog's walks set
        if let dog = currentDog,
           let walks = dog.walks?.mutableCopy()
               as? NSMutableOrderedSet {
            walks.add(walk)
            dog.walks = walks
        }
        // Save the managed object context
        coreDataStack.saveContext()
    }
}
