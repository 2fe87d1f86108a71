import Foundation
import ManagedObjects

extension PersistentStoreDescription {
    /// Reads Core Data's store options as Core Data reads them, for both ways in:
    /// `addPersistentStore(ofType:configurationName:at:options:)` and a store description's
    /// `options`. An absent migration option is off (a description's are on unless set off).
    /// Throws for `NSSQLitePragmasOption` pragmas SQLite cannot be given, and for an
    /// `NSPersistentStoreTimeoutOption` that is not a number of seconds.
    mutating func read(coreDataOptions options: [AnyHashable: Any]) throws {
        shouldMigrateStoreAutomatically = storeOptionIsOn(options[NSMigratePersistentStoresAutomaticallyOption])
        shouldInferMappingModelAutomatically = storeOptionIsOn(options[NSInferMappingModelAutomaticallyOption])
        persistentHistoryTracking = storeOptionIsOn(options[NSPersistentHistoryTrackingKey])
        postsRemoteChangeNotifications = storeOptionIsOn(options[NSPersistentStoreRemoteChangeNotificationPostOptionKey])
        isReadOnly = storeOptionIsOn(options[NSReadOnlyPersistentStoreOption])
        vacuumsSQLiteStore = storeOptionIsOn(options[NSSQLiteManualVacuumOption])
        analyzesSQLiteStore = storeOptionIsOn(options[NSSQLiteAnalyzeOption])
        sqlitePragmas = try SQLitePragmas(coreDataOption: options[NSSQLitePragmasOption])
        if let timeout = options[NSPersistentStoreTimeoutOption] {
            try sqlitePragmas.setTimeout(coreDataOption: timeout)
        }
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

extension SQLitePragmas {
    /// `NSPersistentStoreTimeoutOption`: how many seconds a connection waits for another
    /// connection's lock before its statement fails (SQLite's `busy_timeout`, in milliseconds;
    /// 10 seconds without it). A `busy_timeout` the pragmas name wins.
    mutating func setTimeout(coreDataOption option: Any) throws {
        let seconds: Double? = switch option {
        case let number as NSNumber: number.doubleValue
        case let number as Double: number
        case let number as Int: Double(number)
        default: nil
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= Double(Int32.max) / 1_000 else {
            throw ManagedObjectError(
                .persistentStoreOpen, "NSPersistentStoreTimeoutOption: \(option) is not a number of seconds from 0 to \(Int32.max / 1_000)")
        }
        guard !values.keys.contains(where: { $0.lowercased() == "busy_timeout" }) else { return }
        var values = values
        values["busy_timeout"] = String(Int((seconds * 1_000).rounded()))
        self = try SQLitePragmas(values)
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
