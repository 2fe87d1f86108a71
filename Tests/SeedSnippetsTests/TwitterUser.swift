// The lecture's hand-written class for the TwitterUser entity (seed 000: "… and here's a class
// for our TwitterUser Entity"); the plugin writes its properties as Xcode's extension does.
import CoreData

class TwitterUser: NSManagedObject {
}
