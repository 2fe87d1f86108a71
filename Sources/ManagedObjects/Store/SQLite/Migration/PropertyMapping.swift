import DataModel
import Foundation

/// The value of one destination property. Core Data's `NSPropertyMapping`.
public struct PropertyMapping: Sendable {
    /// The value expressions this runtime evaluates (Core Data's are `NSExpression`s).
    public enum Value: Sendable {
        /// `$source.<keyPath>`: for a relationship, the destination objects made of the related source objects.
        case sourceKeyPath(String)
        /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<keyPath>)`.
        case destinationInstances(entityMappingName: String, sourceKeyPath: String)
        /// A constant: the same value for every object (`nil` empties a relationship).
        case constant(MappingExpression.Constant)
        /// An attribute's value computed from the source object, as Core Data evaluates a value
        /// expression: `$source` is the source object (`ObjectExpression(parsing: "$source.rating + 10")`).
        /// It may read no other variable (a migration throws 134110 naming it).
        case expression(ObjectExpression)
    }

    public var name: String
    public var value: Value?

    /// `value` `nil`: no value (the destination property keeps its default).
    public init(name: String, value: Value?) {
        self.name = name
        self.value = value
    }
}
