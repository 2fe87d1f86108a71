import Foundation

// `NSObject`'s class method `classForCoder()`, which Foundation on Apple platforms has and
// Foundation on Linux lacks (it has the instance property only). Core Data code finds its own
// bundle with it (SugarRecord's `Bundle(for: VersionProvider.classForCoder())`); a member of an
// extension reaches every file of a module that imports CoreData in one of them, so a file that
// imports only Foundation finds it too, as on Apple platforms.
extension NSObject {
    /// The class itself, as `NSObject`'s `+classForCoder` gives for a class that does not
    /// override it.
    public class func classForCoder() -> AnyClass { self }
}
