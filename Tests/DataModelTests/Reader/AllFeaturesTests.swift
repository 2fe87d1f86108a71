import Testing
@testable import DataModel
@testable import DataModelReader

/// `Fixtures/AllFeatures.xcdatamodel` uses every element and attribute of FORMAT.md; each
/// test checks one kind of element, field by field.
@Suite("Reading every element and attribute")
struct AllFeaturesTests {
    let result: ModelReadResult
    let model: Model

    init() throws {
        result = ModelLoader().load(at: ReaderTestPaths.fixture("AllFeatures.xcdatamodel"))
        model = try #require(result.bundle).current.model.withoutSourceLocations()
    }

    private func entity(_ name: String) throws -> Entity {
        try #require(model.entity(named: name))
    }

    private func attribute(_ name: String, of entityName: String = "Book") throws -> Attribute {
        try #require(try entity(entityName).attributes.first { $0.name == name })
    }

    private func relationship(_ name: String, of entityName: String = "Book") throws -> Relationship {
        try #require(try entity(entityName).relationships.first { $0.name == name })
    }

    @Test func readsWithoutAnyDiagnostic() {
        #expect(result.diagnostics.isEmpty)
    }

    @Test func bundleOfOneVersion() throws {
        let bundle = try #require(result.bundle)
        #expect(bundle.name == "AllFeatures")
        #expect(bundle.versions.map(\.name) == ["AllFeatures"])
        #expect(bundle.currentVersionName == "AllFeatures")
        #expect(bundle.current.path.hasSuffix("AllFeatures.xcdatamodel/contents"))
    }

