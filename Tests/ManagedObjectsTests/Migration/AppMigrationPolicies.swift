import Foundation
@testable import ManagedObjects

/// Swift ports of the `NSEntityMigrationPolicy` subclasses the apps in `shared/stores` ship
/// (their sources are under `shared/stores/<repo>/policies/`, with the repositories' licences),
/// registered under the class names their mapping models give. Each port follows its original
/// line for line; what differs is said where it does (`fatalError` becomes a thrown error, and
/// `NSEntityDescription.insertNewObject(forEntityName:into:)` is the `CoreData` module's, so
/// these insert with `ManagedObject(entity:insertInto:)`).
enum AppMigrationPolicies {
    static func registerAll() {
        EntityMigrationPolicies.register(Post2ToPost3MigrationPolicy.self, named: "Post2ToPost3MigrationPolicy")
        EntityMigrationPolicies.register(Country5ToCountry6Policy.self, named: "Country5ToCountry6Policy")
        EntityMigrationPolicies.register(MHWBookToBookPolicy.self, named: "MHWBookToBookPolicy")
        EntityMigrationPolicies.register(MHWUserToUserPolicy.self, named: "MHWUserToUserPolicy")
    }

    /// What the originals' `fatalError`s report here.
    struct PolicyFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A new object of the entity named `name` in `context` (Core Data's `NSEntityDescription.insertNewObject`).
    static func insertNewObject(forEntityName name: String, into context: ManagedObjectContext) throws -> ManagedObject {
        guard let entity = context.persistentStoreCoordinator.managedObjectModel[name] else {
            throw PolicyFailure(description: "the destination model has no entity \(name)")
        }
        return ManagedObject(entity: entity, insertInto: context)
    }
}

// MARK: - wibosco/CoreDataMigration-Example, Post2ToPost3MigrationPolicy.swift (MIT)

/// Each post gets a Color object holding its former `hexColor`.
final class Post2ToPost3MigrationPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)

        guard let destinationPost = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first else {
            throw AppMigrationPolicies.PolicyFailure(description: "Expected a post")
        }

        let color = try AppMigrationPolicies.insertNewObject(forEntityName: "Color", into: destinationPost.managedObjectContext!)
        color.setValue(UUID().uuidString, forKey: "colorID")
        color.setValue(sInstance.value(forKey: "hexColor"), forKey: "hex")

        destinationPost.setValue(color, forKey: "color")
    }
}

// MARK: - objcio/core-data, Country5ToCountry6Policy.swift (MIT)

/// Each country gets the Continent of its former `isoContinent`, made once per code.
final class Country5ToCountry6Policy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
        guard let continentCode = sInstance.isoContinent else { return }
        guard let country = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first
        else { throw AppMigrationPolicies.PolicyFailure(description: "must return country") }
        guard let context = country.managedObjectContext else { throw AppMigrationPolicies.PolicyFailure(description: "must have context") }
        let continent = try context.findOrCreateContinent(withISOCode: continentCode)
        country.setContinent(continent)
    }
}

private let NumericISO3166CodeKey = "numericISO3166Code"
private let IsoContinentKey = "isoContinent"
private let ContinentKey = "continent"
private let ContinentEntityName = "Continent"

extension ManagedObject {
    fileprivate var isoContinent: NSNumber? {
        return value(forKey: IsoContinentKey) as? NSNumber
    }

    fileprivate func setContinent(_ continent: ManagedObject) {
        setValue(continent, forKey: ContinentKey)
    }

    fileprivate func isContinent(withCode code: NSNumber) -> Bool {
        return entity.name == ContinentEntityName && (value(forKey: NumericISO3166CodeKey) as? NSNumber) == code
    }
}

extension ManagedObjectContext {
    fileprivate func findOrCreateContinent(withISOCode isoCode: NSNumber) throws -> ManagedObject {
        guard let continent = materializedObject(matching: { $0.isContinent(withCode: isoCode) }) else {
            let continent = try AppMigrationPolicies.insertNewObject(forEntityName: ContinentEntityName, into: self)
            continent.setValue(isoCode, forKey: NumericISO3166CodeKey)
            return continent
        }
        return continent
    }

    fileprivate func materializedObject(matching condition: (ManagedObject) -> Bool) -> ManagedObject? {
        for object in registeredObjects where !object.isFault {
            guard condition(object) else { continue }
            return object
        }
        return nil
    }
}

// MARK: - hwaxxer/BookMigration, MHWBookToBookPolicy.m, MHWUserToUserPolicy.m, NSMigrationManager+Lookup.m (MIT)

