import Foundation
import ManagedObjects

extension PersistentStoreDescription {
    /// Reads Core Data's store options as Core Data reads them, for both ways in:
    /// `addPersistentStore(ofType:configurationName:at:options:)` and a store description's
    /// `options`. An absent migration option is off (a description's are on unless set off).
    /// Throws for `NSSQLitePragmasOption` pragmas SQLite cannot be given.
    mutating func read(coreDataOptions options: [AnyHashable: Any]) throws {
        shouldMigrateStoreAutomatically = storeOptionIsOn(options[NSMigratePersistentStoresAutomaticallyOption])
        shouldInferMappingModelAutomatically = storeOptionIsOn(options[NSInferMappingModelAutomaticallyOption])
        persistentHistoryTracking = storeOptionIsOn(options[NSPersistentHistoryTrackingKey])
        postsRemoteChangeNotifications = storeOptionIsOn(options[NSPersistentStoreRemoteChangeNotificationPostOptionKey])
        isReadOnly = storeOptionIsOn(options[NSReadOnlyPersistentStoreOption])
        vacuumsSQLiteStore = storeOptionIsOn(options[NSSQLiteManualVacuumOption])
        analyzesSQLiteStore = storeOptionIsOn(options[NSSQLiteAnalyzeOption])
        sqlitePragmas = try SQLitePragmas(coreDataOption: options[NSSQLitePragmasOption])
    }
}

extension SQLitePragmas {
    /// The pragmas of an `NSSQLitePragmasOption` value: a dictionary of names to strings or
    /// numbers (`["journal_mode": "DELETE", "cache_size": 4000]`).
    init(coreDataOption option: Any?) throws {
        guard let option else {
            self.init()
            return
        }
        guard option is [String: Any] || option is NSDictionary else {
            throw ManagedObjectError(.persistentStoreOpen, "NSSQLitePragmasOption: \(option) is not a dictionary of pragmas by name")
        }
        var values: [String: String] = [:]
        for (name, value) in pragmasByName(option) {
            switch value {
            case let text as String: values[name] = text
            case let text as NSString: values[name] = String(describing: text)
            case let number as NSNumber: values[name] = number.stringValue
            case let number as Int: values[name] = String(number)
            default:
                throw ManagedObjectError(.persistentStoreOpen, "NSSQLitePragmasOption: the pragma \(name)'s value \(value) is not a string or a number")
            }
        }
        try self.init(values)
    }
}

/// The pragmas of an `NSSQLitePragmasOption` value by name: a Swift dictionary, or an
/// `NSDictionary` read entry by entry (its keys `String` or `NSString`).
func pragmasByName(_ option: Any) -> [String: Any] {
    if let pragmas = option as? [String: Any] { return pragmas }
    guard let dictionary = option as? NSDictionary else { return [:] }
    var pragmas: [String: Any] = [:]
    for (key, value) in dictionary {
        if let name = key as? String ?? (key as? NSString).map({ String(describing: $0) }) { pragmas[name] = value }
    }
    return pragmas
}
