import Foundation

/// What an `NSExpression` made by this module stands for, as a piece of a predicate format.
enum ExpressionForm {
    case keyPath(String)
    case constant(Any?)
    case variable(String)

    /// The forms of the expressions this module made, by identity.
    static let forms = IdentityTable<ExpressionForm>()

    /// The expression as format text and the arguments its `%K` and `%@` take.
    var format: (text: String, arguments: [Any?]) {
        switch self {
        case .keyPath(let keyPath): ("%K", [keyPath])
        case .constant(nil): ("nil", [])
        case .constant(let value?): ("%@", [value])
        case .variable(let name): ("$\(name)", [])
        }
    }
}