    @Test func modelAttributes() {
        #expect(model.metadata == ModelMetadata(
            name: "AllFeatures",
            userDefinedModelVersionIdentifier: "1.0 Beta 4",
            type: "com.apple.IDECoreDataModeler.DataModel",
            documentVersion: "1.0",
            lastSavedToolsVersion: "22758",
            systemVersion: "23F79",
            minimumToolsVersion: "Xcode 15.0",
            sourceLanguage: "Swift",
            macOSVersion: "Automatic",
            iOSVersion: "Automatic",
            usedWithCloudKit: true,
            usedWithSwiftData: true))
        #expect(model.userInfo == [UserInfoEntry(key: "modelKey", value: "modelValue")])
    }

    @Test func entitiesInFileOrderWithTheirAttributes() throws {
        #expect(model.entities.map(\.name) == ["Book", "Author", "Chapter", "Item", "Pamphlet"])
        let book = try entity("Book")
        #expect(book.representedClassName == ".Book")
        #expect(book.parentEntity == "Item")
        #expect(book.codeGeneration == .category)
        #expect(book.renamingIdentifier == "Volume")
        #expect(book.versionHashModifier == "quick")
        #expect(book.syncable)
        #expect(!book.isAbstract)
        #expect(book.userInfo == [UserInfoEntry(key: "mogenerator.customBaseClass", value: "BaseBook")])

        let author = try entity("Author")
        #expect(author.representedClassName == "Library.Author")
        #expect(author.codeGeneration == .class)
        #expect(author.parentEntity == nil)

        let chapter = try entity("Chapter")
        #expect(chapter.representedClassName == nil)
        #expect(chapter.codeGeneration == .manual)

        let item = try entity("Item")
        #expect(item.isAbstract)
        #expect(item.propertyNames.isEmpty)
        #expect(try entity("Pamphlet").parentEntity == "Item")
    }

    @Test func attributeTypesAndFlags() throws {
        #expect(try attribute("pageCount") == Attribute(
            name: "pageCount", type: .integer16, isIndexed: true, usesScalarValueType: true,
            defaultValueString: "100", minValueString: "1", maxValueString: "10000",
            renamingIdentifier: "pages", versionHashModifier: "v2", syncable: true,
            userInfo: [
                UserInfoEntry(key: "key with.dots...", value: "\"quoted\" > 5 & more"),
                UserInfoEntry(key: "empty", value: ""),
            ]))
        #expect(try attribute("cover") == Attribute(
            name: "cover", type: .binary, isOptional: true,
            allowsExternalBinaryDataStorage: true, allowsCloudEncryption: true))
        #expect(try attribute("chapterCount") == Attribute(
            name: "chapterCount", type: .integer64, isOptional: true, usesScalarValueType: true,
            isDerived: true, derivationExpression: "chapters.@count"))
        #expect(try attribute("colors") == Attribute(
            name: "colors", type: .transformable, isOptional: true,
            customClassName: "[String]", valueTransformerName: "NSSecureUnarchiveFromData"))
        #expect(try attribute("dimensions") == Attribute(
            name: "dimensions", type: .composite, isOptional: true, composite: "Size"))
        #expect(try attribute("email") == Attribute(
            name: "email", type: .string, isOptional: true, minValueString: "3", maxValueString: "254",
            regularExpressionString: #"\A[^@]+@([^@\.]+\.)+[^@\.]+\z"#,
            preserveAfterDeletion: true, spotlightIndexingEnabled: true, storedInTruthFile: true))
        #expect(try attribute("price") == Attribute(
            name: "price", type: .decimal, isOptional: true, defaultValueString: "0.0"))
        #expect(try attribute("published") == Attribute(
            name: "published", type: .date, isOptional: true, usesScalarValueType: false,
            defaultDateTimeInterval: -978_285_600, minValueString: "12/4/2013",
            minDateTimeInterval: 631_123_200, maxDateTimeInterval: 1_000_000_000.5))
        #expect(try attribute("rating") == Attribute(
            name: "rating", type: .float, isOptional: true, usesScalarValueType: true, defaultValueString: "0.0"))
        #expect(try attribute("source").type == .uri)
        #expect(try attribute("uuid").type == .uuid)
        #expect(try attribute("weight") == Attribute(
            name: "weight", type: .double, isOptional: true, usesScalarValueType: false))
        #expect(try attribute("name", of: "Author").defaultValueString == "")
        #expect(try attribute("name", of: "Author").usesScalarValueType == nil)
    }

    @Test func missingAttributeTypeIsUndefined() throws {
        #expect(try attribute("scratch") == Attribute(
            name: "scratch", type: .undefined, isOptional: true, isTransient: true))
    }

    @Test func elementIDWinsOverNonStandardRenamingIdentifier() throws {
        #expect(try attribute("slug").renamingIdentifier == "handle")
        let (model, diagnostics) = readModel(modelXML("""
                <entity name="Photo" syncable="YES">
                    <attribute name="title" optional="YES" attributeType="String" renamingIdentifier="caption"/>
                </entity>
            """))
        #expect(diagnostics.isEmpty)
        #expect(model?.entities.first?.attributes.first?.renamingIdentifier == "caption")
    }

    @Test func relationships() throws {
        #expect(try relationship("author") == Relationship(
            name: "author", destinationEntity: "Author", inverseName: "books", inverseEntity: "Author",
            deleteRule: .deny, maxCount: 1, renamingIdentifier: "writer", syncable: true))
        #expect(try relationship("chapters") == Relationship(
            name: "chapters", destinationEntity: "Chapter", inverseName: "book", inverseEntity: "Chapter",
            isToMany: true, isOrdered: true, isOptional: true, deleteRule: .cascade,
            minCount: 3, maxCount: 10, spotlightIndexingEnabled: true,
            userInfo: [UserInfoEntry(key: "JSONKeyPath", value: "chapters")]))
        #expect(try relationship("related") == Relationship(
            name: "related", destinationEntity: "Book", inverseName: "related", inverseEntity: "Book",
            isToMany: true, isOptional: true, isTransient: true, isIndexed: true, deleteRule: .noAction))
        // Xcode 4 wrote minCount="1" next to optional="YES"; both are kept as written.
        #expect(try relationship("book", of: "Chapter").minCount == 1)
        #expect(try relationship("book", of: "Chapter").isOptional)
        #expect(try relationship("book", of: "Chapter").deleteRule == .nullify)
    }

    @Test func fetchedPropertyWithItsRequest() throws {
        let book = try entity("Book")
        #expect(book.fetchedProperties == [FetchedProperty(
            name: "recentChapters", isOptional: true,
            fetchRequest: FetchRequestTemplate(
                name: "fetchedPropertyFetchRequest", entity: "Chapter",
                predicateString: "$FETCH_SOURCE.uuid == book.uuid AND (number > 2 OR title == nil)"),
            syncable: true,
            userInfo: [UserInfoEntry(key: "kind", value: "recent")])])
    }

    @Test func fetchRequestTemplates() {
        #expect(model.fetchRequests == [
            FetchRequestTemplate(
                name: "BooksNamed", entity: "Book", predicateString: "slug ==[cd] $NAME",
                fetchLimit: 100, fetchBatchSize: 10, resultType: .dictionary,
                includesSubentities: true, includesPropertyValues: true, includesPendingChanges: true,
                returnsObjectsAsFaults: true, returnsDistinctResults: true),
            FetchRequestTemplate(name: "EveryAuthor", entity: "Author"),
            FetchRequestTemplate(
                name: "AuthorIDs", entity: "Author", predicateString: "name > $p1", resultType: .managedObjectID),
        ])
    }

    @Test func configurations() {
        #expect(model.configurations == [
            Configuration(name: "Cloud", usedWithCloudKit: true, memberEntities: ["Book", "Author"]),
            Configuration(name: "Local", memberEntities: ["Chapter"]),
        ])
    }

    @Test func uniquenessConstraintsAndIndexes() throws {
        let book = try entity("Book")
        #expect(book.uniquenessConstraints == [["slug", "author"], ["uuid"]])
        #expect(book.fetchIndexes == [
            FetchIndex(name: "byPageCount", elements: [
                FetchIndex.Element(property: "pageCount", type: "Binary", ascending: true),
                FetchIndex.Element(expression: "1", expressionType: "String", type: "Binary", ascending: false),
            ]),
            FetchIndex(name: "emptyIndex"),
        ])
        #expect(try entity("Author").compoundIndexes == [["name"]])
    }

    @Test func emptyUserInfoReadsAsNoEntries() throws {
        #expect(try relationship("author").userInfo.isEmpty)
    }

    @Test func compositesIncludingNestedAndEmpty() {
        #expect(model.composites == [
            Composite(name: "Size", attributes: [
                Attribute(name: "height", type: .double, isOptional: true, usesScalarValueType: true, defaultValueString: "0.0"),
                Attribute(name: "unit", type: .composite, isOptional: true, composite: "Unit"),
            ]),
            Composite(name: "Unit"),
        ])
    }

    @Test func everyValueCarriesItsSourceLocation() throws {
        let model = try #require(result.bundle).current.model
        let file = ReaderTestPaths.fixture("AllFeatures.xcdatamodel/contents")
        func at(_ line: Int, _ column: Int) -> DataModel.SourceLocation { DataModel.SourceLocation(file: file, line: line, column: column) }
        #expect(model.location == at(2, 1))
        let book = try #require(model.entity(named: "Book"))
        #expect(book.location == at(3, 5))
        #expect(book.attributes.first { $0.name == "pageCount" }?.location == at(9, 9))
        #expect(book.relationships.first { $0.name == "chapters" }?.location == at(26, 9))
        #expect(book.fetchedProperties.first?.location == at(32, 9))
        #expect(book.fetchedProperties.first?.fetchRequest.location == at(33, 13))
        #expect(book.fetchIndexes.map(\.location) == [at(38, 9), at(42, 9)])
        #expect(model.entity(named: "Item")?.location == at(70, 5))
        #expect(model.composites.map(\.location) == [at(72, 5), at(76, 5)])
        #expect(model.composites.first?.attributes.first?.location == at(73, 9))
        #expect(model.fetchRequests.first?.location == at(77, 5))
        #expect(model.configurations.first?.location == at(80, 5))
    }
}
