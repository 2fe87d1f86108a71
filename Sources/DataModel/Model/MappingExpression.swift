/// A value expression of a mapping model, as the `NSExpression` Xcode archives: the kinds a
/// mapping model holds.
public indirect enum MappingExpression: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A constant: a string, a number, or `nil`.
    case constant(Constant)
    /// `$name`: `$source`, `$manager`, `$entityPolicy`, …
    case variable(String)
    /// A bare key path (what `valueForKeyPath:` is given: `$source.owner` is
    /// `.function(.variable("source"), "valueForKeyPath:", [.keyPath("owner")])`).
    case keyPath(String)
    /// `FUNCTION(operand, "selector", arguments…)`.
    case function(operand: MappingExpression, selector: String, arguments: [MappingExpression])

    public enum Constant: Hashable, Sendable, Codable {
        case string(String)
        case integer(Int)
        case double(Double)
        case boolean(Bool)
        case null
    }

    /// As Core Data prints it (`FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)`).
    public var description: String {
        switch self {
        case .constant(.string(let text)): "\"\(text)\""
        case .constant(.integer(let value)): "\(value)"
        case .constant(.double(let value)): "\(value)"
        case .constant(.boolean(let value)): value ? "YES" : "NO"
        case .constant(.null): "nil"
        case .variable(let name): "$\(name)"
        case .keyPath(let keyPath): keyPath
        case .function(let operand, "valueForKeyPath:", let arguments) where arguments.count == 1:
            "\(operand).\(arguments[0])"
        case .function(let operand, let selector, let arguments):
            "FUNCTION(" + ([operand.description, "\"\(selector)\""] + arguments.map(\.description)).joined(separator: ", ") + ")"
        }
    }

    /// The key path of `$source.<keyPath>`, if this is one.
    public var sourceKeyPath: String? {
        if case .function(.variable("source"), "valueForKeyPath:", let arguments) = self,
           arguments.count == 1, case .keyPath(let keyPath) = arguments[0] {
            return keyPath
        }
        return nil
    }
}
