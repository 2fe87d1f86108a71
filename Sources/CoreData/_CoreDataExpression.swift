import Foundation

/// Core Data's `NSExpression` initializers and properties, which Foundation on Linux declares
/// unavailable (and the class deprecated): these are chosen over them, so code building
/// predicates from expressions (QueryKit) compiles. An expression made here is a key path, a
/// constant, a variable, the evaluated object, a function, an aggregate or one written as a
/// format; an `NSComparisonPredicate` of two of them runs in the store like the same predicate
/// written as a format. Only `NSExpression` adopts this protocol.
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

    /// An expression giving the object evaluated (`SELF` in a format).
    public static func expressionForEvaluatedObject() -> Self {
        Self(.evaluatedObject)
    }

    /// An expression calling one of `NSExpression`'s functions by its name (`"sum:"`,
    /// `"uppercase:"`, `"now"`, `"add:to:"` …) on `parameters`, expressions made here. A name
    /// Core Data does not know is reported when the predicate using it is read, as Core Data
    /// raises there.
    public init(forFunction name: String, arguments parameters: [Any]) {
        self.init(.function(name, parameters.map { parameter in
            guard let expression = parameter as? NSExpression else {
                preconditionFailure("NSExpression(forFunction: \"\(name)\"): the arguments are expressions, not \(type(of: parameter))")
            }
            return expression
        }))
    }

    /// An expression giving the collection of `subexpressions` (`{1, 2, 3}` in a format).
    public init(forAggregate subexpressions: [Any]) {
        self.init(.aggregate(subexpressions.map { item in
            guard let expression = item as? NSExpression else {
                preconditionFailure("NSExpression(forAggregate:): the items are expressions, not \(type(of: item))")
            }
            return expression
        }))
    }

    /// The expression `expressionFormat` writes, with `%@` and `%K` taking `args` as in a
    /// predicate format (`NSExpression(format: "tags.@count")`, `"sum:(%K)"`).
    public init(format expressionFormat: String, _ args: Any...) {
        self.init(.format(expressionFormat, args))
    }

    /// ``init(format:_:)`` with the arguments in an array.
    public init(format expressionFormat: String, argumentArray arguments: [Any]) {
        self.init(.format(expressionFormat, arguments))
    }

    /// The kind of the expression (a format's is the kind of what it writes).
    public var expressionType: NSExpression.ExpressionType {
        form?.expressionType ?? .constantValue
    }

    /// The key path of an expression made with `init(forKeyPath:)`; empty for another
    /// expression (Core Data raises there).
    public var keyPath: String {
        guard case .keyPath(let keyPath)? = form else { return "" }
        return keyPath
    }

    /// The value of an expression made with `init(forConstantValue:)`; `nil` for another.
    public var constantValue: Any? {
        guard case .constant(let value)? = form else { return nil }
        return value
    }

    /// The name of an expression made with `init(forVariable:)`; empty for another.
    public var variable: String {
        guard case .variable(let name)? = form else { return "" }
        return name
    }

    /// The function name of an expression made with `init(forFunction:arguments:)`; empty for another.
    public var function: String {
        guard case .function(let name, _)? = form else { return "" }
        return name
    }

    /// The arguments of an expression made with `init(forFunction:arguments:)`; `nil` for another.
    public var arguments: [NSExpression]? {
        guard case .function(_, let arguments)? = form else { return nil }
        return arguments
    }

    /// The expressions of one made with `init(forAggregate:)`; an empty array for another.
    public var collection: Any {
        guard case .aggregate(let items)? = form else { return [NSExpression]() }
        return items
    }

    private var form: ExpressionForm? {
        (self as? NSExpression).flatMap { ExpressionForm.forms.value(for: $0) }
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
