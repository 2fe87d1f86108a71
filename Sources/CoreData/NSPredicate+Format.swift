import Foundation
@_spi(CoreData) import ManagedObjects

// Core Data's format-string predicates on Foundation's own `NSPredicate`, whose format
// initializers are unavailable on Linux: these are chosen over them.
extension NSPredicate {
    /// `NSPredicate(format:_:)`: parsed by the runtime (`ObjectPredicate`); a format that does
    /// not parse, or arguments that do not fit it, stop the program, as Core Data raises.
    public convenience init(format predicateFormat: String, _ args: Any?...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// `NSPredicate(format:argumentArray:)`.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any?]?) {
        let predicate = ObjectPredicate(format: predicateFormat, argumentArray: arguments)
        self.init { object, variables in predicate.evaluate(with: object, substitutionVariables: variables) }
        FoundationBridge.predicates.set(predicate, for: self)
    }

    /// `$VARIABLES` replaced by values.
    public func withSubstitutionVariables(_ variables: [String: Any]) -> Self {
        let substituted = FoundationBridge.objectPredicate(self).withSubstitutionVariables(variables)
        // Only this module's predicates and compounds of them have variables to substitute.
        return FoundationBridge.nsPredicate(substituted) as? Self ?? self
    }
}
