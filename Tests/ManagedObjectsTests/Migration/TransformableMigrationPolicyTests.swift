import DataModel
import Foundation
@testable import ManagedObjects
import Testing

/// A mapping-model migration whose custom policy reads a Transformable `[String]` with
/// `value(forKey:)`, as an app's `NSEntityMigrationPolicy` does, and writes what it derives
/// from it: the model pair, the mapping model and the policy are written for this test.
@Suite("Migration: a policy reading a Transformable [String]")
struct TransformableMigrationPolicyTests {
    /// Recipe v1 keeps its tags as a Transformable `[String]`; v2 keeps them and adds the number
    /// of tags and one line of them, sorted, that the policy derives.
    static let v1 = ManagedObjectModel(Model(entities: [
        Entity(name: "Recipe", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "tags", type: .transformable, isOptional: true, customClassName: "[String]",
                      valueTransformerName: "NSSecureUnarchiveFromData"),
        ]),
    ]))
    static let v2 = ManagedObjectModel(Model(entities: [
        Entity(name: "Recipe", attributes: [
            Attribute(name: "name", type: .string, isOptional: true),
            Attribute(name: "tags", type: .transformable, isOptional: true, customClassName: "[String]",
                      valueTransformerName: "NSSecureUnarchiveFromData"),
            Attribute(name: "tagCount", type: .integer64, usesScalarValueType: true, defaultValueString: "0"),
            Attribute(name: "tagLine", type: .string, isOptional: true),
        ]),
    ]))
    static let versions = ManagedObjectModelVersions(versions: [.init(name: "Recipes", model: v1), .init(name: "Recipes 2", model: v2)])

    /// Makes the recipe as the default does, then reads the source's tags and writes their
    /// count and their sorted line; a source whose tags are not a `[String]` fails the migration.
    final class TagLinePolicy: EntityMigrationPolicy {
        override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping, manager: MigrationManager) throws {
            try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
            guard let recipe = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source]).first else {
                throw TagLineFailure(description: "no destination recipe")
            }
            let value = source.value(forKey: "tags")
            guard value == nil || value is [String] else {
                throw TagLineFailure(description: "tags read as a \(type(of: value!)), not a [String]")
            }
            let tags = value as? [String] ?? []
            recipe.setValue(Int64(tags.count), forKey: "tagCount")
            recipe.setValue(tags.isEmpty ? nil : tags.sorted().joined(separator: ", "), forKey: "tagLine")
        }
    }

    struct TagLineFailure: Error, CustomStringConvertible {
        var description: String
    }

    static let mappingModel: MappingModel = {
        EntityMigrationPolicies.register(TagLinePolicy.self, named: "TagLinePolicy")
        return MappingModel(from: "Recipes", to: "Recipes 2", entityMappings: [
            EntityMapping(
                name: "RecipeToRecipe", sourceEntityName: "Recipe", destinationEntityName: "Recipe",
                attributeMappings: [
                    PropertyMapping(name: "name", value: .sourceKeyPath("name")),
                    PropertyMapping(name: "tags", value: .sourceKeyPath("tags")),
                ],
                entityMigrationPolicyClassName: "TagLinePolicy"),
        ])
    }()

    @Test("the policy reads each recipe's [String] tags and writes their count and sorted line; the tags stay")
    func policyReadsTransformableStrings() throws {
        let files = try TemporaryDirectory()
        let url = files.file("Recipes.sqlite")
        let recipes: [String: [String]?] = ["Soup": ["winter", "easy", "vegan"], "Toast": [], "Water": nil, "Pie": ["sweet"]]
        let writer = try sqliteContext(Self.v1, at: url)
        try writer.performAndWait {
            for (name, tags) in recipes {
                let recipe = ManagedObject(entity: Self.v1["Recipe"]!, insertInto: writer)
                recipe.setValue(name, forKey: "name")
                recipe.setValue(tags, forKey: "tags")
            }
            try writer.save()
        }
        let container = try RealStoreMigrationTests.container(Self.v2, versions: Self.versions, at: url) {
            $0.mappingModels = [Self.mappingModel]
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let migrated = try context.fetch(FetchRequest<ManagedObject>(entityName: "Recipe"))
            #expect(migrated.count == recipes.count)
            for recipe in migrated {
                let name = try #require(recipe.value(forKey: "name") as? String)
                let tags = try #require(recipes[name])
                #expect(recipe.value(forKey: "tags") as? [String] == tags, "\(name)")
                #expect(recipe.value(forKey: "tagCount") as? Int64 == Int64(tags?.count ?? 0), "\(name)")
                let line = (tags ?? []).isEmpty ? nil : tags!.sorted().joined(separator: ", ")
                #expect(recipe.value(forKey: "tagLine") as? String == line, "\(name)")
            }
        }
        #expect(try rawSQL(url.path, "SELECT ZTAGLINE FROM ZRECIPE WHERE ZNAME = 'Soup'") == "easy, vegan, winter")
    }
}
