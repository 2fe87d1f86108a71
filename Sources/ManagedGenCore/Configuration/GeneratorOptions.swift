/// What the generator can be told. The CLI flags and the config file (`managedgen.json` next to
/// the model, or `--config path`) use the same names: the JSON keys are these property names.
///
/// ```json
/// { "accessLevel": "internal", "optionality": "strict", "wrapperSuffix": "_", "singleFile": true, "snapshots": true }
/// ```
public struct GeneratorOptions: Hashable, Sendable, Codable {
    /// How attribute optionality and scalar-ness map to Swift types.
    public enum Optionality: String, Hashable, Sendable, Codable, CaseIterable {
        /// As Xcode generates: object types optional, numbers per `usesScalarValueType`
        /// (non-optional scalars, or `NSNumber?` when it is off or absent).
        case xcode
        /// Follows the model's optional flags: optional → `T?`, required → `T`; numbers are
        /// always Swift scalars (`Int16?` when optional).
        case strict
    }

    /// The access level of generated declarations: `public` (default), `package` or `internal`.
    public var accessLevel: AccessLevel
    public var optionality: Optionality
    /// Properties whose model name ends with this suffix also get a non-optional wrapper without
    /// it. Empty turns the convention off (user info can still opt a property in).
    public var wrapperSuffix: String
    /// One file for everything instead of one per entity plus one for the model.
    public var singleFile: Bool
    /// The name of the enum holding the model as Swift values; default `<ModelName>Model`.
    public var modelTypeName: String?
    /// What to do with entities whose codegen is Manual/None.
    public var manualCodegen: ManualCodegen
    /// Which versions of a `.xcdatamodeld` the generated model carries for migration.
    public var modelVersions: ModelVersions
    /// How to-many relationships are typed.
    public var toManyCollections: ToManyCollections
    /// Whether each generated class that has no subclass gets a `Snapshot` struct (`Sendable`,
    /// `Codable`, `Hashable`), `snapshot()` and `fetchSnapshots(where:sortedBy:in:)`. An
    /// entity's user info `managedgen.snapshots` (`YES`/`NO`) decides for that entity.
    public var snapshots: Bool

    public enum ToManyCollections: String, Hashable, Sendable, Codable, CaseIterable {
        /// Typed Swift collections: `Set<Walk>`, ordered `OrderedSet<Walk>`, with accessors taking them.
        case swift
        /// As Xcode's codegen types them, for code written against Apple's Core Data (`import
        /// CoreData`): `NSSet?`, ordered `NSOrderedSet?`, with Xcode's accessors taking `NSSet`,
        /// `NSOrderedSet` and `NSIndexSet`. The build plugin picks it for targets that depend on
        /// the `CoreData` product, unless their configuration says otherwise.
        case foundation
    }

    public enum ModelVersions: String, Hashable, Sendable, Codable, CaseIterable {
        /// Every version, as `<Model>.versions`: a store written with any of them migrates,
        /// and the app ships no model file.
        case all
        /// The current version alone (no `versions`): less code to compile; migration then
        /// needs the versions from elsewhere (`ManagedObjectModelVersions(contentsOf:)`).
        case current
    }

    public enum ManualCodegen: String, Hashable, Sendable, Codable, CaseIterable {
        /// As Xcode: no source (you write the class); the entity is still in the model.
        case skip
        /// Generate a class as for "Class Definition" (handy for old models written before
        /// codegen existed).
        case `class`
    }

    public enum AccessLevel: String, Hashable, Sendable, Codable, CaseIterable {
        case `public`, package, `internal`
    }

    public init(
        accessLevel: AccessLevel = .public,
        optionality: Optionality = .xcode,
        wrapperSuffix: String = "_",
        singleFile: Bool = false,
        modelTypeName: String? = nil,
        manualCodegen: ManualCodegen = .skip,
        modelVersions: ModelVersions = .all,
        toManyCollections: ToManyCollections = .swift,
        snapshots: Bool = false
    ) {
        self.accessLevel = accessLevel
        self.optionality = optionality
        self.wrapperSuffix = wrapperSuffix
        self.singleFile = singleFile
        self.modelTypeName = modelTypeName
        self.manualCodegen = manualCodegen
        self.modelVersions = modelVersions
        self.toManyCollections = toManyCollections
        self.snapshots = snapshots
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case accessLevel, optionality, wrapperSuffix, singleFile, modelTypeName, manualCodegen, modelVersions, toManyCollections, snapshots
    }

    /// Decodes a config file; every key is optional and unknown keys are an error, so a typo does
    /// not pass silently.
    public init(from decoder: any Decoder) throws {
        let defaults = GeneratorOptions()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).filter { !known.contains($0) }
        if let key = unknown.sorted().first {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [AnyKey(stringValue: key)],
                debugDescription: "unknown option '\(key)'; known: \(CodingKeys.allCases.map(\.stringValue).joined(separator: ", "))"))
        }
        accessLevel = try container.decodeIfPresent(AccessLevel.self, forKey: .accessLevel) ?? defaults.accessLevel
        optionality = try container.decodeIfPresent(Optionality.self, forKey: .optionality) ?? defaults.optionality
        wrapperSuffix = try container.decodeIfPresent(String.self, forKey: .wrapperSuffix) ?? defaults.wrapperSuffix
        singleFile = try container.decodeIfPresent(Bool.self, forKey: .singleFile) ?? defaults.singleFile
        modelTypeName = try container.decodeIfPresent(String.self, forKey: .modelTypeName)
        manualCodegen = try container.decodeIfPresent(ManualCodegen.self, forKey: .manualCodegen) ?? defaults.manualCodegen
        modelVersions = try container.decodeIfPresent(ModelVersions.self, forKey: .modelVersions) ?? defaults.modelVersions
        toManyCollections = try container.decodeIfPresent(ToManyCollections.self, forKey: .toManyCollections)
            ?? defaults.toManyCollections
        snapshots = try container.decodeIfPresent(Bool.self, forKey: .snapshots) ?? defaults.snapshots
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
