import ManagedObjects

/// Core Data's merge policy kinds, as `NSMergePolicy.mergeType` gives them.
public enum NSMergePolicyType: UInt, Sendable {
    case errorMergePolicyType = 0
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    case overwriteMergePolicyType = 3
    case rollbackMergePolicyType = 4
}

extension MergePolicy {
    /// Which of Core Data's policies this is.
    public var mergeType: NSMergePolicyType {
        switch self {
        case .error: .errorMergePolicyType
        case .mergeByPropertyStoreTrump: .mergeByPropertyStoreTrumpMergePolicyType
        case .mergeByPropertyObjectTrump: .mergeByPropertyObjectTrumpMergePolicyType
        case .overwrite: .overwriteMergePolicyType
        case .rollback: .rollbackMergePolicyType
        }
    }

    /// `NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)`.
    public init(merge type: NSMergePolicyType) {
        switch type {
        case .errorMergePolicyType: self = .error
        case .mergeByPropertyStoreTrumpMergePolicyType: self = .mergeByPropertyStoreTrump
        case .mergeByPropertyObjectTrumpMergePolicyType: self = .mergeByPropertyObjectTrump
        case .overwriteMergePolicyType: self = .overwrite
        case .rollbackMergePolicyType: self = .rollback
        }
    }
}
