import DataModel
@_spi(CoreData) import ManagedObjects

/// Core Data's delete rules, with its raw values; the runtime's own are `DeleteRule`.
public enum NSDeleteRule: UInt, Sendable {
    case noActionDeleteRule = 0
    case nullifyDeleteRule = 1
    case cascadeDeleteRule = 2
    case denyDeleteRule = 3

    init(_ rule: DeleteRule) {
        switch rule {
        case .noAction: self = .noActionDeleteRule
        case .nullify: self = .nullifyDeleteRule
        case .cascade: self = .cascadeDeleteRule
        case .deny: self = .denyDeleteRule
        }
    }

    var deleteRule: DeleteRule {
        switch self {
        case .noActionDeleteRule: .noAction
        case .nullifyDeleteRule: .nullify
        case .cascadeDeleteRule: .cascade
        case .denyDeleteRule: .deny
        }
    }
}

// Core Data's spellings of a relationship's rule and counts. This module imports
// ManagedObjects, so in code that imports CoreData these shadow the runtime's `deleteRule:
// DeleteRule` and `minCount`/`maxCount: Int?`; code on ManagedObjects alone keeps those.
extension RelationshipDescription {
    public var deleteRule: NSDeleteRule {
        get { NSDeleteRule(relationship.deleteRule) }
        set { change("deleteRule") { $0.deleteRule = newValue.deleteRule } }
    }

    /// Core Data's `maxCount`: 1 for a to-one, 0 for a to-many without a bound. Setting 1 makes
    /// a to-one, anything else a to-many (0: unbounded).
    public var maxCount: Int {
        get { relationship.isToMany ? relationship.maxCount ?? 0 : 1 }
        set {
            change("maxCount") { relationship in
                relationship.isToMany = newValue != 1
                relationship.maxCount = newValue == 0 ? nil : newValue
            }
        }
    }

    /// Core Data's `minCount`: 0 when there is no bound.
    public var minCount: Int {
        get { relationship.minCount ?? 0 }
        set { change("minCount") { $0.minCount = newValue == 0 ? nil : newValue } }
    }
}
