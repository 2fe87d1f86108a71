import Foundation
@testable import ManagedObjects

// CoreDataPlus's migrations of SampleModel2 (alemar11/CoreDataPlus, MIT; the sources are beside
// the stores in `shared/stores/alemar11__CoreDataPlus/SampleModel2`), ported to the runtime:
// its V2 → V3 mapping models (`SampleModel2+V3.swift`, built in code), its policy
// (`BookCoverToCoverMigrationPolicy.swift`) and the way its `Migrator` runs a step's mapping
// models (a new manager for each, all into one new store).

// MARK: - BookCoverToCoverMigrationPolicy.swift

/// CoreDataPlus's `Cover` (an `NSSecureCoding` class with a `text`), read from the keyed archive
/// the port's pass-through transformer gives (``SampleModel2Port``): the archive's root object's `text`.
struct Cover {
    var text: String

    init?(archive: Any?) {
        guard let data = archive as? Data,
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let objects = plist["$objects"] as? [Any],
              let top = plist["$top"] as? [String: Any], let root = top["root"].flatMap(Cover.uid), root < objects.count,
              let fields = objects[root] as? [String: Any], let textIndex = fields["text"].flatMap(Cover.uid), textIndex < objects.count,
              let text = objects[textIndex] as? String
        else { return nil }
        self.text = text
    }

    /// A UID's value: Foundation on Linux gives binary plists' UIDs as its internal
    /// `_NSKeyedArchiverUID` (its number in `value`).
    static func uid(_ reference: Any) -> Int? {
        guard String(describing: type(of: reference)) == "_NSKeyedArchiverUID" else { return nil }
        return Mirror(reflecting: reference).children.first { $0.label == "value" }.flatMap { child in
            (child.value as? UInt32).map(Int.init)
        }
    }
}

/// Line for line but for: `fatalError` becomes a thrown error; `#keyPath(BookV2.frontCover)` and
/// `#keyPath(CoverV3.data)`/`.book` are their strings; `NSEntityDescription.insertNewObject` is
/// ``AppMigrationPolicies/insertNewObject(forEntityName:into:)``; the `Cover` is read from its archive.
final class BookCoverToCoverMigrationPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource sInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        // This method is invoked by the migration manager on each source instance (as specified by the sourceExpression in the mapping)
        // to create the corresponding destination instance(s).
        // It also associates the source and destination instances by calling NSMigrationManager’s associate(sourceInstance:withDestinationInstance:for:) method.
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)

        // This is how we can use the NSEntityMapping userInfo to pass additional data to the policy.
        guard let version = mapping.userInfo["modelVersion"], version == "V3" else {
            throw AppMigrationPolicies.PolicyFailure(description: "Missing model version .")
        }

        guard let frontCover = Cover(archive: sInstance.value(forKey: "frontCover")) else {
            return
        }

        guard let book = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [sInstance]).first else {
            throw AppMigrationPolicies.PolicyFailure(description: "must return book")
        }

        guard let context = book.managedObjectContext else {
            throw AppMigrationPolicies.PolicyFailure(description: "must have context")
        }

        let cover = try AppMigrationPolicies.insertNewObject(forEntityName: "Cover", into: context)
        cover.setValue(frontCover.text.data(using: .utf8), forKey: "data")
        cover.setValue(book, forKey: "book")
    }

    override func createRelationships(forDestination dInstance: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
        // In a properly designed data model, this method will rarely, if ever, be needed.
    }

    /// Called by the original's title mapping through `FUNCTION($entityPolicy, "destinationTitleForSourceBookTitle:manager:", …)`,
    /// which the runtime does not evaluate: the port's mapping reads `$source.title`, what this returns.
    func destinationTitle(forSourceBookTitle sTitle: String, manager: MigrationManager) -> String {
        sTitle
    }
}

// MARK: - SampleModel2+V3.swift, the V2 → V3 mapping models

