import DataModel
/// An expression evaluated against an object: Core Data's `NSExpression`, as a derived
/// attribute's derivation is written (`now()`, `canonical:(name)`, `items.@count`,
/// `items.@sum.price`, `price * quantity`).
///
/// Parsed once by `PredicateExpressionSyntax` and compiled like ``ObjectPredicate``.
public struct ObjectExpression: @unchecked Sendable, CustomStringConvertible {
    // Unchecked for the same reason as ObjectPredicate: immutable once built; arguments are
    // required not to be mutated while it is in use.
    private let syntax: PredicateExpressionSyntax
    private let arguments: [Any?]
    private let compiled: CompiledExpression

    /// An expression from a format string and its arguments (`NSExpression(format:)`).
    /// - Throws: ``ObjectPredicateError`` naming what is wrong (and the column, for syntax).
    public init(parsing format: String, arguments: [Any?] = []) throws(ObjectPredicateError) {
        let syntax: PredicateExpressionSyntax
        do {
            syntax = try PredicateExpressionSyntax(parsing: format)
        } catch {
            throw ObjectPredicateError(format: format, message: error.message, column: error.column)
        }
        try self.init(syntax: syntax, arguments: arguments)
    }

    /// An expression from already parsed syntax and the values of its format arguments.
    public init(syntax: PredicateExpressionSyntax, arguments: [Any?] = []) throws(ObjectPredicateError) {
        self.syntax = syntax
        self.arguments = arguments
        var compiler = PredicateCompiler(arguments: arguments, variables: [:])
        do {
            compiled = try compiler.compile(syntax)
        } catch {
            throw ObjectPredicateError(format: syntax.format, message: error.message, column: nil)
        }
    }

    /// The expression's value for `object` (`expressionValue(with:context:)`); `nil` when a
    /// key path reaches nothing or an operation does not apply. A collection is an `[Any]`
    /// (a to-many path's values each once through a set, as `value(forKeyPath:)` gives them).
    /// Variables are taken from `variables`; one with no value stops the program with a
    /// message naming it, as `NSExpression` raises an exception.
    public func value(with object: Any?, variables: [String: Any] = [:]) -> Any? {
        // A to-many path's values as key-value coding gives them, so that an expression and
        // `value(forKeyPath:)` agree.
        PredicateValues.normalized(CompiledKeyPath.keyValueResult(compiled.evaluate(PredicateSubject(object), variables)))
    }

    /// The variables the expression reads (`source` for `$source.rating`), each once.
    public var variableNames: [String] { syntax.variableNames }

    /// The expression as a format string, arguments written as literals.
    public var expressionFormat: String {
        let arguments = arguments
        return PredicatePrinter(argument: { index, kind in
            guard index < arguments.count else { return nil }
            if kind == .keyPath, let path = PredicateValues.string(arguments[index]) { return path }
            return ObjectPredicate.literalText(arguments[index])
        }).format(syntax)
    }

    public var description: String { expressionFormat }
}
