import DataModel

/// The model description types a generated model literal is built from, under one name:
/// `ManagedObjects` does not re-export `DataModel`, so an app that imports it sees
/// `ModelLiteral`, not `Model`, `Entity`, `Attribute` and `Relationship`, which are common names
/// of an app's own types. Generated code names them as `ManagedObjects.ModelLiteral.Entity`,
/// through private aliases in its model enum. Code that works with model descriptions
/// themselves imports `DataModel`.
public enum ModelLiteral {
    public typealias Model = DataModel.Model
    public typealias Entity = DataModel.Entity
    public typealias Attribute = DataModel.Attribute
    public typealias Relationship = DataModel.Relationship
    public typealias FetchedProperty = DataModel.FetchedProperty
    public typealias FetchRequestTemplate = DataModel.FetchRequestTemplate
    public typealias Configuration = DataModel.Configuration
    public typealias Composite = DataModel.Composite
    public typealias FetchIndex = DataModel.FetchIndex
    public typealias UserInfoEntry = DataModel.UserInfoEntry
    public typealias ModelMetadata = DataModel.ModelMetadata
}
