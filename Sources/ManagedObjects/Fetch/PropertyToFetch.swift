import Foundation

/// One column of a dictionary fetch: a property (an attribute, a to-one relationship given as
/// its object ID, or a key path through to-ones) or an aggregate.
public enum PropertyToFetch: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    case property(String)
    case expression(ExpressionDescription)

    public init(stringLiteral name: String) {
        self = .property(name)
    }

    /// The key of the column in each result dictionary.
    public var name: String {
        switch self {
        case .property(let keyPath): keyPath
        case .expression(let description): description.name
        }
    }

    /// The key path the column reads from each object.
    var keyPath: String {
        switch self {
        case .property(let keyPath): keyPath
        case .expression(let description): description.keyPath
        }
    }

    public var description: String {
        switch self {
        case .property(let keyPath): keyPath
        case .expression(let description): description.description
        }
    }
}
