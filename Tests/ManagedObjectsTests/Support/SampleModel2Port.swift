import DataModel
import ManagedObjects

/// CoreDataPlus's SampleModel2, which that project builds in code (`SampleModel2+V1.swift`,
/// `SampleModel2+V2.swift`, `SampleModel2+V3.swift`, beside its stores in `shared/stores/alemar11__CoreDataPlus/SampleModel2`),
/// ported to model values: the entities, attributes, relationships, counts and uniqueness
/// constraints those files declare, as Core Data had them when it wrote the stores (each store's
/// `Z_MODELCACHE` holds that model, archived). Left out: the fetched properties (`feedbacks`,
/// `favFeedbacks`) and the title's validation predicates, none in a version hash or the schema;
/// and Author's fetch index `authorIndex`, which the model Core Data used did not have (its
/// archive in `Z_MODELCACHE` has no fetch index, the files no index on `ZALIAS` but the unique
/// one): CoreDataPlus sets it before `add(_:)` reassigns the entity's `properties`, which is
/// the likely cause. `cover` and `content` name CoreDataPlus's own transformers (keyed archives
/// of its `Cover` and `Content` classes, which this port does not have): `archivedBytes`, a
/// pass-through, stands for them, so their cells read as the archives' bytes. Version 3, which
/// wrote no store, gives Book's `frontCover` no default (CoreDataPlus's is the object
/// `Cover(text: "default cover")`; a Transformable attribute has no default value here) and so
/// makes it optional: a book migrated to it has no `frontCover` where Core Data's has that default.
enum SampleModel2Port {
    static let archivedBytes: ValueTransformerName = {
        let name = ValueTransformerName("SampleModel2Port.ArchivedBytes")
        ValueTransformer.setValueTransformer(ValueTransformer(), forName: name)
        return name
    }()

    /// Version 1 (`SampleModel2V1`), 2 (`SampleModel2V2`: Author's `siteURL` removed, Book's
    /// `cover` renamed `frontCover`) or 3 (`SampleModel3V3`: Author's `socialURL` added; a Cover
    /// entity, each Book's required `cover`; Book's `author` and Page's `book` optional).
    static func model(version: Int) -> Model {
        let writer = Entity(
            name: "Writer", isAbstract: true,
            attributes: [Attribute(name: "age", type: .integer16)])
        let author = Entity(
            name: "Author", parentEntity: "Writer",
            attributes: [Attribute(name: "alias", type: .string)]
                + (version == 1 ? [Attribute(name: "siteURL", type: .uri, isOptional: true)] : [])
                + (version == 3 ? [Attribute(name: "socialURL", type: .uri, isOptional: true, renamingIdentifier: "socialURL")] : []),
            relationships: [
                Relationship(name: "books", destinationEntity: "Book", inverseName: "author", inverseEntity: "Book",
                             isToMany: true, isOptional: true, deleteRule: .cascade, minCount: 0,
                             // `.max`, as CoreDataPlus sets it: Core Data hashes it as 0xFFFFFFFF (the
                             // store's Author hash says so), not as unbounded.
                             maxCount: Int.max),
            ],
            uniquenessConstraints: [["alias"]])
        let book = Entity(
            name: "Book",
            attributes: [
                Attribute(name: "uniqueID", type: .uuid),
                Attribute(name: "title", type: .string),
                Attribute(name: "price", type: .decimal),
                Attribute(name: version == 1 ? "cover" : "frontCover", type: .transformable, isOptional: version == 3,
                          valueTransformerName: archivedBytes.rawValue, renamingIdentifier: version == 2 ? "cover" : nil),
                Attribute(name: "publishedAt", type: .date),
                Attribute(name: "pagesCount", type: .integer64, isOptional: true, isDerived: true, derivationExpression: "pages.@count"),
            ],
            relationships: [
                Relationship(name: "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
                             isOptional: version == 3, minCount: version == 3 ? 0 : 1, maxCount: 1),
                Relationship(name: "pages", destinationEntity: "Page", inverseName: "book", inverseEntity: "Page",
                             isToMany: true, deleteRule: .cascade, minCount: 1, maxCount: 10_000),
            ] + (version == 3 ? [
                Relationship(name: "cover", destinationEntity: "Cover", inverseName: "book", inverseEntity: "Cover",
                             deleteRule: .cascade, minCount: 1, maxCount: 1),
            ] : []),
            uniquenessConstraints: [["uniqueID"]])
        let graphicNovel = Entity(
            name: "GraphicNovel", parentEntity: "Book",
            attributes: [Attribute(name: "isBlackAndWhite", type: .boolean, defaultValueString: "NO")])
        let page = Entity(
            name: "Page",
            attributes: [
                Attribute(name: "isBookmarked", type: .boolean, defaultValueString: "NO"),
                Attribute(name: "number", type: .integer32),
                Attribute(name: "content", type: .transformable, valueTransformerName: archivedBytes.rawValue),
            ],
            relationships: [
                Relationship(name: "book", destinationEntity: "Book", inverseName: "pages", inverseEntity: "Book",
                             isOptional: version == 3, minCount: version == 3 ? 0 : 1, maxCount: 1),
            ])
        let feedback = Entity(
            name: "Feedback",
            attributes: [
                Attribute(name: "authorAlias", type: .string),
                Attribute(name: "bookID", type: .uuid),
                Attribute(name: "comment", type: .string, isOptional: true),
                Attribute(name: "rating", type: .double),
            ])
        let cover = Entity(
            name: "Cover",
            attributes: [Attribute(name: "data", type: .binary)],
            relationships: [
                Relationship(name: "book", destinationEntity: "Book", inverseName: "cover", inverseEntity: "Book",
                             deleteRule: .cascade, minCount: 1, maxCount: 1),
            ])
        return Model(entities: [writer, author, book, graphicNovel, page, feedback] + (version == 3 ? [cover] : []))
    }

    /// The versions that wrote the stores, named as CoreDataPlus names them.
    static var versions: [(name: String, model: ManagedObjectModel)] {
        [("SampleModel2V1", ManagedObjectModel(model(version: 1))), ("SampleModel2V2", ManagedObjectModel(model(version: 2)))]
    }

    /// Every version, V3 (`SampleModel3V3`, CoreDataPlus's name) included, as a bundle's versions.
    static let allVersions = ManagedObjectModelVersions(
        versions: [("SampleModel2V1", 1), ("SampleModel2V2", 2), ("SampleModel3V3", 3)].map {
            .init(name: $0.0, model: ManagedObjectModel(model(version: $0.1)))
        },
        currentVersionName: "SampleModel3V3")
}
