import Foundation

/// Core Data's `NSExpression` initializers, which Foundation on Linux declares unavailable (and
/// the class deprecated): these are chosen over them, so code building predicates from
/// expressions (QueryKit) compiles. An expression made here is a key path, a constant, a
/// variable or the evaluated object; an `NSComparisonPredicate` of two of them runs in the store
/// like the same predicate written as a format. Only `NSExpression` adopts this protocol.
@available(*, deprecated, message: "NSExpression is deprecated in swift-corelibs-foundation")
public protocol _CoreDataExpression {}

@available(*, deprecated, message: "NSExpression is deprecated in swift-corelibs-foundation")
extension NSExpression: _CoreDataExpression {}

@available(*, deprecated, message: "NSExpression is deprecated in swift-corelibs-foundation")
extension _CoreDataExpression {
    /// An expression giving the value at `keyPath` of the object evaluated.
    public init(forKeyPath keyPath: String) {
        self.init(.keyPath(keyPath))
    }

    /// An expression giving the value at a Swift key path (Foundation's overlay on Apple
    /// platforms): a generated class's property by the name its class gives the key path, else
    /// the key path's own text after its root type (`\Person.name` → `name`), as
    /// `_kvcKeyPathString` would give it for an `@objc` property.
    public init<Root, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        self.init(.keyPath(FoundationBridge.propertyName(of: keyPath)))
    }

    /// An expression giving `obj` (`nil` or `NSNull` for nil).
    public init(forConstantValue obj: Any?) {
        self.init(.constant(obj is NSNull ? nil : obj))
    }

    /// An expression giving the substitution variable `string` (`$string` in a format).
    public init(forVariable string: String) {
        self.init(.variable(string))
    }

    /// The key path of an expression made with `init(forKeyPath:)`; empty for another
    /// expression (Core Data raises there).
    public var keyPath: String {
        guard let expression = self as? NSExpression,
              case .keyPath(let keyPath)? = ExpressionForm.forms.value(for: expression) else { return "" }
        return keyPath
    }

    private init(_ form: ExpressionForm) {
        guard let expressionType = Self.self as? NSExpression.Type else {
            preconditionFailure("CoreData: only NSExpression adopts _CoreDataExpression")
        }
        let expression = FoundationInstances.make(expressionType)
        ExpressionForm.forms.set(form, for: expression)
        self = expression as! Self
    }
}
