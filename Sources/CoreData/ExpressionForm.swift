import DataModel
import Foundation
import ManagedObjects

/// What an `NSExpression` made by this module stands for, as a piece of a predicate format:
/// a comparison of two of them is the format predicate they make together.
@available(*, deprecated, message: "NSExpression is deprecated in swift-corelibs-foundation")
enum ExpressionForm {
    case keyPath(String)
    case constant(Any?)
    case variable(String)
    case evaluatedObject
    /// `NSExpression(forFunction:arguments:)`: one of `NSExpression`'s functions by name.
    case function(String, [NSExpression])
    /// `NSExpression(forAggregate:)`: a collection of expressions.
    case aggregate([NSExpression])
    /// `NSExpression(format:)`: the expression a format writes, with its arguments.
    case format(String, [Any?])

    /// The forms of the expressions this module made, by identity.
    static let forms = IdentityTable<ExpressionForm>()

    /// The form of `expression`, which this module made.
    /// - Precondition: `expression` was made by one of this module's initializers (Foundation's
    ///   own are unavailable on Linux, so no other can be).
    static func of(_ expression: NSExpression, _ role: String) -> ExpressionForm {
        guard let form = forms.value(for: expression) else {
            preconditionFailure("\(role): the expression was not made by one of NSExpression's initializers that CoreData gives")
        }
        return form
    }

    /// The expression as format text and the arguments its `%K` and `%@` take.
    var format: (text: String, arguments: [Any?]) {
        switch self {
        case .keyPath(let keyPath): return ("%K", [keyPath])
        case .constant(nil): return ("nil", [])
        case .constant(let value?): return ("%@", [value])
        case .variable(let name): return ("$\(name)", [])
        case .evaluatedObject: return ("SELF", [])
        case .format(let text, let arguments): return ("(\(text))", arguments)
        case .aggregate(let items):
            let parts = items.map { Self.of($0, "NSExpression(forAggregate:)").format }
            return ("{" + parts.map(\.text).joined(separator: ", ") + "}", parts.flatMap(\.arguments))
        case .function(let name, let arguments):
            let parts = arguments.map { Self.of($0, "NSExpression(forFunction: \"\(name)\")").format }
            let texts = parts.map(\.text)
            // A format writes the two-argument arithmetic functions as operators.
            let operators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "raise:toPower:": "**"]
            if let symbol = operators[name], texts.count == 2 {
                return ("(\(texts[0]) \(symbol) \(texts[1]))", parts.flatMap(\.arguments))
            }
            return ("\(name)(" + texts.joined(separator: ", ") + ")", parts.flatMap(\.arguments))
        }
    }

    /// Core Data's kind of the expression; an expression from a format is the kind of what it
    /// writes (arithmetic is a function, as in Core Data).
    var expressionType: NSExpression.ExpressionType {
        switch self {
        case .keyPath: .keyPath
        case .constant: .constantValue
        case .variable: .variable
        case .evaluatedObject: .evaluatedObject
        case .function: .function
        case .aggregate: .aggregate
        case .format(let text, _):
            switch try? PredicateExpressionSyntax(parsing: text) {
            case .keyPath?, .keyPathOn?: .keyPath
            case .literal?, .argument?: .constantValue
            case .variable?: .variable
            case .evaluatedObject?: .evaluatedObject
            case .aggregate?: .aggregate
            case .subquery?: .subquery
            case .ternary?: .conditional
            case .function?, .arithmetic?, .negation?, .index?, .assignment?, nil: .function
            }
        }
    }
}
