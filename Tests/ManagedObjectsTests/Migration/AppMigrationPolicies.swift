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
