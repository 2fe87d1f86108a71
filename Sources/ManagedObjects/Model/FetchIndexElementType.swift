/// How an index element is kept: Core Data's `NSFetchIndexElementType`.
public enum FetchIndexElementType: UInt, Sendable {
    case binary = 0
    case rTree = 1
}
