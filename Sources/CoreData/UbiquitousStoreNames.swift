import Foundation
import ManagedObjects

// Core Data's iCloud ubiquitous-content names (deprecated there since iOS 10 and macOS 10.12),
// which older stacks still pass when they add a store (SugarRecord's iCloud storage). Linux has
// no iCloud: the options are accepted and not read, and no import notification is posted.
public let NSPersistentStoreUbiquitousContentNameKey = "NSPersistentStoreUbiquitousContentNameKey"
public let NSPersistentStoreUbiquitousContentURLKey = "NSPersistentStoreUbiquitousContentURLKey"
public let NSPersistentStoreUbiquitousPeerTokenOption = "NSPersistentStoreUbiquitousPeerTokenOption"
public let NSPersistentStoreRemoveUbiquitousMetadataOption = "NSPersistentStoreRemoveUbiquitousMetadataOption"
public let NSPersistentStoreUbiquitousContainerIdentifierKey = "NSPersistentStoreUbiquitousContainerIdentifierKey"
public let NSPersistentStoreRebuildFromUbiquitousContentOption = "NSPersistentStoreRebuildFromUbiquitousContentOption"

extension Notification.Name {
    /// Posted by Core Data when iCloud changes were imported into a ubiquitous store; never
    /// posted here.
    public static let NSPersistentStoreDidImportUbiquitousContentChanges =
        Notification.Name("com.apple.coredata.ubiquity.importer.didfinishimport")
}

extension FileManager {
    /// Foundation's iCloud container URL, `nil` when iCloud is not available, as it always is
    /// on Linux (Foundation there does not declare it).
    public func url(forUbiquityContainerIdentifier containerIdentifier: String?) -> URL? { nil }
}