extension MigrationManager {
    /// `-[NSMigrationManager lookupWithKey:]`: a dictionary kept in `userInfo` under `lookupKey`.
    /// (Objective-C shares the mutable dictionary; here it is read and written back.)
    fileprivate func lookup(withKey lookupKey: String) -> [String: ManagedObject] {
        userInfo[lookupKey] as? [String: ManagedObject] ?? [:]
    }

    fileprivate func setLookup(_ lookup: [String: ManagedObject], withKey lookupKey: String) {
        userInfo[lookupKey] = lookup
    }
}

extension ManagedObject {
    /// `dictionaryWithValuesForKeys:` of the entity's attribute names.
    fileprivate var attributeValues: [String: Any] {
        var values: [String: Any] = [:]
        for attribute in entity.attributes { values[attribute.name] = value(forKey: attribute.name) }
        return values
    }

    /// The attributes of `sourceValues` this object's entity has, without nil values.
    fileprivate func copyAttributes(from sourceValues: [String: Any]) {
        for key in entity.attributes.map(\.name) {
            // Avoid NULL values
            if let value = sourceValues[key] {
                setValue(value, forKey: key)
            }
        }
    }
}

/// Model 2: each book's `authorName` becomes an Author, one per name. Model 3: each book's users
/// become Files (the book's file URL, the destination User of the same `userId`).
final class MHWBookToBookPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource sourceInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        let modelVersion = Int(mapping.userInfo["modelVersion"] ?? "") ?? 0
        if modelVersion == 2 || modelVersion == 3 {
            let sourceValues = sourceInstance.attributeValues

            let destinationInstance = try AppMigrationPolicies.insertNewObject(forEntityName: mapping.destinationEntityName, into: manager.destinationContext)
            destinationInstance.copyAttributes(from: sourceValues)

            if modelVersion == 2 {
                // Check if we've already created the authors lookup
                var authorLookup = manager.lookup(withKey: "authors")
                // Check if we've already created this author
                let authorName = sourceInstance.value(forKey: "authorName") as? String ?? ""
                var author = authorLookup[authorName]
                if author == nil {
                    // Create the author
                    let created = try AppMigrationPolicies.insertNewObject(forEntityName: "Author", into: manager.destinationContext)
                    created.setValue(authorName, forKey: "name")
                    // Populate lookup for reuse
                    authorLookup[authorName] = created
                    manager.setLookup(authorLookup, withKey: "authors")
                    author = created
                }
                let authors = destinationInstance.value(forKey: "authors") as? Set<ManagedObject> ?? []
                destinationInstance.setValue(authors.union([author!]), forKey: "authors")
            } else if modelVersion == 3 {
                let sourceUsers = sourceInstance.value(forKey: "users") as? Set<ManagedObject> ?? []
                for sourceUser in sourceUsers {
                    let file = try AppMigrationPolicies.insertNewObject(forEntityName: "File", into: manager.destinationContext)
                    file.setValue(sourceInstance.value(forKey: "fileURL"), forKey: "fileURL")
                    file.setValue(destinationInstance, forKey: "book")

                    let userId = (sourceUser.value(forKey: "userId") as? NSNumber)?.intValue ?? 0
                    let request = FetchRequest<ManagedObject>(entityName: "User")
                    request.predicate = ObjectPredicate(format: "userId = %d", userId)
                    let destinationUser = try manager.destinationContext.fetch(request).last
                    file.setValue(destinationUser, forKey: "user")
                }
            }
            manager.associate(sourceInstance: sourceInstance, withDestinationInstance: destinationInstance, for: mapping)
        } else {
            try super.createDestinationInstances(forSource: sourceInstance, in: mapping, manager: manager)
        }
    }
}

/// Model 3: users copied, and given the Files the lookup `files` holds for their books (a lookup
/// the app's code never fills, so none).
final class MHWUserToUserPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource sourceInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        let modelVersion = Int(mapping.userInfo["modelVersion"] ?? "") ?? 0
        if modelVersion == 3 {
            let destinationInstance = try AppMigrationPolicies.insertNewObject(forEntityName: mapping.destinationEntityName, into: manager.destinationContext)

            let sourceValues = sourceInstance.attributeValues
            destinationInstance.copyAttributes(from: sourceValues)

            let books = sourceInstance.value(forKey: "books") as? Set<ManagedObject> ?? []
            let filesLookup = manager.lookup(withKey: "files")
            for book in books {
                let bookObjectID = book.objectID.uriRepresentation.description
                let file = filesLookup[bookObjectID]
                file?.setValue(destinationInstance, forKey: "user")
            }

            manager.associate(sourceInstance: sourceInstance, withDestinationInstance: destinationInstance, for: mapping)
        } else {
            try super.createDestinationInstances(forSource: sourceInstance, in: mapping, manager: manager)
        }
    }
}
