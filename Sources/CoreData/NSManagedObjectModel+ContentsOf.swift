#if ModelFiles
import Foundation
import ManagedObjects
import ModelFileLoading

extension ManagedObjectModel {
    /// Core Data's `NSManagedObjectModel(contentsOf:)`: the model file at `url` (a
    /// `.xcdatamodeld` or `.xcdatamodel`; there is no compiled `.momd`), its entities bound to the
    /// classes their `representedClassName` names, or `nil` when it cannot be read. The throwing
    /// `init(contentsOf:versionName:classes:)` tells why.
    public convenience init?(contentsOf url: URL) {
        guard let model = try? ModelLookup.model(at: url) else { return nil }
        self.init(model.model, classes: model.entitiesByName.mapValues(\.managedObjectClass))
    }
}
#endif
