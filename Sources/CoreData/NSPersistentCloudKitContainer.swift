/// Xcode's template with "Use CloudKit" ticked: on Linux a plain `NSPersistentContainer`, which
/// syncs nothing (there is no CloudKit); its stores are local stores.
open class NSPersistentCloudKitContainer: NSPersistentContainer, @unchecked Sendable {}
