/// Xcode's template with "Use CloudKit" ticked: on Linux a plain `NSPersistentContainer`, which
/// syncs nothing (there is no CloudKit); its stores are local stores.
// Unchecked Sendable as its superclass.
open class NSPersistentCloudKitContainer: NSPersistentContainer, @unchecked Sendable {}