/// The original's `NSExpression`s in the runtime's terms: `$source.<key>` is `.sourceKeyPath`,
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<key>)`
/// is `.destinationInstances`, `"destinationInstancesForSourceRelationshipNamed:…"` is `.sourceKeyPath`
/// (the destination objects made of the related source objects), `$source.rating + 10` an
/// ``ObjectExpression``, and a `sourceExpression` that fetches with a predicate is `sourcePredicate`
/// (`TRUEPREDICATE`: none). Left out: the Cover mapping (no source entity, no source expression:
/// it makes nothing, in Core Data too; the policy makes the covers), and the value-less
/// `frontCover` the original lists among Book's relationship mappings (an attribute: Core Data
/// leaves it its default).
enum SampleModel2MappingPort {
    static func sourceKeyPaths(_ names: [String]) -> [PropertyMapping] {
        names.map { PropertyMapping(name: $0, value: .sourceKeyPath($0)) }
    }

    static func makeBookMapping() -> EntityMapping {
        EntityMapping(
            name: "BookToBook", sourceEntityName: "Book", destinationEntityName: "Book",
            attributeMappings: sourceKeyPaths(["pagesCount", "price", "publishedAt", "title", "uniqueID"]),
            relationshipMappings: [
                PropertyMapping(name: "author", value: .destinationInstances(entityMappingName: "AuthorToAuthor", sourceKeyPath: "author")),
                PropertyMapping(name: "pages", value: .destinationInstances(entityMappingName: "PageToPage", sourceKeyPath: "pages")),
            ],
            entityMigrationPolicyClassName: "BookCoverToCoverMigrationPolicy", userInfo: ["modelVersion": "V3"])
    }

    static func makeGraphicNovelMapping() -> EntityMapping {
        EntityMapping(
            name: "GraphicNovelToGraphicNovel", sourceEntityName: "GraphicNovel", destinationEntityName: "GraphicNovel",
            attributeMappings: sourceKeyPaths(["isBlackAndWhite", "pagesCount", "price", "publishedAt", "title", "uniqueID"]),
            relationshipMappings: [
                PropertyMapping(name: "author", value: .destinationInstances(entityMappingName: "AuthorToAuthor", sourceKeyPath: "author")),
                PropertyMapping(name: "pages", value: .destinationInstances(entityMappingName: "PageToPage", sourceKeyPath: "pages")),
            ],
            entityMigrationPolicyClassName: "BookCoverToCoverMigrationPolicy", userInfo: ["modelVersion": "V3"])
    }

    /// Feedbacks whose comment contains "great", their rating raised by 10.
    static func makeFeedbackMappingPartOne() throws -> EntityMapping {
        EntityMapping(
            name: "FeedbackToFeedbackPartOne", sourceEntityName: "Feedback", destinationEntityName: "Feedback",
            attributeMappings: sourceKeyPaths(["authorAlias", "bookID", "comment"])
                + [PropertyMapping(name: "rating", value: .expression(try ObjectExpression(parsing: "$source.rating + 10")))],
            relationshipMappings: [],
            sourcePredicate: ObjectPredicate(format: "%K CONTAINS [c] %@", "comment", "great"))
    }

    /// The other feedbacks, unchanged.
    static func makeFeedbackMappingPartTwo() -> EntityMapping {
        EntityMapping(
            name: "FeedbackToFeedbackPartTwo", sourceEntityName: "Feedback", destinationEntityName: "Feedback",
            attributeMappings: sourceKeyPaths(["authorAlias", "bookID", "comment", "rating"]),
            relationshipMappings: [],
            sourcePredicate: ObjectPredicate(format: "NOT (%K CONTAINS [c] %@)", "comment", "great"))
    }

    static func makePageMapping() -> EntityMapping {
        EntityMapping(
            name: "PageToPage", sourceEntityName: "Page", destinationEntityName: "Page",
            attributeMappings: sourceKeyPaths(["content", "isBookmarked", "number"]),
            relationshipMappings: [PropertyMapping(name: "book", value: .sourceKeyPath("book"))])
    }

    static func makeAuthorMapping() -> EntityMapping {
        EntityMapping(
            name: "AuthorToAuthor", sourceEntityName: "Author", destinationEntityName: "Author",
            attributeMappings: sourceKeyPaths(["age", "alias"]) + [PropertyMapping(name: "socialURL", value: nil)],
            relationshipMappings: [PropertyMapping(name: "books", value: .sourceKeyPath("books"))])
    }

    /// Two mapping models, run in this order, each by its own manager, into one store.
    static func makeMappingModelV2toV3(versions: ManagedObjectModelVersions) throws -> [MappingModel] {
        let source = versions.versions[1]
        let destination = versions.versions[2]
        func mappingModel(_ entityMappings: [EntityMapping]) -> MappingModel {
            MappingModel(
                from: source.name, to: destination.name, entityMappings: entityMappings,
                sourceEntityVersionHashes: source.entityVersionHashes, destinationEntityVersionHashes: destination.entityVersionHashes)
        }
        let mappingModel1 = mappingModel([try makeFeedbackMappingPartOne(), makeFeedbackMappingPartTwo()])
        let mappingModel2 = mappingModel([makePageMapping(), makeAuthorMapping(), makeBookMapping(), makeGraphicNovelMapping()])
        return [mappingModel1, mappingModel2]
    }
}

// MARK: - SampleModel2.swift (`mappingModelsToNextModelVersion`) and Migrator.swift

/// CoreDataPlus's `Migrator` on SampleModel2: from the store's version to the target, one step per
/// version, each step's mapping models (V1 → V2 inferred, V2 → V3 the two above) run in turn by a
/// new manager each into one new store, which then replaces the store. Left out: its progress
/// reporting and logging, and the WAL checkpoint (the runtime's migration makes one itself).
enum SampleModel2Migrator {
    static func mappingModelsToNextModelVersion(from index: Int, versions: ManagedObjectModelVersions) throws -> [MappingModel] {
        switch index {
        case 0:
            // Removed Author siteURL; renamed Book cover into frontCover
            return [try MappingModel.inferred(from: versions.versions[0].model, to: versions.versions[1].model)]
        case 1:
            return try SampleModel2MappingPort.makeMappingModelV2toV3(versions: versions)
        default:
            return []
        }
    }

    static func migrateStore(at url: URL, to targetName: String, versions: ManagedObjectModelVersions = SampleModel2Port.allVersions) throws {
        EntityMigrationPolicies.register(BookCoverToCoverMigrationPolicy.self, named: "BookCoverToCoverMigrationPolicy")
        guard let source = try versions.sourceVersion(ofStoreAt: url),
              let sourceIndex = versions.versions.firstIndex(where: { $0.name == source.name }),
              let targetIndex = versions.versions.firstIndex(where: { $0.name == targetName })
        else { throw AppMigrationPolicies.PolicyFailure(description: "A ModelVersion could not be found for the initial store at: \(url.path).") }
        var currentURL = url
        let folder = url.deletingLastPathComponent()
        for step in sourceIndex..<targetIndex {
            let temporaryURL = folder.appendingPathComponent(UUID().uuidString).appendingPathExtension("sqlite")
            for mappingModel in try mappingModelsToNextModelVersion(from: step, versions: versions) {
                let manager = MigrationManager(sourceModel: versions.versions[step].model, destinationModel: versions.versions[step + 1].model)
                try manager.migrateStore(from: currentURL, to: temporaryURL, mappingModel: mappingModel)
            }
            if currentURL != url { try removeStore(at: currentURL) }
            currentURL = temporaryURL
        }
        // move the store at currentURL to (final) destinationURL
        if currentURL != url {
            try removeStore(at: url)
            try FileManager.default.moveItem(at: currentURL, to: url)
        }
    }

    private static func removeStore(at url: URL) throws {
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.removeItem(at: url)
    }
}
