import Foundation
@_spi(CoreData) import ManagedObjects

/// Core Data's `NSComparisonPredicate(leftExpression:rightExpression:modifier:type:options:)`,
/// which Foundation on Linux declares unavailable: this one is chosen over it. The predicate is
/// the format predicate it stands for (`ANY tags.name ==[c] "x"`), run by the store and
/// evaluated in memory alike; both expressions must be made by this module's `NSExpression`
/// initializers (Foundation's are unavailable on Linux). Its properties give back what it was
/// made of. Only `NSComparisonPredicate` adopts this protocol.
@available(*, deprecated, message: "NSComparisonPredicate is deprecated in swift-corelibs-foundation")
public protocol _CoreDataComparisonPredicate {}

@available(*, deprecated, message: "NSComparisonPredicate is deprecated in swift-corelibs-foundation")
extension NSComparisonPredicate: _CoreDataComparisonPredicate {}

@available(*, deprecated, message: "NSComparisonPredicate is deprecated in swift-corelibs-foundation")
extension _CoreDataComparisonPredicate {
    public init(
        leftExpression lhs: NSExpression, rightExpression rhs: NSExpression,
        modifier: NSComparisonPredicate.Modifier, type: NSComparisonPredicate.Operator,
        options: NSComparisonPredicate.Options
    ) {
        guard let predicateType = Self.self as? NSComparisonPredicate.Type else {
            preconditionFailure("CoreData: only NSComparisonPredicate adopts _CoreDataComparisonPredicate")
        }
        let predicate = ObjectPredicate(comparing: lhs, with: rhs, modifier: modifier, type: type, options: options)
        // Foundation's own predicate evaluating it gives the new object its storage.
        let made = FoundationInstances.make(
            predicateType, takingStorageOf: FoundationBridge.nsPredicate(predicate), leaving: NSPredicate(value: false))
        FoundationBridge.predicates.set(predicate, for: made)
        ComparisonParts.table.set(
            ComparisonParts(leftExpression: lhs, rightExpression: rhs, modifier: modifier, type: type, options: options), for: made)
        self = made as! Self
    }

    /// The left expression of a comparison made here (a comparison from a format is Foundation's
    /// `NSPredicate`, not an `NSComparisonPredicate`).
    public var leftExpression: NSExpression { parts.leftExpression }
    public var rightExpression: NSExpression { parts.rightExpression }
    public var predicateOperatorType: NSComparisonPredicate.Operator { parts.type }
    public var comparisonPredicateModifier: NSComparisonPredicate.Modifier { parts.modifier }
    public var options: NSComparisonPredicate.Options { parts.options }

    private var parts: ComparisonParts {
        guard let predicate = self as? NSComparisonPredicate, let parts = ComparisonParts.table.value(for: predicate) else {
            preconditionFailure("CoreData: an NSComparisonPredicate not made by init(leftExpression:rightExpression:modifier:type:options:)")
        }
        return parts
    }
}

/// What an `NSComparisonPredicate` made here was made of, for its properties.
@available(*, deprecated, message: "NSComparisonPredicate is deprecated in swift-corelibs-foundation")
private struct ComparisonParts {
    static let table = IdentityTable<ComparisonParts>()

    var leftExpression: NSExpression
    var rightExpression: NSExpression
    var modifier: NSComparisonPredicate.Modifier
    var type: NSComparisonPredicate.Operator
    var options: NSComparisonPredicate.Options
}

@available(*, deprecated, message: "NSComparisonPredicate is deprecated in swift-corelibs-foundation")
extension ObjectPredicate {
    /// The format predicate a comparison of two expressions stands for.
    fileprivate init(
        comparing lhs: NSExpression, with rhs: NSExpression, modifier: NSComparisonPredicate.Modifier,
        type: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options
    ) {
        func form(_ expression: NSExpression, _ side: String) -> (text: String, arguments: [Any?]) {
            ExpressionForm.of(expression, "NSComparisonPredicate's \(side) expression").format
        }
        let left = form(lhs, "left"), right = form(rhs, "right")
        let quantifier = switch modifier {
        case .direct: ""
        case .any: "ANY "
        case .all: "ALL "
        @unknown default: preconditionFailure("NSComparisonPredicate: unknown modifier \(modifier)")
        }
        let operatorText = switch type {
        case .lessThan: "<"
        case .lessThanOrEqualTo: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqualTo: ">="
        case .equalTo: "=="
        case .notEqualTo: "!="
        case .matches: "MATCHES"
        case .like: "LIKE"
        case .beginsWith: "BEGINSWITH"
        case .endsWith: "ENDSWITH"
        case .in: "IN"
        case .contains: "CONTAINS"
        case .between: "BETWEEN"
        @unknown default: preconditionFailure("NSComparisonPredicate: unknown operator \(type)")
        }
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        if options.contains(.normalized) { flags += "n" }
        let text = "\(quantifier)\(left.text) \(operatorText)\(flags.isEmpty ? "" : "[\(flags)]") \(right.text)"
        self.init(format: text, argumentArray: left.arguments + right.arguments)
    }
}
