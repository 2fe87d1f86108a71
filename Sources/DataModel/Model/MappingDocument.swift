/// A mapping model as Xcode writes it (`.xcmappingmodel`, its `xcmapping.xml`): how the objects of
/// one model version become those of another. Values only; the runtime turns them into its
/// `MappingModel`, which it runs.
public struct MappingDocument: Hashable, Sendable, Codable {
    /// The version names (the `.xcdatamodel` folder names without extension) it maps between.
    public var sourceVersionName: String
    public var destinationVersionName: String
    /// In Xcode's order (its `mappingnumber`), the order Core Data runs them in.
    public var entityMappings: [EntityMapping]
    /// The two versions as the file keeps them (`sourcemodeldata`, `destinationmodeldata`), with
    /// what their entities' version hashes depend on: Core Data picks a mapping model by those
    /// hashes, not by the names above, which may be stale. `nil` when the file has none.
    public var sourceModel: Model?
    public var destinationModel: Model?

    public init(
        sourceVersionName: String, destinationVersionName: String, entityMappings: [EntityMapping],
        sourceModel: Model? = nil, destinationModel: Model? = nil
    ) {
        self.sourceVersionName = sourceVersionName
        self.destinationVersionName = destinationVersionName
        self.entityMappings = entityMappings
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
    }

    /// One entity mapping (Core Data's `NSEntityMapping`).
    public struct EntityMapping: Hashable, Sendable, Codable {
        /// As Xcode names it: `<source>To<destination>` (`CarToCar`), or the destination's name
        /// alone for a mapping without a source entity.
        public var name: String
        /// `nil`: the mapping makes no objects from the source store (a new entity, filled by a policy).
        public var sourceEntityName: String?
        public var destinationEntityName: String?
        /// Xcode's `mappingtypename` (`Undefined`, `Copy`, `Add`, `Remove`, `Transform`, `Custom`).
        public var mappingTypeName: String?
        /// As written, possibly module-qualified (`App.CarPolicy`, `REPLACE_AT_RUNTIME.CarPolicy`).
        public var migrationPolicyClassName: String?
        /// The entity mapping's user info (Core Data's `NSEntityMapping.userInfo`, which policies
        /// read), as Xcode's editor writes it: string values by key.
        public var userInfo: [String: String]
        /// Whether Xcode fills properties without an expression with its default
        /// (`$source.<name>` for an attribute, the destination objects of the source relationship of
        /// that name for a relationship).
        public var autogeneratesExpressions: Bool
        public var attributeMappings: [PropertyMapping]
        public var relationshipMappings: [PropertyMapping]

        public init(
            name: String, sourceEntityName: String?, destinationEntityName: String?, mappingTypeName: String? = nil,
            migrationPolicyClassName: String? = nil, userInfo: [String: String] = [:], autogeneratesExpressions: Bool = true,
            attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = []
        ) {
            self.name = name
            self.sourceEntityName = sourceEntityName
            self.destinationEntityName = destinationEntityName
            self.mappingTypeName = mappingTypeName
            self.migrationPolicyClassName = migrationPolicyClassName
            self.userInfo = userInfo
            self.autogeneratesExpressions = autogeneratesExpressions
            self.attributeMappings = attributeMappings
            self.relationshipMappings = relationshipMappings
        }
    }

    /// The value of one destination property (Core Data's `NSPropertyMapping`).
    public struct PropertyMapping: Hashable, Sendable, Codable {
        public var name: String
        /// `nil`: none written (Xcode's default applies where the entity mapping autogenerates).
        public var valueExpression: MappingExpression?

        public init(name: String, valueExpression: MappingExpression? = nil) {
            self.name = name
            self.valueExpression = valueExpression
        }
    }
}
